'use strict';
// The one process helper of tools/: running commands (timed, or for their output), the
// built CLI's location and build fingerprint, reading its answers, and waiting out a
// rebuild of dist/ that another contributor started in the same tree.
const { spawnSync } = require('child_process');
const path = require('path');
const fs = require('fs');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_CLI = path.join(REPO_ROOT, 'apps', 'cli', 'dist', 'main.js');
// Output of a broad rg/csearch over the corpus can be tens of MB; capture it all so every
// tool pays for writing its full answer to a pipe.
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

/** Runs a command to completion; returns { status, signal, stdout, stderr, seconds }. */
function timedRun(command, args, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: MAX_OUTPUT_BYTES,
    ...options,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.error) throw new Error(`${command} failed to start: ${result.error.message}`);
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, seconds };
}

/**
 * Runs a command that must succeed and returns its stdout; a nonzero exit throws, naming the
 * command and the last line of its stderr. `echo` prints `$ COMMAND ARGS` to stderr first;
 * `stderr: 'inherit'` lets the command's progress through instead of capturing it; `input`
 * is written to its stdin; `env` is added to this process's environment.
 */
function run(command, args, { echo = false, stderr = 'pipe', input, env, ...options } = {}) {
  if (echo) console.error(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: MAX_OUTPUT_BYTES,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', stderr],
    ...(input === undefined ? {} : { input }),
    ...(env ? { env: { ...process.env, ...env } } : {}),
    ...options,
  });
  if (r.error) throw new Error(`${command} failed to start: ${r.error.message}`);
  if (r.status !== 0) {
    const last = (r.stderr || '').trim().split('\n').slice(-3).join(' / ');
    throw new Error(`${command} ${args.join(' ')} exited ${r.status ?? r.signal}${last ? `: ${last}` : ''}`);
  }
  return r.stdout;
}

/** Resolves the built CLI, or explains how to build it. */
function requireCli(cliPath = DEFAULT_CLI) {
  if (!fs.existsSync(cliPath)) {
    throw new Error(`CLI not built at ${cliPath}: run \`npm ci && npm run build\` in ${REPO_ROOT} first`);
  }
  return cliPath;
}

/** Parses the first JSON line of a CLI response; null when stdout is not JSON. */
function parseJsonOutput(stdout) {
  const line = (stdout || '').split('\n').find((l) => l.trim() !== '');
  if (!line) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** A command's output on one line (whitespace runs collapsed), for error messages. */
const oneLine = (text) =>
  String(text || '')
    .replace(/\s+/g, ' ')
    .trim();

/** Whether an executable is on PATH. */
function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Blocks this process for `ms` milliseconds (between synchronous retries). */
const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** What a CLI run loaded from a dist/ being rewritten answers: a module missing, or one
 * package's new build calling another's old one. */
const HALF_BUILT = /Cannot find module/;

/**
 * `runOnce()` (a timedRun-shaped result) again every `waitMs` while it fails (nonzero exit)
 * with output matching `pattern`, at most `retries` times: someone is rebuilding a
 * package's dist/ in this tree. The last result is returned either way.
 */
function whileRebuilding(runOnce, { retries = 24, waitMs = 5000, pattern = HALF_BUILT, onRetry } = {}) {
  for (let tries = 0; ; tries++) {
    const r = runOnce();
    if (r.status === 0 || !pattern.test(`${r.stdout || ''}${r.stderr || ''}`) || tries >= retries) return r;
    if (onRetry) onRetry(tries + 1);
    sleepSync(waitMs);
  }
}

/** Whether this CLI build has workspace federation (its --help lists --workspace). */
function supportsWorkspace(cli, rebuild) {
  const help = () => timedRun(process.execPath, [cli, '--help']);
  const r = rebuild ? whileRebuilding(help, rebuild) : help();
  return /--workspace\b/.test(r.stdout + r.stderr);
}

/**
 * A fingerprint of the built CLI and its packages, "files@newest-mtime" over apps/cli/dist
 * and every packages/NAME/dist: other contributors rebuild while a run is in progress, and
 * a run that straddles a rebuild (index format, query parser) measures errors, not search.
 * Compared before and after a run.
 */
function buildStamp(cli) {
  const { walkFiles } = require('./corpus');
  const dists = [path.dirname(cli)];
  const packages = path.join(REPO_ROOT, 'packages');
  for (const name of fs.existsSync(packages) ? fs.readdirSync(packages) : []) {
    const dist = path.join(packages, name, 'dist');
    if (fs.existsSync(dist)) dists.push(dist);
  }
  let files = 0;
  let newest = 0;
  for (const dist of dists) {
    for (const file of walkFiles(dist)) {
      files += 1;
      newest = Math.max(newest, fs.statSync(file).mtimeMs);
    }
  }
  return `${files}@${new Date(newest).toISOString()}`;
}

function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

module.exports = {
  REPO_ROOT,
  DEFAULT_CLI,
  MAX_OUTPUT_BYTES,
  timedRun,
  run,
  requireCli,
  parseJsonOutput,
  oneLine,
  hasCommand,
  sleepSync,
  HALF_BUILT,
  whileRebuilding,
  supportsWorkspace,
  buildStamp,
  median,
};
