'use strict';
// Regex engines side by side for `re:` (issue 10, finding 4): V8's backtracking engine (what
// `re:` used), V8's experimental linear engine (`l` flag, and the fallback-on-excessive-
// backtracks mode), and the RE2 family: re2js (pure JS), re2-wasm, @adguard/re2-wasm and
// re2 (native, node-gyp). Each engine runs in its own child process so JIT state, V8 flags
// and a runaway backtracking match cannot leak into another engine's figures; catastrophic
// cases are killed at --timeout.
//
//   node tools/bench/index/regex-engines.js [--quick] [--reps N] [--mb N] [--timeout S]
//        [--modules DIR]... [--corpus DIR]... [--install] [--json FILE]
//
// --modules DIR: also resolve candidate packages from DIR/node_modules (repeatable; the
// repository root and the current directory are always searched). --install: npm-install
// each RE2 candidate into a fresh temporary directory with an empty npm cache, time it, and
// use that install. Candidates that are not installed are skipped and listed.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { REPO_ROOT: REPO, timedRun } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { walkFiles, diskBytes } = require('../../lib/corpus');

const SELF = __filename;
const USAGE =
  'usage: node tools/bench/index/regex-engines.js [--quick] [--reps N] [--mb N] [--timeout S] [--modules DIR]... [--corpus DIR]... [--install] [--json FILE]';

const ORDINARY = [
  { name: 'fn\\s+\\w+', source: 'fn\\s+\\w+' },
  { name: 'static int __init \\w+_init', source: 'static int __init \\w+_init' },
  { name: 'literal word', source: 'unwrap_or_else' },
  { name: '^use .*;$', source: '^use .*;$' },
  { name: 'case-insensitive', source: 'copyright', ignoreCase: true },
  { name: 'no match (full scan)', source: 'zq[xj]{3}_never\\d+' },
];

const CATASTROPHIC = [
  { source: '(a+)+$', input: (n) => 'a'.repeat(n - 1) + '!' },
  { source: '(a|aa)+$', input: (n) => 'a'.repeat(n - 1) + '!' },
  // 19 `a`s can never satisfy 20 groups: a backtracker tries every split of them.
  { source: '(.*a){20}', input: (n) => 'a'.repeat(19) + 'b'.repeat(n - 19) },
];
const CATASTROPHIC_LENGTHS = [30, 10_000];

// ---------------------------------------------------------------- arguments

function parseArgs(argv) {
  const a = parseOptions(argv, {
    name: 'regex-engines',
    usage: USAGE,
    options: {
      quick: { type: 'boolean' },
      reps: { type: 'number', default: 5 },
      mb: { type: 'number', default: 4 },
      timeout: { type: 'number', default: 10 },
      modules: { type: 'path', multiple: true },
      corpus: { type: 'path', multiple: true },
      install: { type: 'boolean' },
      json: { type: 'string', default: null },
      child: { type: 'json', default: null }, // internal: one measurement in a child process
    },
  });
  if (a.quick) {
    a.reps = Math.min(a.reps, 3);
    a.mb = Math.min(a.mb, 2);
    a.timeout = Math.min(a.timeout, 5);
  }
  return a;
}

// ---------------------------------------------------------------- corpus

const DEFAULT_CORPUS = [
  { dir: '/usr/share/cargo/registry', ext: ['.rs'], share: 0.75 },
  { dir: '/usr/include/linux', ext: ['.h'], share: 0.25 },
];

/** Files under dir ending in one of `ext`, in name order (a directory that cannot be read is skipped). */
const listFiles = (dir, ext) =>
  walkFiles(dir, { sorted: true, ignoreErrors: true, filter: (name) => ext.some((x) => name.endsWith(x)) });

/** Deterministic few-MB corpus of real source files (one Buffer per file, as `re:` reads them). */
function loadCorpus(args) {
  const budget = args.mb * 1e6;
  const sources = args.corpus.length
    ? args.corpus.map((dir) => ({
        dir,
        ext: ['.rs', '.c', '.h', '.ts', '.js', '.go', '.py', '.java', '.cs', '.php'],
        share: 1 / args.corpus.length,
      }))
    : DEFAULT_CORPUS.filter((s) => fs.existsSync(s.dir));
  if (sources.length === 0)
    sources.push({ dir: path.join(REPO, 'node_modules/typescript/lib'), ext: ['.ts', '.js'], share: 1 });
  const files = [];
  const described = [];
  for (const s of sources) {
    let used = 0;
    for (const f of listFiles(s.dir, s.ext)) {
      if (used >= budget * s.share) break;
      const bytes = fs.readFileSync(f);
      if (bytes.length > 2 * 1024 * 1024 || bytes.includes(0)) continue;
      files.push(bytes);
      used += bytes.length;
    }
    described.push(`${(used / 1e6).toFixed(1)} MB of ${s.ext.join('/')} under ${s.dir}`);
  }
  return { files, bytes: files.reduce((n, b) => n + b.length, 0), described };
}

