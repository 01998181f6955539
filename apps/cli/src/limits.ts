// Limits of the CLI's own features (agent-setup and the Claude Code hint hook).

/** One hint per command class (grep, rg, git grep, find, fd) per session and root within this window. */
export const HINT_INTERVAL_MS = 5 * 60 * 1000;

/** The hook's stdin beyond this is not a PreToolUse call it answers (a command line is short). */
export const HOOK_INPUT_MAX_BYTES = 1024 * 1024;

/** Seconds Claude Code waits for the hook (settings.json `timeout`); it answers in well under one. */
export const HOOK_TIMEOUT_SECONDS = 5;

/** A search pattern longer than this gets no suggestion: a hint that long helps nobody. */
export const SUGGESTED_PATTERN_MAX_CHARS = 200;

/** `-C` of a suggested search: grep's -A/-B/-C, capped at the CLI's context maximum (render's CONTEXT_LINES_MAX). */
export const SUGGESTED_CONTEXT_MAX = 10;

/** Sessions remembered in one root's hint state file; the oldest are dropped first. */
export const HINT_STATE_MAX_ENTRIES = 200;
