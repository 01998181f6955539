#!/usr/bin/env node
'use strict';
// Retrieval replay: frozen cases over pinned fixtures, Trufflepig against an rg baseline.
// Usage: node tools/eval/retrieval/run.js [--cli PATH] [--keep] [--json FILE]
//        node tools/eval/retrieval/run.js --pin   (prints a new manifest.json for a human to review and paste)
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { hashTree, compareManifest, checkLabels } = require('./manifest');
const { scoreCase, totals } = require('./metrics');
const { trufflepigIndex, trufflepigSearch, rgSearch } = require('./runners');

const FIXTURES = path.join(__dirname, 'fixtures');
const MANIFEST = path.join(__dirname, 'manifest.json');
const CASES = path.join(__dirname, 'cases.json');

function parseArgs(argv) {
  return parseOptions(argv, {
    name: 'eval',
    usage: 'usage: node tools/eval/retrieval/run.js [--cli PATH] [--keep] [--json FILE] | --pin',
    options: {
      cli: { type: 'string', default: DEFAULT_CLI },
      keep: { type: 'boolean' },
      pin: { type: 'boolean' },
      json: { type: 'string', default: null },
    },
  });
}

/** Refuses to score against fixtures whose bytes differ from the pinned ones. */
function verifyFixtures(cases) {
  const pinned = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  const problems = [...compareManifest(pinned, hashTree(FIXTURES)), ...checkLabels(cases, FIXTURES, pinned)];
  if (problems.length) {
    for (const p of problems) console.error(`eval: fixture ${p}`);
    console.error(
      'eval: labels are byte spans of the pinned files: restore the fixtures, or relabel the affected cases and run --pin',
    );
    process.exit(1);
  }
}

const mark = (b) => (b ? 'y' : '.');
const rankText = (r) => (r === null ? '-' : String(r));
const pct = (n, d) => `${n}/${d} (${d ? Math.round((100 * n) / d) : 0}%)`;

function printRow(i, c, tp, rg) {
  const tpNote = tp.error ? ` ERROR ${tp.error}` : tp.truncated ? ' truncated' : '';
  console.log(
    `${String(i + 1).padStart(2)} ${c.query.slice(0, 40).padEnd(41)}` +
      `${mark(tp.file5)} ${mark(tp.file10)} ${mark(tp.span10)} ${rankText(tp.fileRank).padStart(3)}   ` +
      `${mark(rg.file5)} ${mark(rg.file10)} ${mark(rg.span10)} ${rankText(rg.fileRank).padStart(3)}${tpNote}`,
  );
}

function printTotals(tp, rg) {
  const line = (label, a, b) => console.log(`${label.padEnd(22)}${String(a).padEnd(22)}${b}`);
  console.log('');
  line('', 'trufflepig', 'rg baseline');
  line('file recall@5', pct(tp.file5, tp.cases), pct(rg.file5, rg.cases));
  line('file recall@10', pct(tp.file10, tp.cases), pct(rg.file10, rg.cases));
  line('span recall@10', pct(tp.span10, tp.cases), pct(rg.span10, rg.cases));
  line('misses (none in 10)', tp.misses, rg.misses);
  line('truncated searches', tp.truncated, 'n/a');
  line('errors', tp.errors, rg.errors);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.pin) {
    process.stdout.write(JSON.stringify(hashTree(FIXTURES), null, 2) + '\n');
    return;
  }
  const cases = JSON.parse(fs.readFileSync(CASES, 'utf8'));
  verifyFixtures(cases);
  const cli = requireCli(path.resolve(opts.cli));

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trufflepig-eval-'));
  const root = path.join(work, 'repo');
  const cache = path.join(work, 'cache');
  fs.cpSync(FIXTURES, root, { recursive: true });
  try {
    const indexed = trufflepigIndex(cli, root, cache);
    console.log(`indexed ${root} in ${indexed.seconds.toFixed(2)} s: ${JSON.stringify(indexed.report)}\n`);
    console.log(`${'#'.padStart(2)} ${'query'.padEnd(41)}trufflepig         rg baseline`);
    console.log(`${''.padStart(2)} ${''.padEnd(41)}@5 @10 span rank   @5 @10 span rank`);
    const rows = cases.map((c, i) => {
      const tpAnswer = trufflepigSearch(cli, root, cache, c.query);
      const rgAnswer = rgSearch(root, c.rg);
      const tp = { ...scoreCase(tpAnswer.hits, c.expected), truncated: tpAnswer.truncated, error: tpAnswer.error };
      const rg = { ...scoreCase(rgAnswer.hits, c.expected), error: rgAnswer.error };
      printRow(i, c, tp, rg);
      return {
        query: c.query,
        trufflepig: tp,
        rg,
        trufflepigFiles: [...new Set(tpAnswer.hits.map((h) => h.path))].slice(0, 10),
      };
    });
    const summary = { trufflepig: totals(rows.map((r) => r.trufflepig)), rg: totals(rows.map((r) => r.rg)) };
    printTotals(summary.trufflepig, summary.rg);
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ summary, cases: rows }, null, 2) + '\n');
  } finally {
    if (opts.keep) console.log(`\nkept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`eval: ${err.message}`);
  process.exit(1);
}
