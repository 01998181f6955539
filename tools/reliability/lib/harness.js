'use strict';
// Runs the CLI under a deadline and tallies attempts. One attempt is one or more CLI calls
// plus the experiment's own assertions; it fails when any call fails a check of checks.js
// or an assertion fails. Every child and every daemon the run starts is tracked so that
// cleanup.js can end them by pid.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { checkCall } = require('./checks');

const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const MISSING_MODULE = /Cannot find module '[^']*'|ERR_MODULE_NOT_FOUND|SyntaxError: Unexpected end of input/;
const EXAMPLES_KEPT = 20;
const EXAMPLES_SHOWN = 5;

/** Display form of text for the report: escapes every control and bidi character, then cuts. */
function short(text, max = 150) {
  const escaped = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu, (ch) => {
    const cp = ch.codePointAt(0);
    return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
  });
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}

/** A call's argv as a label: without the root, cache and interpreter, long words cut. */
function labelOf(args) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--root' || args[i] === '--cache') {
      i++;
      continue;
    }
    out.push(args[i].length > 40 ? `${args[i].slice(0, 24)}…(${args[i].length} chars)` : args[i]);
  }
  return out.join(' ');
}

class Experiment {
  constructor(name, title) {
    this.name = name;
    this.title = title;
    this.attempts = 0;
    this.failures = 0;
    this.byKind = {};
    this.examples = [];
    this.notes = [];
    this.state = 'ran';
    this.latencies = [];
    this.internalErrors = 0;
  }

  attempt(label) {
    return new Attempt(this, label);
  }

  /** Counts a finished attempt (its failures, deduplicated by kind). */
  record(label, failures) {
    this.attempts++;
    if (failures.length === 0) return;
    this.failures++;
    const kinds = new Set();
    for (const f of failures) {
      if (kinds.has(f.kind)) continue;
      kinds.add(f.kind);
      this.byKind[f.kind] = (this.byKind[f.kind] || 0) + 1;
      if (this.examples.length < EXAMPLES_KEPT)
        this.examples.push({ kind: f.kind, text: short(`${label} → ${f.detail}`, 400) });
    }
  }

  /** The examples to print: one per kind first, then the rest in order. */
  shownExamples() {
    const seen = new Set();
    const first = [];
    const rest = [];
    for (const e of this.examples) {
      (seen.has(e.kind) ? rest : first).push(e);
      seen.add(e.kind);
    }
    return [...first, ...rest].slice(0, EXAMPLES_SHOWN);
  }

  note(text) {
    this.notes.push(text);
  }
}

class Attempt {
  constructor(experiment, label) {
    this.experiment = experiment;
    this.label = label;
    this.failures = [];
    this.closed = false;
  }

  fail(kind, detail) {
    this.failures.push({ kind, detail: `${detail}` });
  }

  /** One CLI call inside this attempt; the call's check failures join the attempt's. */
  async cli(h, repo, args, opts = {}) {
    let call = await h.run(repo, args, opts);
    // Other contributors rebuild dist/ while a run goes on; a call that loaded a half-written
    // build is run again (twice at most) instead of being blamed on the CLI.
    for (let retry = 0; retry < 2 && call.status !== 0 && MISSING_MODULE.test(call.stderr.toString('utf8')); retry++) {
      h.rebuildRetries.count++;
      await sleep(3000);
      call = await h.run(repo, args, opts);
    }
    const failures = checkCall(call, h.canaries);
    if (call.code) h.codesSeen.add(call.code);
    // Coded, so no target counts it, but every internal_error is a bug worth naming.
    if (call.code === 'internal_error') {
      this.experiment.internalErrors++;
      if (this.experiment.internalErrors === 1)
        this.experiment.note(
          `internal_error answered (coded, not a target failure): ${short(`${labelOf(call.args)} → ${call.stderr.toString('utf8').split('\n')[0]}`, 200)}`,
        );
    }
    // Name the call unless the attempt's label already does (one-call attempts).
    const callLabel = labelOf(call.args.filter((x) => x !== '--no-daemon'));
    const prefix = this.label.includes(callLabel) ? '' : `${callLabel}: `;
    for (const f of failures) this.failures.push({ kind: f.kind, detail: `${prefix}${f.detail}` });
    if (!opts.untimed) this.experiment.latencies.push(call.ms);
    return call;
  }

  done() {
    if (this.closed) return;
    this.closed = true;
    this.experiment.record(this.label, this.failures);
  }
}

