'use strict';
// Target 3: warm in-process library search (a child process running inprocess-child.js)
// against `rg` on the same corpus as a whole process (the command line tools/bench/index uses).
const path = require('path');
const { timedRun, median } = require('../../lib/proc');

const CHILD = path.join(__dirname, 'inprocess-child.js');

function measureInProcess(ctx, queries, reps) {
  const r = timedRun(process.execPath, [CHILD, ctx.lib, ctx.corpus, ctx.cache, String(reps)]);
  if (r.status !== 0) throw new Error(`in-process search exited ${r.status}: ${r.stderr.trim().slice(-600)}`);
  const result = JSON.parse(r.stdout);
  for (const row of result.rows) row.median = median(row.samples);
  return {
    ...result,
    median: median(result.rows.map((row) => row.median)),
    allSamplesMedian: median(result.rows.flatMap((row) => row.samples)),
    failures: result.rows.reduce((n, row) => n + row.failures.length, 0),
  };
}

const countLines = (text) => (text ? text.split('\n').filter(Boolean).length : 0);

function measureRg(ctx, queries, reps) {
  timedRun('rg', ['-n', '-F', '-e', queries[0].pattern, '.'], { cwd: ctx.corpus }); // untimed page-cache warm-up
  const rows = queries.map((q) => {
    const samples = [];
    let lines = 0;
    let failures = 0;
    for (let rep = 0; rep < reps; rep++) {
      const run = timedRun('rg', ['-n', ...(q.fixed ? ['-F'] : []), '-e', q.pattern, '.'], { cwd: ctx.corpus });
      samples.push(run.seconds);
      if (run.status === 0 || run.status === 1) lines = countLines(run.stdout);
      else failures++;
    }
    return { query: q.query, samples, median: median(samples), lines, failures };
  });
  return {
    rows,
    median: median(rows.map((row) => row.median)),
    failures: rows.reduce((n, row) => n + row.failures, 0),
  };
}

module.exports = { measureInProcess, measureRg };
