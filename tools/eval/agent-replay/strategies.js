'use strict';
// Runs one scripted strategy: a list of argv steps whose placeholders are filled from the
// output of earlier steps, as an agent reads a result and types the next command. The
// strategies never see the labels; the runner only tells them to stop once the answer has
// been printed.
//
// Placeholders (the most recent output that yields one is used):
//   Trufflepig: {handle}        the first handle printed
//               {handle~TEXT}   the first handle whose hit mentions TEXT (else the first)
//   grep:       {path} {line}   the path and line of the first `PATH:N:` match
//               {line+N} {line-N}  arithmetic on that line (clamped at 1)
//               {path~TEXT} {line~TEXT}  the first match whose text contains TEXT (else the first)
//               {file}          the first line of output that names a file (rg -l)
//               {path~TEXT} {line~TEXT} {line+N~TEXT}  also from a search's evidence lines
//                               (`  N: text` under a hit's `HANDLE  PATH:A-B` line, or JSON
//                               `evidence`): the agent reads a line number off the page, as
//                               the grep strategy reads one off rg's output
//   both:       {next}          the page cursor of the previous output (for `more`)
const fs = require('fs');
const path = require('path');
const { timedRun, hasCommand, whileRebuilding } = require('../../lib/proc');

// SET:N where SET is today's 32-hex id or the short base-36 form; an optional member prefix.
const HANDLE_AT_LINE_START = /^(?:[\w.@-]+\/)?((?:[0-9a-f]{32}|[0-9a-z]{6,}):\d+)(?=[\s,]|$)/;
const HANDLE_ANYWHERE_G = /(?<![\w/.@-])((?:[0-9a-f]{32}|[0-9a-z]{6,}):\d+)(?![\w@-])/g;
const GREP_MATCH = /^(?:\.\/)?([^\s:][^:]*?):(\d+)[:-](.*)$/;
const PLACEHOLDER = /\{(handle|path|line|file|next)([+-]\d+)?(?:~([^}]*))?\}/g;
// A page cursor: SET@OFFSET, from JSON "next" or a lines `next: more SET@N` row.
const CURSOR = /(?:"next"\s*:\s*"|next:\s*(?:more\s+)?)([0-9a-z]+@\d+)/;
const STEP_TIMEOUT_MS = 120000;
const REBUILD_RETRIES = 24;
const HALF_BUILT = /Cannot find module|internal_error: .*is not a (function|constructor)/;

function collectHandles(value, out) {
  if (Array.isArray(value)) for (const v of value) collectHandles(v, out);
  else if (value && typeof value === 'object') {
    if (typeof value.handle === 'string') out.push({ handle: value.handle, context: JSON.stringify(value) });
    for (const [k, v] of Object.entries(value)) if (k !== 'handle') collectHandles(v, out);
  }
}

/** Handles in document order, each with the text of its hit, from JSON or lines output. */
function parseHandles(stdout) {
  const out = [];
  const lines = (stdout || '').split('\n');
  const first = lines.find((l) => l.trim() !== '') || '';
  if (first.trim().startsWith('{')) {
    for (const l of lines) {
      try {
        collectHandles(JSON.parse(l), out);
      } catch {
        /* not a JSON line */
      }
    }
    if (out.length) return out;
  }
  let current = null;
  const later = [];
  for (const l of lines) {
    const m = HANDLE_AT_LINE_START.exec(l);
    if (m) {
      current = { handle: m[1], context: l };
      out.push(current);
    } else if (current && /^\s/.test(l)) current.context += `\n${l}`;
    else {
      current = null;
      // A handle inside a line (`also: SET:2 path:A-B kind name`) is the next pick.
      for (const h of l.matchAll(HANDLE_ANYWHERE_G)) later.push({ handle: h[1], context: l });
    }
  }
  return [...out, ...later];
}

/**
 * grep/rg -n matches { path, line, text } in output order. A search of one file prints
 * `N:text` without the path; singleFile (the file argument of that command) supplies it.
 */
function parseMatches(stdout, singleFile) {
  const out = [];
  for (const l of (stdout || '').split('\n')) {
    const bare = singleFile ? /^(\d+):(.*)$/.exec(l) : null;
    if (bare) {
      out.push({ path: singleFile, line: Number(bare[1]), text: bare[2] });
      continue;
    }
    const m = GREP_MATCH.exec(l);
    if (m && /^\d+$/.test(m[2])) out.push({ path: m[1], line: Number(m[2]), text: m[3] });
  }
  return out;
}

// `PATH:A-B`, or `PATH:A` for a one-line span.
const HIT_HEADER = /^(?:[0-9a-z]{6,}:\d+|path:\S+)\s{2}(\S+?):\d+(?:-\d+)?(?:\s|$)/;
const EVIDENCE_LINE = /^\s+(\d+)(?: in \S+)?: (.*)$/;

/** Evidence lines { path, line, text } of a Trufflepig search page (lines or JSON), in page order. */
function parseEvidence(stdout) {
  const out = [];
  const text = stdout || '';
  if (text.trimStart().startsWith('{')) {
    try {
      for (const hit of JSON.parse(text).hits || [])
        for (const e of hit.evidence || []) out.push({ path: hit.path, line: e.line, text: e.text });
    } catch {
      /* not one JSON object */
    }
    return out;
  }
  let current = null;
  for (const l of text.split('\n')) {
    const h = HIT_HEADER.exec(l);
    if (h) {
      current = h[1];
      continue;
    }
    const e = current ? EVIDENCE_LINE.exec(l) : null;
    if (e) out.push({ path: current, line: Number(e[1]), text: e[2] });
    else if (!/^\s/.test(l)) current = null;
  }
  return out;
}

/** The one regular file a grep/rg command searches, if it names exactly one path and it is a file. */
function singleFileOf(argv, cwd) {
  if (argv[0] !== 'rg' && argv[0] !== 'grep') return null;
  const operands = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (['-t', '-g', '-A', '-B', '-C', '-e', '-m'].includes(a)) i++;
    else if (!a.startsWith('-')) operands.push(a);
  }
  const last = operands.length === 2 ? operands[1] : null;
  try {
    return last && fs.statSync(path.join(cwd, last)).isFile() ? last : null;
  } catch {
    return null;
  }
}