/** The index's own decoder when built (its byteAt is what `re:` maps indexes back with). */
function decoder() {
  try {
    return require(path.join(REPO, 'packages/index/dist/extract/text.js')).decodeText;
  } catch {
    return (bytes) => {
      const text = Buffer.from(bytes).toString('utf8');
      const map = [];
      let b = 0;
      for (let u = 0; u < text.length; u++) {
        map.push(b);
        const c = text.charCodeAt(u);
        if (c >= 0xd800 && c <= 0xdbff) {
          map.push(b + 2);
          b += 4;
          u++;
        } else b += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      }
      map.push(b);
      return { text, byteAt: (u) => map[u] };
    };
  }
}

// ---------------------------------------------------------------- engines

/**
 * Each engine: how to load it, its natural input ('string' = decoded UTF-16 text whose match
 * index is mapped back with byteAt; 'bytes' = the file's Buffer, match index already a byte
 * offset), compile(source, ignoreCase) and first(compiled, input) → index or -1.
 */
/** V8's own RegExp with `extra` flags (`l`: the linear engine): the first match's index in a string. */
function v8Engine(extra) {
  return () => ({
    compile: (s, i) => new RegExp(s, (i ? 'gmi' : 'gm') + extra),
    first: (re, text) => {
      re.lastIndex = 0;
      const m = re.exec(text);
      return m ? m.index : -1;
    },
  });
}

const ENGINES = {
  'v8-backtrack': {
    pkg: null,
    input: 'string',
    note: 'V8 Irregexp (today)',
    load: v8Engine(''),
  },
  'v8-linear': {
    pkg: null,
    input: 'string',
    execArgv: ['--enable-experimental-regexp-engine'],
    note: 'V8 experimental engine, `l` flag',
    load: v8Engine('l'),
  },
  'v8-fallback': {
    pkg: null,
    input: 'string',
    execArgv: ['--enable-experimental-regexp-engine-on-excessive-backtracks'],
    note: 'Irregexp, linear engine after 50,000 backtracks',
    load: v8Engine(''),
  },
  're2js-bytes': {
    pkg: 're2js',
    input: 'bytes',
    note: 'pure JS, UTF-8 Buffer in, byte offsets out',
    load: (req) => {
      const { RE2JS } = req('re2js');
      return {
        compile: (s, i) => RE2JS.compile(s, RE2JS.MULTILINE | (i ? RE2JS.CASE_INSENSITIVE : 0)),
        first: (p, bytes) => {
          const m = p.matcher(bytes);
          return m.find() ? m.start() : -1;
        },
      };
    },
  },
  're2js-string': {
    pkg: 're2js',
    input: 'string',
    note: 'pure JS, decoded string in',
    load: (req) => {
      const { RE2JS } = req('re2js');
      return {
        compile: (s, i) => RE2JS.compile(s, RE2JS.MULTILINE | (i ? RE2JS.CASE_INSENSITIVE : 0)),
        first: (p, text) => {
          const m = p.matcher(text);
          return m.find() ? m.start() : -1;
        },
      };
    },
  },
  're2-wasm': {
    pkg: 're2-wasm',
    input: 'string',
    note: 'RE2 compiled to WASM (`u` flag required)',
    load: (req) => wasmEngine(req('re2-wasm').RE2),
  },
  '@adguard/re2-wasm': {
    pkg: '@adguard/re2-wasm',
    input: 'string',
    note: 'fork of re2-wasm with a memory cap',
    load: (req) => wasmEngine(req('@adguard/re2-wasm').RE2),
  },
  'index (re2js, windowed)': {
    pkg: null,
    versionOf: 're2js',
    input: 'string',
    note: "packages/index/dist/query/regex-engine.js: what `re:` runs (re2js's DFA to reject, its NFA to locate, in windows); needs a build",
    load: () => {
      const { compileRegex } = require(path.join(REPO, 'packages/index/dist/query/regex-engine.js'));
      return {
        compile: (s, i) => {
          const c = compileRegex(i ? `(?i)${s}` : s);
          if (!c.ok) throw new Error(c.message);
          return c.matcher;
        },
        first: (m, text) => {
          const r = m.firstMatch(text);
          return r.found ? r.at : -1;
        },
      };
    },
  },
  re2: {
    pkg: 're2',
    input: 'bytes',
    note: 'native addon, built by node-gyp here',
    load: (req) => {
      const RE2 = req('re2');
      return {
        compile: (s, i) => new RE2(s, i ? 'gmi' : 'gm'),
        first: (re, bytes) => {
          re.lastIndex = 0;
          const m = re.exec(bytes);
          return m ? m.index : -1;
        },
      };
    },
  },
};

