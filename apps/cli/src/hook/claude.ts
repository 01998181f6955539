// Claude Code's PreToolUse hook on Bash: a grep, rg, git grep, find or fd aimed at a root
// Trufflepig has indexed gets the equivalent Trufflepig command as added context (or, when
// configured with --block, a denial naming it). Never exit 2 (that blocks the tool call):
// trouble is exit 1, which Claude Code shows the user and otherwise ignores.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HINT_INTERVAL_MS } from '../limits';
import { classify, type CommandClass, type Suggestion } from './classify';
import { decideHint, hintKey, HINT_STATE_FILE, readHintState, writeHintState } from './rate-limit';

export interface HookDeps {
  /** The clock, in ms since the epoch. */
  readonly now: number;
  readonly env: NodeJS.ProcessEnv;
  /** Where the hook process runs: the cwd when the input names none. */
  readonly cwd: string;
  /** The --cache base the hook was installed with, if any. */
  readonly cacheOverride?: string;
  /** Deny the command (naming the suggestion) instead of adding context. */
  readonly block: boolean;
  /** How the suggestion calls Trufflepig (`trufflepig`, or node and main.js); asked only when there is a hint. */
  readonly program: () => string;
}

export interface HookAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 1;
}

const SILENT: HookAnswer = { stdout: '', stderr: '', exitCode: 0 };

const LABEL: Readonly<Record<CommandClass, string>> = {
  grep: 'grep',
  rg: 'rg',
  'git-grep': 'git grep',
  find: 'find',
  fd: 'fd',
};

/** The nearest existing directory at or above `p`, made canonical. */
function existingReal(p: string): string | undefined {
  for (let d = p; ; d = path.dirname(d)) {
    try {
      return fs.realpathSync(d);
    } catch {
      if (path.dirname(d) === d) return undefined;
    }
  }
}

interface IndexedRoot {
  readonly root: string;
  readonly cacheDir: string;
}

/**
 * The indexed root `target` lies in: the nearest directory at or above it whose cache
 * directory exists, looking no higher than the first Git top level. A cheap test (a hash
 * and a stat per level) that needs no index opened.
 */
function indexedRootOf(target: string, deps: HookDeps): IndexedRoot | undefined {
  const { cacheDirForRoot } =
    require('@trufflepig/member-root/cache-dir') as typeof import('@trufflepig/member-root/cache-dir');
  const start = existingReal(target);
  if (start === undefined) return undefined;
  for (let d = start; ; d = path.dirname(d)) {
    const cacheDir = cacheDirForRoot(d, { cacheOverride: deps.cacheOverride, env: deps.env });
    if (fs.existsSync(cacheDir)) return { root: d, cacheDir };
    if (fs.existsSync(path.join(d, '.git')) || path.dirname(d) === d) return undefined;
  }
}

function hintText(s: Suggestion, block: boolean): string {
  const label = LABEL[s.class];
  if (block) {
    const minutes = Math.round(HINT_INTERVAL_MS / 60_000);
    return (
      `Trufflepig has indexed this repository; run \`${s.command}\` instead (ranked hits within a token budget, with handles for \`show\`). ` +
      `If ${label} is really what you need (ignored or generated files, exact counts), run the same command again: it is let through for ${minutes} minutes.`
    );
  }
  return `Trufflepig has indexed this repository: \`${s.command}\` answers the same lookup with ranked hits within a token budget and handles for \`show\`. The ${label} command runs as written.`;
}

function badInput(message: string): HookAnswer {
  return { stdout: '', stderr: `trufflepig: bad_hook_input: ${message}\n`, exitCode: 1 };
}

/** The answer to one PreToolUse call (its JSON as read from stdin). */
export function answerPreToolUse(input: string, deps: HookDeps): HookAnswer {
  let call: unknown;
  try {
    call = JSON.parse(input);
  } catch {
    return badInput('stdin is not JSON; Claude Code sends the PreToolUse call as one JSON object');
  }
  if (typeof call !== 'object' || call === null) return badInput('stdin is not a JSON object');
  const c = call as {
    hook_event_name?: unknown;
    tool_name?: unknown;
    tool_input?: { command?: unknown };
    cwd?: unknown;
    session_id?: unknown;
  };
  if (c.hook_event_name !== undefined && c.hook_event_name !== 'PreToolUse') return SILENT;
  if (c.tool_name !== 'Bash' || typeof c.tool_input?.command !== 'string') return SILENT;
  const command = c.tool_input.command;
  const cwd = typeof c.cwd === 'string' && path.isAbsolute(c.cwd) ? c.cwd : deps.cwd;
  const home = deps.env.HOME !== undefined && path.isAbsolute(deps.env.HOME) ? deps.env.HOME : undefined;
  // First where the command looks (no root yet), then the command for the root found there.
  const rough = classify(command, { cwd, root: '/', ...(home ? { home } : {}) });
  if (!rough) return SILENT;
  const roots = rough.targets.map((t) => indexedRootOf(t, deps));
  const found = roots[0];
  if (found === undefined || roots.some((r) => r?.root !== found.root)) return SILENT;
  const realCwd = existingReal(cwd) ?? cwd;
  const { topLevelOf } = require('@trufflepig/workspace/client') as typeof import('@trufflepig/workspace/client');
  const sameRoot = existingReal(topLevelOf(realCwd)) === found.root;
  const suggestion = classify(command, {
    cwd: realCwd,
    root: found.root,
    program: deps.program(),
    ...(home ? { home } : {}),
    ...(sameRoot ? {} : { rootOption: found.root }),
    // The index the hook found is under this base: the suggestion must name it (an agent
    // trial followed a hint without it into an empty cache and `index_warming`).
    ...(deps.cacheOverride !== undefined ? { cacheOption: deps.cacheOverride } : {}),
  });
  if (!suggestion) return SILENT;
  const stateFile = path.join(found.cacheDir, HINT_STATE_FILE);
  const session = typeof c.session_id === 'string' ? c.session_id : '';
  const decision = decideHint(readHintState(stateFile), hintKey(session, suggestion.class), deps.now);
  if (!decision.hint) return SILENT;
  writeHintState(stateFile, decision.next);
  const text = hintText(suggestion, deps.block);
  const hookSpecificOutput = deps.block
    ? { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text }
    : { hookEventName: 'PreToolUse', additionalContext: text };
  return { stdout: `${JSON.stringify({ hookSpecificOutput })}\n`, stderr: '', exitCode: 0 };
}
