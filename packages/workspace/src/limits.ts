// Limits of workspace federation (workspace contract), one named constant each.

/** A cached worktree divergence probe serves fallback reads for this long. */
export const DIVERGENCE_REUSE_MS = 5_000;
/** An exact sym: miss under parent fallback re-extracts at most this many changed files. */
export const FALLBACK_REEXTRACT_MAX_FILES = 64;
/** One Git call of the divergence probe. */
export const GIT_DIVERGENCE_TIMEOUT_MS = 10_000;
/** An unavailable member's reason is cut to this many characters. */
export const UNAVAILABLE_REASON_MAX_CHARS = 120;
/**
 * A member gets its own worker thread only when its published index is at least this
 * large: below it, a warm search on the main thread costs less than a thread's start-up.
 */
export const WORKER_MIN_INDEX_BYTES = 48 * 1024 * 1024;
