'use strict';
// Where one CLI run's time goes: the run under `node --cpu-prof` with trace-hooks.js
// preloaded. The hooks give exact wall times (require(), every git child);
// the CPU profile gives on-CPU time by area, each sample charged to the innermost frame
// that belongs to an area (node internals count toward the caller that asked for them).
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT, timed } = require('./common');

const HOOKS = path.join(__dirname, 'trace-hooks.js');
const AREAS = [
  [/^node:internal\/modules\//, 'module loading (resolve, read, compile)'],
  [/^node:(internal\/)?child_process/, 'child processes (spawnSync: spawn + wait)'],
  [/\/node_modules\/better-sqlite3\//, 'better-sqlite3'],
  [/\/node_modules\/tree-sitter[^/]*\//, 'tree-sitter'],
  [/\/packages\/history\/dist\//, 'history package (walk, blame, git output)'],
  [/\/packages\/render\/dist\//, 'render package'],
  [/\/packages\/result-cache\/dist\//, 'result-cache package (saving the set)'],
  [/\/packages\/index\/dist\//, 'index package'],
  [/\/packages\/workspace\/dist\//, 'workspace package (commands, glue)'],
  [/\/packages\/[^/]+\/dist\//, 'other packages'],
  [/\/apps\/cli\/dist\//, 'cli (argv, dispatch, output)'],
  [/\/node_modules\/(@[^/]+\/)?[^/]+\//, 'other node_modules'],
];
const SPECIAL = new Map([
  ['(garbage collector)', 'GC'],
  ['(idle)', 'idle (waiting: git children, the daemon, I/O)'],
  ['(program)', '(program: V8, native, compile)'],
]);

// Node's own modules compiled on first require (child_process, net, stream...) are loading too.
const BUILTIN_LOADING = new Set(['compileForInternalLoader', 'requireBuiltin']);

function areaOf(frame) {
  if (BUILTIN_LOADING.has(frame.functionName)) return AREAS[0][1];
  const url = frame.url || '';
  const u = url.startsWith('file://') ? decodeURIComponent(url.slice(7)) : url;
  for (const [re, name] of AREAS) if (re.test(u)) return name;
  return undefined;
}

/** On-CPU milliseconds per area of a .cpuprofile. */
function areasOfProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const memo = new Map();
  const classify = (id) => {
    if (memo.has(id)) return memo.get(id);
    const leaf = byId.get(id);
    let area = SPECIAL.get(leaf.callFrame.functionName);
    for (let at = id; area === undefined && at !== undefined; at = parent.get(at))
      area = areaOf(byId.get(at).callFrame);
    memo.set(id, area ?? 'node internals (bootstrap)');
    return memo.get(id);
  };
  const ms = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0) / 1000;
    const a = classify(samples[i]);
    ms.set(a, (ms.get(a) || 0) + dt);
  }
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    areas: [...ms.entries()].sort((x, y) => y[1] - x[1]),
  };
}

/** One CLI run profiled: { label, wallMs, status, trace, profile: { totalMs, areas } }. */
function profileRun(cli, argv, dir, label) {
  fs.mkdirSync(dir, { recursive: true });
  const slug = label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
  const name = `${slug}.cpuprofile`;
  const traceFile = path.join(dir, `${slug}.trace.json`);
  fs.rmSync(path.join(dir, name), { force: true });
  const r = timed(
    process.execPath,
    [
      '--cpu-prof',
      '--cpu-prof-interval',
      '250',
      '--cpu-prof-dir',
      dir,
      '--cpu-prof-name',
      name,
      '--require',
      HOOKS,
      cli,
      ...argv,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, TRUFFLEPIG_BENCH_TRACE: traceFile },
    },
  );
  if (r.status !== 0) throw new Error(`profiled ${label}: exit ${r.status}: ${r.stderr}`);
  const trace = JSON.parse(fs.readFileSync(traceFile, 'utf8'));
  const profile = areasOfProfile(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
  return { label, wallMs: r.ms, trace, profile, file: path.join(dir, name) };
}

/** The printed breakdown of a profileRun. */
function describeProfile(p) {
  const t = p.trace;
  const f = (x) => `${x.toFixed(1)} ms`;
  const sum = (xs) => xs.reduce((n, x) => n + Math.max(0, x.ms), 0);
  const lines = [
    `${p.label}: ${f(p.wallMs)} wall (profiled; the profile adds overhead), process exit at ${f(t.exitAt)} after start`,
  ];
  lines.push(`  before main.js runs (node bootstrap, the profiler and hooks): ${f(t.mainAt ?? t.preloadAt)}`);
  lines.push(
    `  require() from main on (outermost calls, inclusive: resolve, read, compile, top-level code): ${f(t.require.ms)} in ${t.require.calls} calls`,
  );
  for (const l of t.require.lazy.sort((a, b) => b.ms - a.ms).slice(0, 4))
    lines.push(`    require('${l.request}'): ${f(l.ms)} (at ${l.at} ms)`);
  const owners = Object.entries(t.require.byPackage).sort((a, b) => b[1] - a[1]);
  lines.push(`    ${t.require.files} files loaded; each file's own load time (nested loads taken out), by owner:`);
  for (const [owner, ms] of owners.slice(0, 10))
    if (ms >= 1) lines.push(`      ${owner.padEnd(40)} ${f(ms).padStart(9)}`);
  lines.push(
    `  git children: ${t.gitSync.length} spawnSync, ${f(sum(t.gitSync))} waited; ${t.gitAsync.length} spawn (streamed), ${f(sum(t.gitAsync))} from spawn to close`,
  );
  for (const g of [...t.gitSync, ...t.gitAsync].sort((a, b) => a.at - b.at))
    lines.push(`    git ${g.args}: ${f(g.ms)} (at ${g.at} ms)`);
  lines.push(`  CPU profile, ${f(p.profile.totalMs)} from profiler start to exit, by area:`);
  for (const [area, ms] of p.profile.areas) if (ms >= 0.5) lines.push(`    ${area.padEnd(46)} ${f(ms).padStart(9)}`);
  lines.push(`  profile: ${p.file}`);
  return lines;
}

module.exports = { profileRun, describeProfile, areasOfProfile };
