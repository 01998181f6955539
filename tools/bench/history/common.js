'use strict';
// Helpers the two history benchmarks share (run.js: a synthetic repository; real.js: the
// released versions of an npm package): Git, the CLI, clocks and medians. Processes run
// through tools/lib/proc.js.
const path = require('node:path');
const {
  REPO_ROOT,
  DEFAULT_CLI,
  timedRun,
  run,
  whileRebuilding: retryWhileRebuilding,
  median,
} = require('../../lib/proc');

const MAX_OUTPUT = 1 << 30;

/** The built history package (its buildHistoryIndex, walkHistory, ...). */
const loadHistory = () => require(path.join(REPO_ROOT, 'packages', 'history', 'dist', 'index.js'));

/** `git -C cwd ARGV`; its stdout, or a thrown error carrying its stderr. */
const git = (cwd, argv, input, env) => run('git', ['-C', cwd, ...argv], { input, env, maxBuffer: MAX_OUTPUT });

const now = () => process.hrtime.bigint();
/** Milliseconds since `t0` (a `now()`). */
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

/** One whole process, waited for: { ms, status, stdout, stderr }. */
function timed(command, argv, options = {}) {
  const r = timedRun(command, argv, { maxBuffer: MAX_OUTPUT, ...options });
  return { ms: r.seconds * 1000, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `run()` (a timed() result) again every 5 s, up to 2 minutes, while it fails with
 * `Cannot find module`: someone is rebuilding a package's dist/ in this tree.
 */
const whileRebuilding = (runOnce) => retryWhileRebuilding(runOnce, { retries: 24, waitMs: 5000 });

/** `trufflepig --root R --cache C --no-daemon --json -b 20000 WORDS`, parsed (throws on a nonzero exit). */
function cliJson(cli, root, cache, words) {
  const r = whileRebuilding(() =>
    timed(process.execPath, [cli, '--root', root, '--cache', cache, '--no-daemon', '--json', '-b', '20000', ...words], {
      maxBuffer: 1 << 28,
    }),
  );
  if (r.status !== 0) throw new Error(`trufflepig ${words.join(' ')}: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout);
}

const fmtMs = (x) => `${x.toFixed(1)} ms`;

module.exports = { REPO_ROOT, DEFAULT_CLI, loadHistory, git, now, ms, timed, whileRebuilding, cliJson, median, fmtMs };