function wasmEngine(RE2) {
  return {
    compile: (s, i) => new RE2(s, i ? 'gmiu' : 'gmu'),
    first: (re, text) => {
      re.lastIndex = 0;
      const m = re.exec(text);
      return m ? m.index : -1;
    },
  };
}

function requireFrom(dirs) {
  return (name) => require(require.resolve(name, { paths: dirs }));
}

function moduleDirs(args) {
  return [process.cwd(), REPO, ...args.modules];
}

function packageDir(name, dirs) {
  for (const d of dirs) {
    const p = path.join(d, 'node_modules', name);
    if (fs.existsSync(path.join(p, 'package.json'))) return p;
  }
  return null;
}

function versionLabel(pkg, dirs) {
  const dir = packageDir(pkg, dirs);
  return dir ? `${pkg} ${JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version}` : pkg;
}

// ---------------------------------------------------------------- child tasks

/** The lower middle value (not proc.js's mean of the two middles): the figures quoted in packages/index/README.md. */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}

function now() {
  return Number(process.hrtime.bigint()) / 1e6;
}

function compileTask(engine, reps) {
  const out = [];
  for (const p of ORDINARY) {
    const times = [];
    let error = null;
    // A fresh source each time defeats V8's RegExp cache; V8 compiles lazily, so the first
    // exec (on a short string) is part of the compile cost for every engine.
    for (let r = 0; r < reps * 20 && !error; r++) {
      const source = `${p.source}|zz${r}qq${process.pid}`;
      const t = now();
      try {
        const c = engine.compile(source, p.ignoreCase);
        engine.first(c, engine.input === 'bytes' ? Buffer.from('x') : 'x');
      } catch (e) {
        error = e.message;
      }
      times.push(now() - t);
    }
    out.push({ name: p.name, ms: error ? null : median(times), error });
  }
  return out;
}

function ordinaryTask(engine, reps, args) {
  const corpus = loadCorpus(args);
  const decode = decoder();
  let inputs;
  let byteAt;
  const t0 = now();
  const decoded = corpus.files.map((b) => decode(b));
  const decodeMs = now() - t0;
  if (engine.input === 'bytes') inputs = corpus.files;
  else {
    inputs = decoded.map((d) => d.text);
    byteAt = decoded.map((d) => d.byteAt);
  }
  const out = [];
  for (const p of ORDINARY) {
    let c;
    try {
      c = engine.compile(p.source, p.ignoreCase);
    } catch (e) {
      out.push({ name: p.name, error: e.message });
      continue;
    }
    const times = [];
    let hits = 0;
    let offsetSum = 0;
    for (let r = 0; r < reps; r++) {
      hits = 0;
      offsetSum = 0;
      const t = now();
      for (let f = 0; f < inputs.length; f++) {
        const at = engine.first(c, inputs[f]);
        if (at < 0) continue;
        hits++;
        offsetSum += byteAt ? byteAt[f](at) : at;
      }
      times.push(now() - t);
    }
    const ms = median(times);
    out.push({ name: p.name, ms, mbps: corpus.bytes / 1e6 / (ms / 1000), hits, offsetSum });
  }
  return { patterns: out, decodeMs, bytes: corpus.bytes, files: corpus.files.length, described: corpus.described };
}

