#!/usr/bin/env node
'use strict';
// Cost of per_source scopes (docs/spec/per-source.md, "Cost"): the 20 core benchmark queries under
// `shared` and `per_source`, side by side. Two figures per mode: the ranking alone
// (searchIndex in this process, reader opened once) and a one-shot CLI search.
// Usage: node tools/bench/index/scopes.js [--work DIR] [--cli PATH] [--reps N]
// The corpus is the core benchmark's (<work>/corpus, made by tools/bench/index/run.js); the index
// lives in <work>/scopes-cache so the core benchmark's cache is left alone.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { REPO_ROOT, DEFAULT_CLI, timedRun, requireCli, median } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { QUERIES } = require('./queries');

function parseArgs(argv) {
  const opts = parseOptions(argv, {
    name: 'bench',
    usage: 'usage: node tools/bench/index/scopes.js [--work DIR] [--cli PATH] [--reps N]',
    options: {
      work: { type: 'string', default: path.join(os.tmpdir(), 'trufflepig-bench') },
      cli: { type: 'string', default: DEFAULT_CLI },
      reps: { type: 'number', default: 3 },
    },
  });
  if (!Number.isInteger(opts.reps) || opts.reps < 1) throw new Error('--reps takes a whole number >= 1');
  return opts;
}

function cliSearch(cli, corpus, cache, query, scopes) {
  const words = query.split(' ');
  const run = timedRun(process.execPath, [
    cli,
    '--no-daemon',
    '--json',
    '--root',
    corpus,
    '--cache',
    cache,
    '--scopes',
    scopes,
    'search',
    ...words,
  ]);
  if (run.status !== 0)
    throw new Error(`search ${query} (${scopes}) exited ${run.status}: ${run.stderr.slice(0, 300)}`);
  return run.seconds * 1000;
}

function timeMs(fn) {
  const t = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

const fmt = (ms) => `${ms.toFixed(1)}`.padStart(8);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cli = requireCli(path.resolve(opts.cli));
  const corpus = path.join(opts.work, 'corpus');
  if (!fs.existsSync(corpus))
    throw new Error(`no corpus at ${corpus}: run node tools/bench/index/run.js --quick first`);
  const cache = path.join(opts.work, 'scopes-cache');
  const index = timedRun(process.execPath, [cli, '--no-daemon', '--json', '--root', corpus, '--cache', cache, 'index']);
  if (index.status !== 0) throw new Error(`index exited ${index.status}: ${index.stderr.slice(0, 300)}`);
  console.log(
    `scopes bench: ${os.cpus().length} cores, node ${process.version}, corpus ${corpus}, index ${index.seconds.toFixed(1)} s, ${opts.reps} reps (medians, ms)`,
  );

  const idx = require(path.join(REPO_ROOT, 'packages/index/dist'));
  const opened = await idx.IndexReader.open(cache, fs.realpathSync(corpus));
  if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  const reader = opened.value;
  const header = `${'query'.padEnd(28)} ${'sources'.padStart(7)} ${'rank sh'.padStart(8)} ${'rank ps'.padStart(8)} ${'ratio'.padStart(6)} ${'cli sh'.padStart(8)} ${'cli ps'.padStart(8)}`;
  console.log(header);
  const totals = { shared: 0, per: 0, cliShared: 0, cliPer: 0, extraPasses: 0 };
  for (const q of QUERIES) {
    const parsed = idx.parseQuery(q.query.split(' '));
    if (!parsed.ok) throw new Error(parsed.error.message);
    idx.searchIndex(reader, parsed.value); // warm this query's pages and JIT, untimed
    const shared = [];
    const per = [];
    let groups = 0;
    for (let r = 0; r < opts.reps; r++) {
      shared.push(timeMs(() => idx.searchIndex(reader, parsed.value)).ms);
      const p = timeMs(() => idx.searchIndex(reader, parsed.value, { scopes: 'per_source' }));
      per.push(p.ms);
      groups = p.value.groups.length;
    }
    const cliShared = [];
    const cliPer = [];
    for (let r = 0; r < opts.reps; r++) {
      cliShared.push(cliSearch(cli, corpus, cache, q.query, 'shared'));
      cliPer.push(cliSearch(cli, corpus, cache, q.query, 'per_source'));
    }
    const row = { shared: median(shared), per: median(per), cliShared: median(cliShared), cliPer: median(cliPer) };
    totals.shared += row.shared;
    totals.per += row.per;
    totals.cliShared += row.cliShared;
    totals.cliPer += row.cliPer;
    totals.extraPasses += groups;
    const ratio = row.shared > 0 ? (row.per / row.shared).toFixed(2) : '-';
    console.log(
      `${q.query.slice(0, 28).padEnd(28)} ${String(groups).padStart(7)} ${fmt(row.shared)} ${fmt(row.per)} ${ratio.padStart(6)} ${fmt(row.cliShared)} ${fmt(row.cliPer)}`,
    );
  }
  reader.close();
  const n = QUERIES.length;
  console.log(
    `${'mean'.padEnd(28)} ${(totals.extraPasses / n).toFixed(1).padStart(7)} ${fmt(totals.shared / n)} ${fmt(totals.per / n)} ${(totals.per / totals.shared).toFixed(2).padStart(6)} ${fmt(totals.cliShared / n)} ${fmt(totals.cliPer / n)}`,
  );
  console.log(
    'sources = groups under per_source (one extra ranking pass each); rank = searchIndex in-process; cli = one-shot `trufflepig search` wall time',
  );
}

main().catch((err) => {
  console.error(`bench: ${err.message}`);
  process.exit(1);
});
