#!/usr/bin/env node
// Entry point. A read verb for a single root is first offered to the root's running
// daemon through a path that loads almost nothing (one file: the CLI surface's argv module
// and the daemon client, no index); everything else, and every call the daemon cannot
// answer, takes the full path.
type FastPath = typeof import('./fast-entry');

/** The one-file build of the fast path (scripts/bundle-fast-path.js, esbuild), else its entry unbundled. */
function fastPath(): FastPath {
  try {
    return require('./fast-path') as FastPath;
  } catch {
    return require('./fast-entry') as FastPath;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const { fastOptions, readCommandLine, serveFromDaemon } = fastPath();
  const line = readCommandLine(argv);
  const split = line.split;
  // Claude Code runs the hint hook before every Bash call: it skips option checks and the
  // fast path, and answers every trouble with exit 1 (exit 2 would block the call).
  if (split.verb === 'hook')
    return (require('./hook/entry') as typeof import('./hook/entry')).runHookVerb(split.words, split.options);
  // A misspelt option, a missing value or any other usage error is reported by the full path, never served.
  const fast = fastOptions(line);
  if (fast && split.verb !== undefined) {
    const served = await serveFromDaemon(split.verb, split.words, fast, process.cwd());
    if (served) {
      if (served.stdout) process.stdout.write(served.stdout);
      if (served.stderr) process.stderr.write(served.stderr.endsWith('\n') ? served.stderr : `${served.stderr}\n`);
      return served.exitCode;
    }
  }
  const { runFull } = require('./full') as typeof import('./full');
  return runFull(argv);
}

/**
 * The last resort for an exception nothing else caught (a deleted working directory, say):
 * one coded `internal_error` line, fitted to the call's budget like every error, never a
 * stack. Loads the facade only now, so the fast path stays light.
 */
function reportInternalError(err: unknown, argv: readonly string[]): void {
  try {
    const { budgetOption, splitArgv } = fastPath();
    const split = splitArgv(argv);
    const ws = require('@trufflepig/workspace') as typeof import('@trufflepig/workspace');
    const fallback = split.verb === 'show' ? ws.DEFAULT_SHOW_BUDGET : ws.DEFAULT_BUDGET;
    const budget = budgetOption(split.options) ?? fallback;
    const r = ws.internalErrorResult(err, budget);
    if (r.stdout) process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
  } catch {
    // The facade itself cannot load: nothing on stdout (inside every budget), one plain line.
    let text = 'unknown error';
    try {
      text = (err instanceof Error ? err.message : String(err))
        .split('\n')[0]
        .replace(/[^\x20-\x7e]/g, '?')
        .slice(0, 300);
    } catch {
      // an exception whose text cannot be read: the fixed words above
    }
    process.stderr.write(`trufflepig: internal_error: ${text}\n`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = 2;
    reportInternalError(err, process.argv.slice(2));
  },
);