function catastrophicTask(engine, which, n, reps) {
  const p = CATASTROPHIC[which];
  const text = p.input(n);
  const input = engine.input === 'bytes' ? Buffer.from(text) : text;
  let c;
  try {
    c = engine.compile(p.source, false);
  } catch (e) {
    return { error: e.message };
  }
  const times = [];
  let at = -1;
  for (let r = 0; r < reps; r++) {
    const t = now();
    at = engine.first(c, input);
    times.push(now() - t);
    if (times[times.length - 1] > 1000) break; // slow enough: one run tells
  }
  return { ms: median(times), at };
}

/** Byte offsets each engine reports on inputs where UTF-16 and UTF-8 positions differ. */
const UNICODE_CASES = [
  { name: 'é before match', bytes: Buffer.from('héllo wörld', 'utf8'), source: 'wörld', want: 7 },
  { name: '. over astral', bytes: Buffer.from('😀x😀y', 'utf8'), source: '.y', want: 5 },
  { name: 'invalid byte', bytes: Buffer.from([0x61, 0xff, 0x62, 0x0a, 0x66, 0x6e]), source: 'a.b', want: 0 },
  { name: '$ before CRLF', bytes: Buffer.from('x;\r\ny', 'utf8'), source: ';$', want: 1 },
  { name: '(?i) / i non-ASCII', bytes: Buffer.from('xÉ', 'utf8'), source: 'é', ignoreCase: true, want: 1 },
];

function unicodeTask(engine) {
  const decode = decoder();
  return UNICODE_CASES.map((u) => {
    try {
      const c = engine.compile(u.source, u.ignoreCase);
      let at;
      if (engine.input === 'bytes') at = engine.first(c, u.bytes);
      else {
        const d = decode(u.bytes);
        const i = engine.first(c, d.text);
        at = i < 0 ? -1 : d.byteAt(i);
      }
      return { name: u.name, at, ok: at === u.want };
    } catch (e) {
      return { name: u.name, error: e.message };
    }
  });
}

/** Whether v8.setFlagsFromString reaches new RegExps, on the main thread and in a worker. */
function v8FlagTask() {
  const { Worker } = require('worker_threads');
  const code = `
    const v8 = require('v8');
    const { parentPort, workerData } = require('worker_threads');
    const res = {};
    if (workerData.setHere) v8.setFlagsFromString('--enable-experimental-regexp-engine');
    try { new RegExp('(a+)+$', 'l'); res.lFlag = true; } catch (e) { res.lFlag = e.message; }
    if (workerData.fallbackHere) v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    const t = Date.now(); new RegExp('(a+)+$').exec('a'.repeat(23) + '!'); res.fallbackMs = Date.now() - t;
    parentPort.postMessage(res);`;
  const runWorker = (workerData) =>
    new Promise((resolve) => {
      const w = new Worker(code, { eval: true, workerData });
      w.once('message', resolve);
      w.once('error', (e) => resolve({ error: e.message }));
    });
  // Flags are process-wide: ask a worker before anything sets them, then after.
  return (async () => {
    const before = await runWorker({ setHere: false, fallbackHere: false });
    const workerSetsItself = await runWorker({ setHere: true, fallbackHere: true });
    let mainThread;
    try {
      new RegExp('x', 'l');
      mainThread = true;
    } catch (e) {
      mainThread = e.message;
    }
    return { workerBeforeAnySet: before, workerSetsItself, mainThreadAfterWorkerSet: mainThread };
  })();
}

async function runChild(spec, args) {
  if (spec.task === 'v8flags') return v8FlagTask();
  const def = ENGINES[spec.engine];
  const engine = { ...def.load(requireFrom(moduleDirs(args))), input: def.input };
  if (spec.task === 'compile') return compileTask(engine, args.reps);
  if (spec.task === 'ordinary') return ordinaryTask(engine, args.reps, args);
  if (spec.task === 'catastrophic') return catastrophicTask(engine, spec.which, spec.n, args.reps);
  if (spec.task === 'unicode') return unicodeTask(engine);
  if (spec.task === 'load') {
    const t = now();
    def.load(requireFrom(moduleDirs(args)));
    return { ms: now() - t };
  }
  throw new Error(`unknown task ${spec.task}`);
}

// ---------------------------------------------------------------- parent

function forwardArgs(args) {
  const out = ['--reps', String(args.reps), '--mb', String(args.mb)];
  for (const m of args.modules) out.push('--modules', m);
  for (const c of args.corpus) out.push('--corpus', c);
  return out;
}

