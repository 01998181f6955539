'use strict';
// Formatting of the benchmark figures and the issue's targets with PASS/MISS.
const { median } = require('../../lib/proc');
const { peakIndexingBytes } = require('./measure');

const MB = 1e6; // figures use decimal megabytes (10^6 bytes)

// Targets from issue 2 ("Targets (printed by the benchmark, on the corpus above)").
const TARGETS = [
  { key: 'coldMBps', label: 'cold index throughput', unit: 'MB/s', op: '>=', limit: 2 },
  { key: 'reindexSeconds', label: 'no-change reindex', unit: 's', op: '<=', limit: 1 },
  { key: 'indexRatio', label: 'index bytes / source bytes', unit: 'x', op: '<=', limit: 3 },
  { key: 'searchMedianSeconds', label: 'search median (--no-daemon)', unit: 's', op: '<=', limit: 0.5 },
  { key: 'peakRssMB', label: 'peak memory while indexing (process tree PSS)', unit: 'MB', op: '<=', limit: 500 },
];

const fmt = (n, digits = 3) => (n == null || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);

/** Derives the headline figures (also the JSON summary) from raw measurements. */
function summarize(corpus, indexing, csearch, queries) {
  const report = indexing.cold.report || {};
  const sourceBytes = typeof report.source_bytes === 'number' ? report.source_bytes : corpus.bytes;
  const perTool = (tool) => median(queries.map((q) => q.medians[tool]));
  return {
    corpusFiles: corpus.files,
    corpusBytes: corpus.bytes,
    indexedSourceBytes: sourceBytes,
    coldSeconds: indexing.cold.seconds,
    coldMBps: sourceBytes / MB / indexing.cold.seconds,
    reindexSeconds: indexing.reindexSeconds,
    indexBytes: indexing.indexBytes,
    cacheDirBytes: indexing.cacheDirBytes,
    indexRatio: indexing.indexBytes == null ? null : indexing.indexBytes / sourceBytes,
    peakRssMB: peakIndexingBytes(indexing.cold) == null ? null : peakIndexingBytes(indexing.cold) / MB,
    cindexSeconds: csearch.seconds,
    cindexBytes: csearch.bytes,
    searchMedianSeconds: perTool('trufflepig'),
    failedSearches: queries.filter((q) => !q.last.trufflepig.ok).length,
    rgMedianSeconds: perTool('rg'),
    csearchMedianSeconds: perTool('csearch'),
    nodeMedianSeconds: perTool('node'),
  };
}

function printIndexing(s, indexing, csearch) {
  const said = (run) => (run.report ? JSON.stringify(run.report) : `not JSON: ${run.raw}`);
  console.log(
    `\ncorpus: ${s.corpusFiles} files, ${fmt(s.corpusBytes / MB, 1)} MB; CLI indexed ${fmt(s.indexedSourceBytes / MB, 1)} MB`,
  );
  console.log(
    `cold index:        ${fmt(s.coldSeconds, 2)} s  = ${fmt(s.coldMBps, 2)} MB/s   (cindex: ${fmt(csearch.seconds, 2)} s)`,
  );
  console.log(`  CLI report:      ${said(indexing.cold)}`);
  console.log(`no-change reindex: ${fmt(s.reindexSeconds, 2)} s (median of ${indexing.reindex.length})`);
  for (const run of indexing.reindex) console.log(`  CLI report:      ${said(run)}`);
  console.log(
    `index size:        ${fmt(s.indexBytes / MB, 1)} MB index.sqlite (${fmt(s.cacheDirBytes / MB, 1)} MB cache dir) = ${fmt(s.indexRatio, 2)} x source   (csearch index: ${fmt(csearch.bytes / MB, 1)} MB)`,
  );
  console.log(`peak memory indexing (process tree PSS): ${fmt(s.peakRssMB, 0)} MB`);
}

function printQueryHeader() {
  console.log(
    `\n${pad('query', 34)}${lpad('tp s', 8)}${lpad('rg s', 8)}${lpad('cs s', 8)}${lpad('node s', 8)}${lpad('tp/rg', 8)}${lpad('tp/cs', 8)}${lpad('tp/node', 8)}${lpad('tp hits', 9)}${lpad('rg lines', 9)}`,
  );
}

function printQueryRow(q) {
  const m = q.medians;
  const tp = q.last.trufflepig;
  const note = tp.ok ? (tp.truncated ? '  truncated' : '') : `  ERROR ${tp.error}`;
  console.log(
    `${pad(q.query.slice(0, 33), 34)}${lpad(fmt(m.trufflepig), 8)}${lpad(fmt(m.rg), 8)}${lpad(fmt(m.csearch), 8)}${lpad(fmt(m.node), 8)}` +
      `${lpad(fmt(m.trufflepig / m.rg, 1), 8)}${lpad(fmt(m.trufflepig / m.csearch, 1), 8)}${lpad(fmt(m.trufflepig / m.node, 1), 8)}` +
      `${lpad(tp.count, 9)}${lpad(q.last.rg.count, 9)}${note}`,
  );
}

function printSearchSummary(s, reps) {
  console.log(
    `${pad(`median of per-query medians (${reps} reps)`, 34)}${lpad(fmt(s.searchMedianSeconds), 8)}${lpad(fmt(s.rgMedianSeconds), 8)}` +
      `${lpad(fmt(s.csearchMedianSeconds), 8)}${lpad(fmt(s.nodeMedianSeconds), 8)}${lpad(fmt(s.searchMedianSeconds / s.rgMedianSeconds, 1), 8)}` +
      `${lpad(fmt(s.searchMedianSeconds / s.csearchMedianSeconds, 1), 8)}${lpad(fmt(s.searchMedianSeconds / s.nodeMedianSeconds, 1), 8)}`,
  );
}

/** Prints each target next to its figure; returns [{label, value, pass}]. */
function printTargets(s) {
  console.log('\ntargets (issue 2):');
  return TARGETS.map((t) => {
    const value = s[t.key];
    // A fast search that failed is no evidence: any failed query voids the search target.
    const searchVoided = t.key === 'searchMedianSeconds' && s.failedSearches > 0;
    const pass = !searchVoided && value != null && (t.op === '>=' ? value >= t.limit : value <= t.limit);
    const note = searchVoided ? `  [${s.failedSearches} of the queries failed]` : '';
    console.log(
      `  ${pass ? 'PASS' : 'MISS'}  ${pad(t.label, 30)} ${lpad(fmt(value, 2), 8)} ${pad(t.unit, 5)} (target ${t.op} ${t.limit} ${t.unit})${note}`,
    );
    return { ...t, value, pass };
  });
}

module.exports = { summarize, printIndexing, printQueryHeader, printQueryRow, printSearchSummary, printTargets };
