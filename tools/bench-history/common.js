'use strict';
// Helpers the two history benchmarks share (run.js: a synthetic repository; real.js: the
// released versions of an npm package): options, Git, the CLI, clocks and medians.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { median } = require('../lib/proc');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_CLI = path.join(REPO_ROOT, 'apps', 'cli', 'dist', 'main.js');
const MAX_OUTPUT = 1 << 30;

/** `--name VALUE` from argv, else `fallback`. */
function optionReader(argv = process.argv.slice(2)) {
  return (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
}

/** The built history package (its buildHistoryIndex, walkHistory, ...). */
const loadHistory = () => require(path.join(REPO_ROOT, 'packages', 'history', 'dist', 'index.js'));

/** `git -C cwd ARGV`; its stdout, or a thrown error carrying its stderr. */
function git(cwd, argv, input, env) {
  const r = spawnSync('git', ['-C', cwd, ...argv], { encoding: 'utf8', input, maxBuffer: MAX_OUTPUT, ...(env ? { env: { ...process.env, ...env } } : {}) });
  if (r.status !== 0) throw new Error(`git ${argv.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const now = () => process.hrtime.bigint();
/** Milliseconds since `t0` (a `now()`). */
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

/** One whole process, waited for: { ms, status, stdout, stderr }. */
function timed(command, argv, options = {}) {
  const t0 = now();
  const r = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: MAX_OUTPUT, ...options });
  const took = ms(t0);
  if (r.error) throw new Error(`${command} failed to start: ${r.error.message}`);
  return { ms: took, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const REBUILDING = /Cannot find module/;
const sleepSync = (millis) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, millis);

/**
 * `run()` (a timed() result) again every 5 s, up to 2 minutes, while it fails with
 * `Cannot find module`: someone is rebuilding a package's dist/ in this tree.
 */
function whileRebuilding(run) {
  for (let tries = 0; ; tries++) {
    const r = run();
    if (r.status === 0 || !REBUILDING.test(r.stderr || '') || tries >= 24) return r;
    sleepSync(5000);
  }
}

/** `trufflepig --root R --cache C --no-daemon --json -b 20000 WORDS`, parsed (throws on a nonzero exit). */
function cliJson(cli, root, cache, words) {
  const r = whileRebuilding(() => timed(process.execPath, [cli, '--root', root, '--cache', cache, '--no-daemon', '--json', '-b', '20000', ...words], { maxBuffer: 1 << 28 }));
  if (r.status !== 0) throw new Error(`trufflepig ${words.join(' ')}: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout);
}

const fmtMs = (x) => `${x.toFixed(1)} ms`;

module.exports = { REPO_ROOT, DEFAULT_CLI, optionReader, loadHistory, git, now, ms, timed, whileRebuilding, cliJson, median, fmtMs };