class Harness {
  constructor({ cli, base, deadlineMs, canaries, env, log }) {
    this.cliPath = cli;
    this.base = base;
    this.deadlineMs = deadlineMs;
    this.canaries = canaries;
    this.env = env;
    this.log = log;
    this.children = new Set();
    this.daemonTargets = new Map();
    this.scopes = [];
    this.codesSeen = new Set();
    this.rebuildRetries = { count: 0 };
    this.verbose = !!process.env.RELIABILITY_VERBOSE;
  }

  /**
   * The harness of one experiment: the same CLI, checks and children, its own directory
   * (base/NAME) and its own daemons, so experiments may run side by side.
   */
  scope(name) {
    const scoped = Object.create(this);
    scoped.base = path.join(this.base, name);
    scoped.daemonTargets = new Map();
    fs.mkdirSync(scoped.base, { recursive: true });
    this.scopes.push(scoped);
    return scoped;
  }

  /** argv of a call on a repo: its root and cache, and --no-daemon unless `daemon`. */
  argvFor(repo, args, daemon) {
    const head = repo ? ['--root', repo.root, '--cache', repo.cache] : [];
    if (repo && daemon) this.daemonTargets.set(`${repo.root}\0${repo.cache}`, repo);
    // Calls are checked through their JSON (lines is the CLI's default).
    return [...head, ...(daemon ? [] : ['--no-daemon']), '--json', ...args];
  }

  /**
   * One CLI call: { args, status, signal, timedOut, overflow, ms, stdout, stderr, json }.
   * Killed (SIGKILL) past the deadline or once stdout passes MAX_OUTPUT_BYTES.
   */
  run(repo, args, opts = {}) {
    const argv = opts.raw ? args : this.argvFor(repo, args, !!opts.daemon);
    const deadlineMs = opts.deadlineMs || this.deadlineMs;
    return new Promise((resolve) => {
      const started = process.hrtime.bigint();
      const child = spawn(process.execPath, [this.cliPath, ...argv], {
        cwd: opts.cwd || (repo ? repo.root : this.base),
        env: { ...this.env, ...(opts.env || {}) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.children.add(child);
      const out = [];
      const err = [];
      let outBytes = 0;
      const call = {
        args: argv,
        status: null,
        signal: null,
        timedOut: false,
        overflow: 0,
        deadlineMs,
        ms: 0,
        pid: child.pid,
        intentionalKill: !!opts.intentionalKill,
      };
      const timer = setTimeout(() => {
        // A timer can fire late, after a synchronous step of another experiment blocked the
        // event loop; a child that already exited (a zombie not yet reaped) did not hang.
        if (exitedAlready(child.pid)) return;
        call.timedOut = true;
        child.kill('SIGKILL');
      }, deadlineMs);
      child.stdout.on('data', (b) => {
        outBytes += b.length;
        if (outBytes > MAX_OUTPUT_BYTES) {
          if (!call.overflow) child.kill('SIGKILL');
          call.overflow = outBytes;
          return;
        }
        out.push(b);
      });
      child.stderr.on('data', (b) => err.push(b));
      if (opts.onSpawn) opts.onSpawn(child);
      const finish = (status, signal) => {
        clearTimeout(timer);
        this.children.delete(child);
        call.status = status;
        call.signal = signal;
        call.ms = Number(process.hrtime.bigint() - started) / 1e6;
        call.stdout = Buffer.concat(out);
        call.stderr = Buffer.concat(err);
        call.json = parseJson(call.stdout);
        if (this.verbose)
          process.stderr.write(
            `  ${call.ms.toFixed(0).padStart(6)} ms exit ${status ?? signal} ${short(labelOf(argv), 100)} → ${short(call.stdout.toString('utf8').slice(0, 90) || call.stderr.toString('utf8').slice(0, 90), 90)}\n`,
          );
        resolve(call);
      };
      child.on('error', (e) => {
        err.push(Buffer.from(`spawn failed: ${e.message}`));
        finish(-1, null);
      });
      child.on('close', finish);
    });
  }
}

function exitedAlready(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return true;
  }
}

function parseJson(buf) {
  const line = buf
    .toString('utf8')
    .split('\n')
    .find((l) => l.trim() !== '');
  if (!line) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** One attempt of one call: the common case. Returns the call. */
async function once(h, exp, repo, args, opts = {}) {
  const a = exp.attempt(opts.label || `${labelOf(args)}${opts.daemon ? ' [daemon]' : ''}`);
  const call = await a.cli(h, repo, args, opts);
  if (opts.assert) opts.assert(call, a);
  a.done();
  return call;
}

/** How many of `n` repetitions a mode gets: all through a daemon, plan.directShare without. */
const share = (plan, n, daemon) => (daemon ? n : Math.max(1, Math.ceil(n * (plan.directShare ?? 1))));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { Harness, Experiment, once, short, labelOf, sleep, share };
