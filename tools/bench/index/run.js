#!/usr/bin/env node
'use strict';
// Benchmark: Trufflepig indexing and one-shot search against rg, csearch and a bare node.
// Usage: node tools/bench/index/run.js [--quick] [--json FILE] [--work DIR] [--cli PATH]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { coreCorpus } = require('../../lib/corpus');
const { ensurePackages } = require('./setup');
const { measureIndexing, buildCsearchIndex, measureQueries } = require('./measure');
const report = require('./report');
const { QUERIES } = require('./queries');

const FULL = { reps: 5, reindexRuns: 3 };
const QUICK = { reps: 3, reindexRuns: 1 };

function parseArgs(argv) {
  return parseOptions(argv, {
    name: 'bench',
    usage: 'usage: node tools/bench/index/run.js [--quick] [--json FILE] [--work DIR] [--cli PATH]',
    options: {
      quick: { type: 'boolean' },
      json: { type: 'string' },
      work: { type: 'string', default: path.join(os.tmpdir(), 'trufflepig-bench') },
      cli: { type: 'string', default: DEFAULT_CLI },
    },
  });
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const plan = opts.quick ? QUICK : FULL;
  const cli = requireCli(path.resolve(opts.cli));
  const installed = ensurePackages();
  if (installed.length) console.log(`installed: ${installed.join(' ')}`);
  fs.mkdirSync(opts.work, { recursive: true });
  const corpusDir = path.join(opts.work, 'corpus');
  const corpus = coreCorpus(corpusDir);
  console.log(
    `trufflepig bench${opts.quick ? ' (--quick)' : ''}: ${os.cpus().length} cores, node ${process.version}, corpus ${corpusDir}`,
  );

  const indexing = measureIndexing(cli, corpusDir, opts.work, plan.reindexRuns);
  const csearch = buildCsearchIndex(corpusDir, opts.work);
  const partial = report.summarize(corpus, indexing, csearch, []);
  report.printIndexing(partial, indexing, csearch);

  const context = { cli, corpus: corpusDir, cache: indexing.cache, csearchEnv: csearch.env };
  measureQueries(QUERIES.slice(0, 1), 1, context); // warm the page cache for every tool, untimed
  report.printQueryHeader();
  const queries = measureQueries(QUERIES, plan.reps, context, report.printQueryRow);
  const summary = report.summarize(corpus, indexing, csearch, queries);
  report.printSearchSummary(summary, plan.reps);
  const targets = report.printTargets(summary);

  if (opts.json) {
    const figures = {
      quick: opts.quick,
      reps: plan.reps,
      summary,
      targets: targets.map(({ label, value, op, limit, unit, pass }) => ({ label, value, op, limit, unit, pass })),
      index: { cold: indexing.cold, reindex: indexing.reindex },
      queries: queries.map(({ query, kind, pattern, fixed, medians, samples, last }) => ({
        query,
        kind,
        pattern,
        fixed,
        medians,
        samples,
        last,
      })),
    };
    fs.writeFileSync(opts.json, JSON.stringify(figures, null, 2) + '\n');
    console.log(`\nfigures written to ${opts.json}`);
  }
}

try {
  main();
} catch (err) {
  console.error(`bench: ${err.message}`);
  process.exit(1);
}
