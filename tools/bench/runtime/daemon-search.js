'use strict';
// Target 2: a daemon-served `search` as a whole process against a bare `node -e 0`, the two
// interleaved per repetition (who goes first alternates) so both see the same machine load.
const { timedRun, median } = require('../../lib/proc');
const { cliSync } = require('./cli');

function measureDaemonSearch(ctx, queries, reps, onQuery) {
  const runners = {
    search: (q) => cliSync(ctx, ['search', q.query]),
    node: () => {
      const r = timedRun(process.execPath, ['-e', '0']);
      return { seconds: r.seconds, ok: r.status === 0, error: r.status === 0 ? undefined : `exit ${r.status}` };
    },
  };
  const tools = Object.keys(runners);
  for (const t of tools) runners[t](queries[0]); // untimed warm-up of the page cache and the daemon
  const rows = [];
  for (const q of queries) {
    const samples = { search: [], node: [] };
    const failures = [];
    let hits = 0;
    for (let rep = 0; rep < reps; rep++) {
      for (let i = 0; i < tools.length; i++) {
        const tool = tools[(i + rep) % tools.length];
        const r = runners[tool](q);
        samples[tool].push(r.seconds);
        if (!r.ok) failures.push(`${tool}: ${r.error}`);
        else if (tool === 'search') hits = Array.isArray(r.json.hits) ? r.json.hits.length : 0;
      }
    }
    const row = {
      query: q.query,
      samples,
      medians: { search: median(samples.search), node: median(samples.node) },
      hits,
      failures,
    };
    rows.push(row);
    if (onQuery) onQuery(row);
  }
  const searchMedian = median(rows.map((r) => r.medians.search));
  const nodeMedian = median(rows.map((r) => r.medians.node));
  return {
    rows,
    searchMedian,
    nodeMedian,
    ratio: searchMedian / nodeMedian,
    failures: rows.reduce((n, r) => n + r.failures.length, 0),
  };
}

module.exports = { measureDaemonSearch };
