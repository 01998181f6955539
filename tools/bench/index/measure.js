'use strict';
// Measurements: indexing (cold, no-change, size, peak RSS), csearch's index, and per-query timings.
const fs = require('fs');
const path = require('path');
const { timedRun, parseJsonOutput, oneLine, median } = require('../../lib/proc');
const { treeStats } = require('../../lib/corpus');
const { cacheDirForRoot } = require('@trufflepig/member-root/cache-dir');

const TIME_BIN = '/usr/bin/time';

const TREE_PEAK = path.join(__dirname, '..', '..', 'lib', 'tree-peak.js');

/**
 * Runs `trufflepig index` under GNU time and tools/lib/tree-peak.js; returns seconds, the
 * largest single process's peak RSS (GNU time), the whole process tree's peak PSS and RSS
 * (the CLI and its parser processes together) and the CLI's report.
 */
function runIndex(cli, corpus, cache, workDir) {
  const args = [cli, '--no-daemon', '--json', '--root', corpus, '--cache', cache, 'index'];
  const rssFile = path.join(workDir, 'time-v.txt');
  const treeFile = path.join(workDir, 'tree-peak.json');
  fs.rmSync(treeFile, { force: true });
  const command = [process.execPath, TREE_PEAK, treeFile, '--', process.execPath, ...args];
  const useTime = fs.existsSync(TIME_BIN);
  const run = useTime ? timedRun(TIME_BIN, ['-v', '-o', rssFile, ...command]) : timedRun(command[0], command.slice(1));
  if (run.status !== 0) {
    throw new Error(`index exited ${run.status}: ${oneLine(run.stdout + ' ' + run.stderr).slice(0, 500)}`);
  }
  let peakRssBytes = null;
  if (useTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(fs.readFileSync(rssFile, 'utf8'));
    if (m) peakRssBytes = Number(m[1]) * 1024;
  }
  const tree = fs.existsSync(treeFile) ? JSON.parse(fs.readFileSync(treeFile, 'utf8')) : {};
  const report = parseJsonOutput(run.stdout);
  // Keep what the CLI said when it is not the expected JSON, so the report can show it.
  const raw = report ? undefined : oneLine(run.stdout + ' ' + run.stderr).slice(0, 300);
  return {
    seconds: run.seconds,
    peakRssBytes,
    peakTreePssBytes: tree.peakTreePssBytes ?? null,
    peakTreeRssBytes: tree.peakTreeRssBytes ?? null,
    report,
    raw,
  };
}

/**
 * The memory an index run took: the process tree's peak PSS where it was sampled, else the
 * largest process's peak RSS (GNU time), else null.
 */
function peakIndexingBytes(run) {
  return run?.peakTreePssBytes ?? run?.peakRssBytes ?? null;
}

/**
 * Cold index into a fresh cache, then `reindexRuns` no-change reindexes. With `reuse`, the
 * cache's index is kept (cold is null) and the first reindex brings it up to date first.
 */
function measureIndexing(cli, corpus, workDir, reindexRuns, reuse = false) {
  const cache = path.join(workDir, 'cache');
  if (!reuse) fs.rmSync(cache, { recursive: true, force: true });
  const cold = reuse ? null : runIndex(cli, corpus, cache, workDir);
  // What the index holds, for the size ratio: the cold run's report, or a catch-up run's.
  const settled = cold ?? runIndex(cli, corpus, cache, workDir);
  const reindex = [];
  for (let i = 0; i < reindexRuns; i++) reindex.push(runIndex(cli, corpus, cache, workDir));
  // --cache is a base: the corpus's index lives in its own <base>/<root-hash>/ (the CLI's rule).
  const sqlite = path.join(cacheDirForRoot(fs.realpathSync(corpus), { cacheOverride: cache }), 'index.sqlite');
  return {
    cache,
    cold,
    report: settled.report,
    reindex,
    reindexSeconds: median(reindex.map((r) => r.seconds)),
    indexBytes: fs.existsSync(sqlite) ? fs.statSync(sqlite).size : null,
    cacheDirBytes: treeStats(cache).bytes,
  };
}

/** Builds a fresh csearch index over the corpus; returns its env and build time. */
function buildCsearchIndex(corpus, workDir) {
  const indexFile = path.join(workDir, 'csearchindex');
  fs.rmSync(indexFile, { force: true });
  const env = { ...process.env, CSEARCHINDEX: indexFile };
  const run = timedRun('cindex', [corpus], { env });
  if (run.status !== 0) throw new Error(`cindex exited ${run.status}: ${run.stderr.trim().slice(0, 300)}`);
  return { env, seconds: run.seconds, bytes: fs.statSync(indexFile).size };
}

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const countLines = (text) => (text ? text.split('\n').filter(Boolean).length : 0);

/** One command per tool for a query; each returns { seconds, ok, count, error? }. */
function toolRunners(cli, corpus, cache, csearchEnv, q) {
  return {
    trufflepig: () => {
      const r = timedRun(process.execPath, [
        cli,
        '--no-daemon',
        '--json',
        '--root',
        corpus,
        '--cache',
        cache,
        'search',
        q.query,
      ]);
      const out = parseJsonOutput(r.stdout);
      const ok = r.status === 0 && out && Array.isArray(out.hits);
      const code = out && out.error ? out.error.code : oneLine(r.stdout + ' ' + r.stderr).slice(0, 120);
      const error = ok ? undefined : `exit ${r.status}: ${code}`;
      return {
        seconds: r.seconds,
        ok,
        count: ok ? out.hits.length : 0,
        truncated: Boolean(out && out.truncated),
        error,
      };
    },
    rg: () => {
      const r = timedRun('rg', ['-n', ...(q.fixed ? ['-F'] : []), '-e', q.pattern, '.'], { cwd: corpus });
      return { seconds: r.seconds, ok: r.status === 0 || r.status === 1, count: countLines(r.stdout) }; // 1 = no match
    },
    csearch: () => {
      const pattern = q.fixed ? escapeRegex(q.pattern) : q.pattern;
      const r = timedRun('csearch', ['-n', pattern], { env: csearchEnv });
      return { seconds: r.seconds, ok: r.status === 0 || r.status === 1, count: countLines(r.stdout) }; // 1 = no match
    },
    node: () => {
      const r = timedRun(process.execPath, ['-e', '0']);
      return { seconds: r.seconds, ok: r.status === 0, count: 0 };
    },
  };
}

/** Times every query `reps` times per tool, interleaving tools (rotating who goes first). */
function measureQueries(queries, reps, { cli, corpus, cache, csearchEnv }, onQueryDone) {
  const results = [];
  for (const q of queries) {
    const runners = toolRunners(cli, corpus, cache, csearchEnv, q);
    const tools = Object.keys(runners);
    const samples = Object.fromEntries(tools.map((t) => [t, []]));
    const last = {};
    for (let rep = 0; rep < reps; rep++) {
      for (let i = 0; i < tools.length; i++) {
        const tool = tools[(i + rep) % tools.length];
        last[tool] = runners[tool]();
        samples[tool].push(last[tool].seconds);
      }
    }
    const medians = Object.fromEntries(tools.map((t) => [t, median(samples[t])]));
    const result = { ...q, samples, medians, last };
    results.push(result);
    if (onQueryDone) onQueryDone(result);
  }
  return results;
}

module.exports = {
  peakIndexingBytes,
  measureIndexing,
  buildCsearchIndex,
  measureQueries,
};