function parseFiles(stdout, cwd) {
  return (stdout || '')
    .split('\n')
    .map((l) => l.trim().replace(/^\.\//, ''))
    .filter((l) => l && fs.existsSync(path.join(cwd, l)));
}

/** Fills placeholders; returns null when one cannot be filled (the strategy is stuck). */
function expand(argv, state) {
  const out = [];
  for (const arg of argv) {
    let stuck = false;
    const filled = arg.replace(PLACEHOLDER, (_, kind, delta, text) => {
      if (kind === 'handle') {
        const h = state.handles;
        if (!h || !h.length) {
          stuck = true;
          return '';
        }
        return ((text && h.find((x) => x.context.includes(text))) || h[0]).handle;
      }
      if (kind === 'next') {
        if (!state.next) {
          stuck = true;
          return '';
        }
        return state.next;
      }
      if (kind === 'file') {
        if (!state.files || !state.files.length) {
          stuck = true;
          return '';
        }
        return (text && state.files.find((f) => f.includes(text))) || state.files[0];
      }
      const m = state.matches;
      if (!m || !m.length) {
        stuck = true;
        return '';
      }
      const hit = (text && (m.find((x) => x.path.includes(text)) || m.find((x) => x.text.includes(text)))) || m[0];
      if (kind === 'path') return hit.path;
      return String(Math.max(1, hit.line + (delta ? Number(delta) : 0)));
    });
    if (stuck) return null;
    out.push(filled);
  }
  return out;
}

/** Whether rg is used (AGENT_REPLAY_NO_RG=1 forces the grep -rnE fallback, to test it). */
function haveRg() {
  return !process.env.AGENT_REPLAY_NO_RG && hasCommand('rg');
}

// rg's -t types used by the questions, as grep --include globs.
const RG_TYPES = { js: ['js', 'cjs', 'mjs', 'jsx'], py: ['py', 'pyi'], rust: ['rs'] };

/** rg when installed; otherwise the nearest grep -rnE (noted once in the report). */
function rgArgv(argv) {
  if (argv[0] !== 'rg') return argv;
  // --sort path: rg prints files in thread order otherwise, and "the top match" must not
  // depend on scheduling (an agent would not type it; it changes no match, only the order).
  if (haveRg()) return ['rg', '--sort', 'path', ...argv.slice(1)];
  const out = ['grep', '-rnE', '--exclude-dir=.git'];
  if (!argv.slice(1).some((a) => !a.startsWith('-'))) out.push('.');
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-n') continue;
    if (a === '-t') for (const ext of RG_TYPES[argv[++i]] || [argv[i]]) out.push(`--include=*.${ext}`);
    else if (a === '-g') out.push(`--include=${argv[++i]}`);
    else out.push(a);
  }
  return out;
}

/**
 * Runs steps until done(argv, stdout) says the answer is printed or the steps run out.
 * kind 'trufflepig' | 'grep'. Returns { steps: [{ argv, tokens, status }], stuck }.
 */
function runStrategy({ kind, steps, cwd, cli, root, cache, format, countTokens, done }) {
  const state = {};
  const record = [];
  for (const step of steps) {
    const argv = expand(step, state);
    if (!argv) return { steps: record, stuck: true };
    let cmd;
    let args;
    if (kind === 'trufflepig') {
      cmd = process.execPath;
      args = [cli, '--no-daemon', '--root', root, '--cache', cache, ...(format ? ['--format', format] : []), ...argv];
    } else {
      const real = rgArgv(argv);
      cmd = real[0];
      args = real.slice(1);
    }
    // stdin closed: rg without a path would otherwise search the pipe it was given.
    const once = () => timedRun(cmd, args, { cwd, timeout: STEP_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
    // Another contributor rebuilding dist/ mid-run (a module missing, or one package's new
    // build calling another's old one) is not the CLI's answer: wait and rerun; an error
    // that outlasts the retries is counted as the answer.
    const r =
      kind === 'trufflepig'
        ? whileRebuilding(once, { retries: REBUILD_RETRIES, waitMs: 5000, pattern: HALF_BUILT })
        : once();
    const text = `${r.stdout || ''}${r.stderr || ''}`;
    record.push({
      argv,
      status: r.status,
      tokens: countTokens(text),
      bytes: Buffer.byteLength(text),
      seconds: r.seconds,
      output: text,
    });
    if (kind === 'trufflepig') {
      const h = parseHandles(r.stdout);
      if (h.length) state.handles = h;
      const c = CURSOR.exec(r.stdout || '');
      state.next = c ? c[1] : null;
      const m = parseEvidence(r.stdout);
      if (m.length) state.matches = m;
    } else {
      const m = parseMatches(r.stdout, singleFileOf(argv, cwd));
      if (m.length) state.matches = m;
      const f = parseFiles(r.stdout, cwd);
      if (f.length) state.files = f;
    }
    if (done(argv, r.stdout || '')) return { steps: record, stuck: false };
  }
  return { steps: record, stuck: false };
}

module.exports = { runStrategy, parseHandles, parseMatches, parseEvidence, expand, rgArgv, haveRg };