function spawnTask(name, spec, args, timeoutS) {
  const execArgv = name ? (ENGINES[name].execArgv ?? []) : [];
  const r = spawnSync(process.execPath, [...execArgv, SELF, '--child', JSON.stringify(spec), ...forwardArgs(args)], {
    encoding: 'utf8',
    timeout: timeoutS * 1000,
    killSignal: 'SIGKILL',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.error && r.error.code === 'ETIMEDOUT') return { timedOut: true };
  if (r.status !== 0) return { crashed: (r.stderr || '').trim().split('\n').slice(-1)[0] || `exit ${r.status}` };
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function installCandidates(args) {
  const results = {};
  for (const pkg of ['re2js', 're2-wasm', '@adguard/re2-wasm', 're2']) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'regex-bench-install-'));
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      '{"name":"regex-bench-install","version":"0.0.0","private":true}\n',
    );
    const r = timedRun(
      'npm',
      ['install', '--no-audit', '--no-fund', '--foreground-scripts', '--cache', path.join(dir, '.npm-cache'), pkg],
      { cwd: dir },
    );
    const seconds = r.seconds;
    const log = `${r.stdout}\n${r.stderr}`;
    results[pkg] = {
      ok: r.status === 0,
      seconds,
      triedDownload: /Trying https?:/.test(log),
      builtFromSource: /gyp info ok/.test(log),
      log: r.status === 0 ? undefined : log.trim().split('\n').slice(-3).join(' / '),
    };
    if (r.status === 0) args.modules.push(dir);
    console.error(`installed ${pkg}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
  }
  return results;
}

function fmtMs(x) {
  if (x == null || Number.isNaN(x)) return '—';
  if (x < 0.01) return `${(x * 1000).toFixed(1)} µs`;
  if (x < 10) return `${x.toFixed(2)} ms`;
  if (x < 10_000) return `${x.toFixed(0)} ms`;
  return `${(x / 1000).toFixed(1)} s`;
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child) {
    const res = await runChild(args.child, args);
    process.stdout.write(`${JSON.stringify(res)}\n`);
    return;
  }
  const installs = args.install ? installCandidates(args) : {};
  const dirs = moduleDirs(args);
  const present = [];
  const skipped = [];
  for (const [name, def] of Object.entries(ENGINES)) {
    if (!def.pkg) {
      present.push(name);
      continue;
    }
    const dir = packageDir(def.pkg, dirs);
    if (!dir) {
      skipped.push(`${name} (package ${def.pkg} not installed; pass --modules DIR or --install)`);
      continue;
    }
    const loaded = spawnTask(name, { engine: name, task: 'load' }, args, 60);
    if (loaded.ms == null) {
      skipped.push(`${name} (does not load: ${loaded.crashed ?? 'timed out'})`);
      continue;
    }
    present.push(name);
  }

  const results = {};
  for (const name of present) {
    console.error(`measuring ${name} …`);
    const def = ENGINES[name];
    const dir = def.pkg ? packageDir(def.pkg, dirs) : null;
    const r = {
      version: dir
        ? JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version
        : def.versionOf
          ? versionLabel(def.versionOf, dirs)
          : process.versions.v8,
      size: dir ? diskBytes(dir) : 0,
      load: def.pkg ? spawnTask(name, { engine: name, task: 'load' }, args, 60).ms : 0,
      compile: spawnTask(name, { engine: name, task: 'compile' }, args, 120),
      ordinary: spawnTask(name, { engine: name, task: 'ordinary' }, args, 600),
      unicode: spawnTask(name, { engine: name, task: 'unicode' }, args, 60),
      catastrophic: [],
    };
    for (let which = 0; which < CATASTROPHIC.length; which++) {
      for (const n of CATASTROPHIC_LENGTHS) {
        r.catastrophic.push({
          source: CATASTROPHIC[which].source,
          n,
          ...spawnTask(name, { engine: name, task: 'catastrophic', which, n }, args, args.timeout),
        });
      }
    }
    results[name] = r;
  }
  const v8flags = spawnTask(null, { task: 'v8flags' }, args, 120);

  // ---- report
  const first = Object.values(results).find((r) => r.ordinary && r.ordinary.bytes);
  const corpusLine = first
    ? `${first.ordinary.files} files, ${(first.ordinary.bytes / 1e6).toFixed(2)} MB (${first.ordinary.described.join('; ')}); decodeText of all of it: ${fmtMs(first.ordinary.decodeMs)}`
    : 'no corpus';
  console.log(
    `Node ${process.version} (V8 ${process.versions.v8}), ${os.cpus().length} cores; medians of ${args.reps} runs; catastrophic cases killed after ${args.timeout} s`,
  );
  console.log(`Corpus: ${corpusLine}`);
  console.log('Throughput = corpus MB ÷ time to find the first match in every file (what `re:` does).\n');
  const names = Object.keys(results);
  const cell = (r, fn) => {
    try {
      return fn(r);
    } catch {
      return '—';
    }
  };
  const ordRow = (label, pick) => [label, ...names.map((n) => cell(results[n], pick))];
  const rows = [];
  rows.push(ordRow('version', (r) => r.version));
  rows.push(ordRow('package size on disk', (r) => (r.size ? `${(r.size / 1e6).toFixed(1)} MB` : 'built in')));
  if (args.install) rows.push(ordRow('install (fresh npm cache)', () => '')); // filled below
  rows.push(ordRow('require()', (r) => (r.load ? fmtMs(r.load) : '—')));
  ORDINARY.forEach((p, i) => {
    rows.push(
      ordRow(`compile ${p.name}`, (r) =>
        r.compile.timedOut ? 'timeout' : r.compile[i].error ? 'unsupported' : fmtMs(r.compile[i].ms),
      ),
    );
  });
  ORDINARY.forEach((p, i) => {
    rows.push(
      ordRow(`MB/s ${p.name}`, (r) => {
        const o = r.ordinary.patterns ? r.ordinary.patterns[i] : null;
        if (!o) return r.ordinary.timedOut ? 'timeout' : 'failed';
        if (o.error) return 'unsupported';
        return `${o.mbps.toFixed(o.mbps < 10 ? 1 : 0)} (${o.hits} files)`;
      }),
    );
  });
  for (const [k, c] of CATASTROPHIC.entries()) {
    for (const [j, n] of CATASTROPHIC_LENGTHS.entries()) {
      rows.push(
        ordRow(`${c.source} on ${n.toLocaleString('en-US')} chars`, (r) => {
          const x = r.catastrophic[k * CATASTROPHIC_LENGTHS.length + j];
          if (x.timedOut) return `> ${args.timeout} s (killed)`;
          if (x.error) return 'unsupported';
          if (x.crashed) return `crashed`;
          return fmtMs(x.ms);
        }),
      );
    }
  }
  UNICODE_CASES.forEach((u, i) => {
    rows.push(
      ordRow(`byte offset: ${u.name} (want ${u.want})`, (r) => {
        const x = r.unicode[i];
        return x.error ? 'unsupported' : `${x.at}${x.ok ? ' ok' : ' WRONG'}`;
      }),
    );
  });
  if (args.install) {
    const row = rows.find((r) => r[0] === 'install (fresh npm cache)');
    names.forEach((n, i) => {
      const inst = installs[ENGINES[n].pkg];
      row[i + 1] = !ENGINES[n].pkg
        ? '—'
        : inst
          ? `${inst.seconds.toFixed(1)} s${inst.builtFromSource ? ' (node-gyp build)' : ''}${inst.triedDownload ? ', tried a download' : ''}`
          : '—';
    });
  }
  console.log(table(['', ...names], rows));
  // Engines must agree on what ordinary patterns find (same files, same byte offsets).
  const agree = ORDINARY.map((p, i) => {
    const seen = new Set(
      names
        .map((n) => results[n].ordinary.patterns?.[i])
        .filter((o) => o && !o.error)
        .map((o) => `${o.hits}/${o.offsetSum}`),
    );
    return seen.size <= 1 ? null : `${p.name}: engines disagree (${[...seen].join(' vs ')})`;
  }).filter(Boolean);
  console.log(
    agree.length
      ? `\nDisagreements:\n${agree.join('\n')}`
      : '\nAll engines that ran a pattern found the same first-match byte offsets in the same files.',
  );
  console.log(`\nV8 flags via v8.setFlagsFromString: ${JSON.stringify(v8flags)}`);
  if (skipped.length) console.log(`\nSkipped: ${skipped.join('; ')}`);
  for (const [pkg, inst] of Object.entries(installs))
    if (!inst.ok) console.log(`install of ${pkg} failed: ${inst.log}`);
  console.log('\nNotes:');
  for (const n of names) console.log(`- ${n}: ${ENGINES[n].note}`);
  if (args.json) fs.writeFileSync(args.json, JSON.stringify({ results, installs, v8flags, skipped }, null, 2));
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
