'use strict';
// The CLI as the targets use it: daemon-served calls (sync and async), the daemon's lifecycle
// and its memory as the kernel reports it.
const fs = require('fs');
const { spawn } = require('child_process');
const { timedRun, parseJsonOutput, oneLine } = require('../../lib/proc');
const { cacheDirForRoot } = require('@trufflepig/member-root/cache-dir');

/** argv for one CLI call on the bench root (daemon-served unless `extra` says --no-daemon). */
// Output is parsed as JSON: --json (lines is the CLI's default).
const cliArgv = (ctx, args, extra = []) => [
  ctx.cli,
  ...extra,
  '--json',
  '--root',
  ctx.corpus,
  '--cache',
  ctx.cache,
  ...args,
];

/** What every call reports: time, exit status, the parsed JSON (or why there is none). */
function outcome(seconds, status, stdout, stderr) {
  const json = parseJsonOutput(stdout);
  const errorCode = json && json.error ? json.error.code : null;
  const ok = status === 0 && json !== null && !errorCode;
  const error = ok ? undefined : `exit ${status}: ${errorCode || oneLine(stdout + ' ' + stderr).slice(0, 160)}`;
  return { seconds, status, ok, json, errorCode, error };
}

/** One CLI call, waited for; returns outcome(). */
function cliSync(ctx, args, extra = []) {
  const r = timedRun(process.execPath, cliArgv(ctx, args, extra));
  return outcome(r.seconds, r.status, r.stdout, r.stderr);
}

/** One CLI call as a child process without blocking the event loop (the concurrent clients). */
function cliAsync(ctx, args) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, cliArgv(ctx, args), { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', (e) => resolve(outcome(0, -1, '', `spawn failed: ${e.message}`)));
    child.on('close', (status) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve(outcome(seconds, status, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8')));
    });
  });
}

/** `status`: { daemonState, pid, generation } (nulls when it does not say). */
function cliStatus(ctx) {
  const r = cliSync(ctx, ['status']);
  const j = r.json || {};
  return {
    daemonState: j.daemon ? j.daemon.state : null,
    pid: j.daemon && Number.isInteger(j.daemon.pid) ? j.daemon.pid : null,
    generation: j.coverage ? j.coverage.generation : null,
    raw: j,
  };
}

/** `stop`; true when it answered without error (there may have been no daemon). */
function stopDaemon(ctx) {
  try {
    return cliSync(ctx, ['stop']).status === 0;
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the daemon with a first served search, then waits until `status` says serving. */
async function startDaemon(ctx, timeoutMs = 30000) {
  const started = Date.now();
  const first = cliSync(ctx, ['search', 'JoinHandle']);
  for (;;) {
    const s = cliStatus(ctx);
    if (s.daemonState === 'serving' && s.pid)
      return { ...s, firstSearch: first, startSeconds: (Date.now() - started) / 1000 };
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `daemon not serving after ${timeoutMs} ms: status ${JSON.stringify(s.raw).slice(0, 300)}; see ${cacheDirForRoot(fs.realpathSync(ctx.corpus), { cacheOverride: ctx.cache })}/daemon.log`,
      );
    await sleep(100);
  }
}

/** VmRSS, VmHWM (peak) and the RSS split (anonymous, file-backed) of a live process in bytes,
 * from /proc (nulls when unreadable). */
function processMemory(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rssBytes: null, hwmBytes: null, anonBytes: null, fileBytes: null };
  }
  const kb = (name) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  return { rssBytes: kb('VmRSS'), hwmBytes: kb('VmHWM'), anonBytes: kb('RssAnon'), fileBytes: kb('RssFile') };
}

module.exports = { cliSync, cliAsync, cliStatus, stopDaemon, startDaemon, processMemory, sleep, oneLine };
