'use strict';
// Timing instrumentation for one CLI run, loaded with `node --require` (profile.js): no
// package code changes. It times require() (the outermost calls, inclusive, so nested loads
// are not counted twice; and each newly loaded file's own share, its nested loads taken
// out, summed by package; the storage engine, better-sqlite3, loads synchronously and is timed
// there), and every git child process (spawnSync
// to its return, spawn to its 'close'); at exit it writes them as JSON to
// $TRUFFLEPIG_BENCH_TRACE.
const Module = require('node:module');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const out = process.env.TRUFFLEPIG_BENCH_TRACE;
const trace = {
  preloadAt: performance.now(),
  require: { ms: 0, calls: 0, lazy: [], files: 0, byPackage: {} },
  gitSync: [],
  gitAsync: [],
  exitAt: 0,
};
let depth = 0;
let mainStarted = false;

const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (isMain) {
    mainStarted = true;
    trace.mainAt = performance.now();
    return originalLoad.apply(this, arguments);
  }
  if (depth > 0 || !mainStarted) {
    return originalLoad.apply(this, arguments);
  }
  depth++;
  const t0 = performance.now();
  let exported;
  try {
    exported = originalLoad.apply(this, arguments);
  } finally {
    depth--;
    const took = performance.now() - t0;
    trace.require.ms += took;
    trace.require.calls++;
    // The loads that cost something, by name and when (ms since the process started).
    if (took > 2) trace.require.lazy.push({ request, at: Math.round(t0), ms: Number(took.toFixed(1)) });
  }
  return exported;
};

/** packages/NAME, apps/NAME, node_modules/[@scope/]NAME, or node: for the file's owner. */
function ownerOf(filename) {
  const m =
    /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(filename) ||
    /\/((?:packages|apps)\/[^/]+)\//.exec(filename);
  return m ? m[1] : filename;
}

// Each newly loaded file's own time: its load minus the loads nested in it.
const nested = [];
const originalFileLoad = Module.prototype.load;
Module.prototype.load = function loadFile(filename) {
  // main.js itself is left out: its "load" is the whole synchronous start of the run.
  if (!mainStarted || this.id === '.') return originalFileLoad.apply(this, arguments);
  const t0 = performance.now();
  nested.push(0);
  try {
    return originalFileLoad.apply(this, arguments);
  } finally {
    const took = performance.now() - t0;
    const own = took - nested.pop();
    if (nested.length > 0) nested[nested.length - 1] += took;
    const owner = ownerOf(filename);
    trace.require.files++;
    trace.require.byPackage[owner] = (trace.require.byPackage[owner] || 0) + own;
  }
};

// git's argv without `-C DIR` and `-c KEY=VALUE`: the subcommand and its first options.
const argsOf = (argv) =>
  Array.isArray(argv)
    ? argv
        .filter((a, i) => a !== '-C' && argv[i - 1] !== '-C' && a !== '-c' && argv[i - 1] !== '-c')
        .slice(0, 3)
        .join(' ')
    : '';

const originalSpawnSync = childProcess.spawnSync;
childProcess.spawnSync = function spawnSyncTraced(command, argv) {
  const t0 = performance.now();
  const r = originalSpawnSync.apply(this, arguments);
  if (command === 'git')
    trace.gitSync.push({ args: argsOf(argv), at: Math.round(t0), ms: Number((performance.now() - t0).toFixed(1)) });
  return r;
};
const originalSpawn = childProcess.spawn;
childProcess.spawn = function spawnTraced(command, argv) {
  const t0 = performance.now();
  const child = originalSpawn.apply(this, arguments);
  if (command === 'git') {
    const entry = { args: argsOf(argv), at: Math.round(t0), ms: -1 };
    trace.gitAsync.push(entry);
    child.on('close', () => {
      entry.ms = Number((performance.now() - t0).toFixed(1));
    });
  }
  return child;
};

process.on('exit', () => {
  trace.exitAt = performance.now();
  if (out) fs.writeFileSync(out, JSON.stringify(trace));
});
