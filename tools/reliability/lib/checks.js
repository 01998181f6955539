'use strict';
// The checks every CLI call is held to, whatever the experiment: nothing from outside the
// root, no hang past its deadline, no stack trace, a code on every failure, stdout within
// -b, no raw control byte. Each returns [] or failures { kind, detail }.
const fs = require('fs');
const path = require('path');
const { REPO_ROOT } = require('../../lib/proc');

/** Failure kinds, in the order the targets line prints them. */
const KINDS = {
  outside: 'outside bytes',
  hang: 'hangs past a deadline',
  stack: 'stack traces',
  uncoded: 'uncoded errors',
  budget: 'outputs over budget',
  frozen: 'frozen indexes',
  gitignore: '.gitignore differences from Git',
  control: 'raw control bytes',
  contract: 'other contract violations',
  responsive: 'daemon slowed by abuse',
};

const STACK = /\n\s+at .+:\d+:\d+|\bTypeError\b|\bReferenceError\b|\bRangeError: Maximum call stack/;
const CODED_STDERR = /^trufflepig: ([a-z][a-z0-9_]*): /m;
// Usage errors are plain text by design (docs/cli.md): "trufflepig: reason" then the usage.
const USAGE_STDERR = /^trufflepig: [^\n]*\n(?:[^\n]*\n)*?Usage: trufflepig /;
// Bytes a terminal may act on (tab and line feed are ordinary text), then code points.
const RAW_BYTE = (b) => b <= 0x08 || (b >= 0x0b && b <= 0x1f) || b === 0x7f;
const RAW_CODE_POINT = /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The token counter of the CLI's own renderer (o200k_base). */
let countTokens;
function tokens(text) {
  if (!countTokens) {
    const render = require(path.join(REPO_ROOT, 'packages', 'render', 'dist'));
    countTokens = render.countTokens;
    if (typeof countTokens !== 'function')
      throw new Error('packages/render/dist does not export countTokens: build @trufflepig/render');
  }
  return countTokens(text);
}

/** The error code a failed call reports (stdout JSON or the stderr line), 'usage' for a usage error, else null. */
function errorCode(stdout, stderr) {
  const line = stdout.split('\n').find((l) => l.trim() !== '');
  if (line) {
    try {
      const json = JSON.parse(line);
      if (json && json.error && typeof json.error.code === 'string') return json.error.code;
    } catch {
      // not JSON: the lines format, or nothing
    }
  }
  const coded = CODED_STDERR.exec(stderr);
  if (coded) return coded[1];
  if (USAGE_STDERR.test(stderr)) return 'usage';
  return null;
}

/** The -b value of an argv, or undefined. */
function budgetOf(args) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if ((a === '-b' || a === '--budget') && /^\d+$/.test(args[i + 1] || '')) return Number(args[i + 1]);
    const eq = /^--budget=(\d+)$/.exec(a);
    if (eq) return Number(eq[1]);
  }
  return undefined;
}

/** Where the first raw control byte or invalid UTF-8 sequence is, or null. */
function rawControl(buf) {
  for (let i = 0; i < buf.length; i++) {
    if (RAW_BYTE(buf[i])) return `byte 0x${buf[i].toString(16).padStart(2, '0')} at ${i}`;
  }
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) return 'invalid UTF-8';
  const m = RAW_CODE_POINT.exec(text);
  return m ? `U+${m[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} raw` : null;
}

/**
 * Everything wrong with one finished call. `canaries` are strings that exist only outside
 * every root; `expectNonzero` marks calls meant to fail (they still need a code).
 */
function checkCall(call, canaries) {
  const failures = [];
  const stdout = call.stdout.toString('utf8');
  const stderr = call.stderr.toString('utf8');
  const both = `${stdout}\n${stderr}`;
  const leaked = canaries.find((c) => both.includes(c));
  if (leaked) failures.push({ kind: 'outside', detail: `printed ${JSON.stringify(leaked.slice(0, 40))}` });
  if (call.timedOut) failures.push({ kind: 'hang', detail: `killed after ${call.deadlineMs} ms` });
  const stack = STACK.exec(both);
  if (stack) failures.push({ kind: 'stack', detail: stack[0].trim().slice(0, 80) });
  const killedOnPurpose = call.intentionalKill && call.signal === 'SIGKILL';
  if (!call.timedOut && !call.overflow && !killedOnPurpose && call.status !== 0) {
    const code = errorCode(stdout, stderr);
    call.code = code;
    if (!code)
      failures.push({
        kind: 'uncoded',
        detail: `exit ${call.status === null ? call.signal : call.status}: ${(stderr || stdout).trim().slice(0, 80)}`,
      });
  }
  const budget = budgetOf(call.args);
  if (call.overflow) failures.push({ kind: 'budget', detail: `stdout passed ${call.overflow} bytes` });
  else if (budget !== undefined && call.stdout.length > budget) {
    // Every token covers at least one byte, so a stdout of at most `budget` bytes fits.
    const n = tokens(stdout);
    if (n > budget) failures.push({ kind: 'budget', detail: `${n} tokens > -b ${budget}` });
  }
  for (const [name, buf] of [
    ['stdout', call.stdout],
    ['stderr', call.stderr],
  ]) {
    const raw = rawControl(buf);
    if (raw) {
      failures.push({ kind: 'control', detail: `${name}: ${raw}` });
      break;
    }
  }
  return failures;
}

/** The codes docs/cli.md documents (its Errors section), for the report's note on others seen. */
function documentedCodes() {
  try {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
    const section = text.slice(text.indexOf('## Errors'));
    return new Set([...section.matchAll(/`([a-z][a-z0-9_]+)`/g)].map((m) => m[1]));
  } catch {
    return new Set();
  }
}

module.exports = { KINDS, checkCall, errorCode, budgetOf, rawControl, tokens, documentedCodes };
