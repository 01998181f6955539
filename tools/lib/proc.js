'use strict';
// Process helpers shared by tools/bench and tools/eval: timed runs and the CLI's location.
const { spawnSync } = require('child_process');
const path = require('path');
const fs = require('fs');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_CLI = path.join(REPO_ROOT, 'apps', 'cli', 'dist', 'main.js');
// Output of a broad rg/csearch over the corpus can be tens of MB; capture it all so every
// tool pays for writing its full answer to a pipe.
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

/** Runs a command to completion; returns { status, stdout, stderr, seconds }. */
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

/** Whether an executable is on PATH. */
function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

module.exports = { REPO_ROOT, DEFAULT_CLI, timedRun, requireCli, parseJsonOutput, hasCommand, median };
