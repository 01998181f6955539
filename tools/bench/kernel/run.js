#!/usr/bin/env node
'use strict';
// Kernel benchmark (issue 15, deliverable 4): the Linux kernel from Debian's
// linux-source-6.1, indexed cold and reindexed, then searched through the daemon side by
// side with rg and csearch on the same tree, one-shot, edited, and asked where three
// definitions are. Prints the figures and the issue's targets as PASS/MISS; exits 1 when
// a target is missed. The daemon is stopped and the edits undone however the run ends.
// Usage: node tools/bench/kernel/run.js [--quick] [--reuse-index] [--subset DIR,DIR] [--tree DIR] [--work DIR] [--cli PATH] [--json FILE]
// --reuse-index keeps the index in the work directory's cache (no cold index: its targets
// print as not measured), for re-measuring searches and edits in minutes rather than 15.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI, median } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { kernelCorpus } = require('../../lib/corpus');
const { measureIndexing } = require('../index/measure');
const { startDaemon, stopDaemon, processMemory } = require('../runtime/cli');
const { waitIdle } = require('../runtime/daemon-status');
const { measureEditToVisible } = require('../runtime/edit-visible');
const { measureDaemonSearch } = require('../runtime/daemon-search');
const { IDENTIFIERS, FREE_TEXT, PATTERNS, LANDINGS, REFS } = require('./queries');
const m = require('./measure');
const { printReport } = require('./report');

const USAGE =
  'usage: node tools/bench/kernel/run.js [--quick] [--reuse-index] [--subset DIR,DIR] [--tree DIR] [--work DIR] [--cli PATH] [--json FILE]';
const FULL = { reindexRuns: 3, reps: 3, edits: 20, idleMs: 5000 };
const QUICK = { reindexRuns: 1, reps: 1, edits: 6, idleMs: 2000 };

function parseArgs(argv) {
  return parseOptions(argv, {
    name: 'bench-kernel',
    usage: USAGE,
    options: {
      quick: { type: 'boolean' },
      'reuse-index': { type: 'boolean' },
      subset: { type: 'list', default: [] },
      tree: { type: 'path' },
      work: { type: 'path', default: path.join(os.tmpdir(), 'trufflepig-bench-kernel') },
      cli: { type: 'string', default: DEFAULT_CLI },
      json: { type: 'string', default: null },
    },
  });
}

const step = (text) => console.error(`bench-kernel: ${text}`);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const plan = opts.quick ? QUICK : FULL;
  const cli = requireCli(opts.cli);
  fs.mkdirSync(opts.work, { recursive: true });
  step('preparing the kernel tree (apt-get install and unpack on the first run)');
  const corpus = kernelCorpus(opts.work, opts.subset, opts.tree);
  const ctx = { cli, corpus: corpus.root, cache: path.join(opts.work, 'cache') };
  const edits = { editable: [], created: [] };
  const cleanup = () => {
    stopDaemon(ctx);
    m.restoreEdits(corpus.root, edits.editable, edits.created);
  };
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.on(sig, () => {
      cleanup();
      process.exit(130);
    });
  try {
    stopDaemon(ctx);
    step(opts.reuseIndex ? `reusing the index of ${corpus.note}` : `cold index of ${corpus.note}`);
    const indexing = measureIndexing(cli, corpus.root, opts.work, plan.reindexRuns, opts.reuseIndex);
    step(`${indexing.cold ? `cold ${indexing.cold.seconds.toFixed(1)} s` : 'index reused'}; cindex for csearch`);
    const csearch = m.buildCsearchIndex(corpus.root, opts.work);
    step('starting the daemon');
    const daemon = await startDaemon(ctx, 300000);
    await waitIdle(ctx, plan.idleMs, 300000);
    const idle = processMemory(daemon.pid);
    step(`daemon ${daemon.pid} idle at ${((idle.rssBytes || 0) / 1e6).toFixed(0)} MB; identifier searches`);
    const identifiers = measureDaemonSearch(
      ctx,
      IDENTIFIERS.map((query) => ({ query })),
      plan.reps,
    ).rows;
    step('free-text searches');
    const freeText = measureDaemonSearch(
      ctx,
      FREE_TEXT.map((query) => ({ query })),
      plan.reps,
    ).rows;
    step('patterns against rg and csearch');
    const patterns = m.measurePatterns(ctx, PATTERNS, plan.reps, csearch.file);
    step('show sym: landings');
    const landings = m.measureLandings(ctx, LANDINGS);
    step('refs');
    const refs = m.measureRefs(ctx, REFS, plan.reps);
    step(`${plan.edits} edits to visible`);
    edits.editable = m.editableFiles(corpus.root, Math.max(4, plan.edits));
    const edit = await measureEditToVisible(ctx, plan.edits, edits.editable, (s) => {
      if (s.editKind === 'new file') edits.created.push(s.path);
    });
    stopDaemon(ctx);
    step('one-shot searches');
    const oneShot = m.measureOneShot(ctx, IDENTIFIERS);
    const result = {
      corpus: corpus.note,
      quick: opts.quick,
      reuseIndex: opts.reuseIndex,
      indexing,
      csearch,
      idle,
      identifiers,
      freeText,
      patterns,
      landings,
      refs,
      edit,
      oneShot,
      medians: {
        identifier: median(identifiers.map((r) => r.medians.search)),
        freeText: median(freeText.map((r) => r.medians.search)),
        node: median([...identifiers, ...freeText].map((r) => r.medians.node)),
        pattern: median(patterns.map((r) => r.medians.trufflepig)),
        patternRg: median(patterns.map((r) => r.medians.rg)),
        patternCsearch: csearch.file ? median(patterns.map((r) => r.medians.csearch)) : null,
        oneShot: median(oneShot.map((r) => r.seconds)),
      },
    };
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(result, null, 2));
    process.exitCode = printReport(result) ? 0 : 1;
  } finally {
    cleanup();
  }
}

main().catch((err) => {
  console.error(`bench-kernel: ${err.stack || err.message}`);
  process.exit(2);
});
