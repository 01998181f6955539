#!/usr/bin/env node
'use strict';
// Runtime benchmark (issue 5): the root daemon and the library on the core benchmark corpus.
// edit-to-visible, daemon-served search against `node -e 0`, warm in-process search against
// rg, concurrent clients during reconciles, idle daemon memory. Prints PASS/FAIL per target
// and exits 1 when one fails. Everything runs in sequence (2-core machines) except the
// concurrent clients; the daemon is stopped at the end and on any error or signal.
// Usage: node tools/bench/runtime/run.js [--quick] [--json FILE] [--work DIR] [--cli PATH] [--lib DIR]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI, REPO_ROOT } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { ensurePackages } = require('../index/setup');
const { QUERIES } = require('../index/queries');
const { prepareCorpus, resetEdits } = require('./corpus');
const { cliSync, startDaemon, stopDaemon, processMemory } = require('./cli');
const { measureInProcess, measureRg } = require('./inprocess');
const { measureDaemonSearch } = require('./daemon-search');
const { measureEditToVisible } = require('./edit-visible');
const { measureConcurrent } = require('./concurrent');
const { waitIdle } = require('./daemon-status');
const report = require('./report');

const USAGE = 'usage: node tools/bench/runtime/run.js [--quick] [--json FILE] [--work DIR] [--cli PATH] [--lib DIR]';
// The full plan uses the counts the targets name (20 edits, 8 clients x 50 queries).
const FULL = { edits: 20, searchReps: 5, inProcessReps: 20, rgReps: 5, clients: 8, requests: 50, idleMs: 5000 };
const QUICK = { edits: 6, searchReps: 2, inProcessReps: 5, rgReps: 2, clients: 8, requests: 15, idleMs: 2000 };

function parseArgs(argv) {
  return parseOptions(argv, {
    name: 'bench-runtime',
    usage: USAGE,
    options: {
      quick: { type: 'boolean' },
      json: { type: 'string', default: null },
      work: { type: 'path', default: path.join(os.tmpdir(), 'trufflepig-bench-runtime') },
      cli: { type: 'string', default: DEFAULT_CLI },
      lib: { type: 'path', default: path.join(REPO_ROOT, 'packages', 'workspace', 'dist') },
    },
  });
}

/** Stops the daemon and undoes the edits however the run ends (once). */
function makeCleanup(ctx, prepared) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    stopDaemon(ctx);
    if (prepared) resetEdits(prepared);
  };
}

async function main(opts) {
  const plan = opts.quick ? QUICK : FULL;
  const cli = requireCli(path.resolve(opts.cli));
  if (!fs.existsSync(path.join(opts.lib, 'index.js')))
    throw new Error(`library not built at ${opts.lib}: run \`npm run build\` in ${REPO_ROOT} first`);
  const installed = ensurePackages();
  if (installed.length) console.log(`installed: ${installed.join(' ')}`);
  fs.mkdirSync(opts.work, { recursive: true });
  const cache = path.join(opts.work, 'cache');
  const ctx = { cli, lib: opts.lib, corpus: path.join(opts.work, 'corpus'), cache };

  // A daemon left by an interrupted run may be another build, and it would see the reset.
  stopDaemon(ctx);
  const prepared = prepareCorpus(opts.work);
  const cleanup = makeCleanup(ctx, prepared);
  const onSignal = (signal) => {
    console.error(`\nbench-runtime: ${signal}: stopping the daemon`);
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const figures = { quick: opts.quick, plan };
  try {
    console.log(
      `trufflepig runtime bench${opts.quick ? ' (--quick)' : ''}: ${os.cpus().length} cores, node ${process.version}, work ${opts.work}`,
    );
    const indexRun = cliSync(ctx, ['index'], ['--no-daemon']);
    if (!indexRun.ok) throw new Error(`index --no-daemon failed: ${indexRun.error}`);
    report.printSetup(prepared, indexRun);
    figures.index = { seconds: indexRun.seconds, report: indexRun.json };

    // [3] before the daemon exists, so nothing else is running on the 2 cores.
    figures.inProcess = measureInProcess(ctx, QUERIES, plan.inProcessReps);
    figures.rg = measureRg(ctx, QUERIES, plan.rgReps);
    report.printInProcess(figures.inProcess, figures.rg);

    const start = await startDaemon(ctx);
    figures.daemon = { pid: start.pid, startSeconds: start.startSeconds, generation: start.generation };
    report.printDaemonStart(start);
    // The daemon's memory after each stage, to show where the idle figure comes from.
    figures.memoryStages = [];
    const checkpoint = (stage) => figures.memoryStages.push({ stage, ...processMemory(start.pid) });
    checkpoint('serving');

    report.printDaemonSearchHeader();
    figures.daemonSearch = measureDaemonSearch(ctx, QUERIES, plan.searchReps, report.printDaemonSearchRow);
    report.printDaemonSearchSummary(figures.daemonSearch, plan.searchReps);
    checkpoint('after [2]');

    report.printEditHeader();
    figures.edit = await measureEditToVisible(ctx, plan.edits, prepared.editable, report.printEdit);
    report.printEditSummary(figures.edit);
    checkpoint('after [1]');

    await waitIdle(ctx, 500);
    figures.concurrent = await measureConcurrent(ctx, {
      clients: plan.clients,
      requests: plan.requests,
      queries: QUERIES,
      editable: prepared.editable,
    });
    report.printConcurrent(figures.concurrent);
    checkpoint('after [4]');

    const idleStarted = Date.now();
    const idle = await waitIdle(ctx, plan.idleMs);
    const pid = idle ? idle.pid : start.pid;
    if (pid !== start.pid) console.log(`NOTE: the daemon pid changed during the run (${start.pid} -> ${pid})`);
    figures.memory = {
      pid,
      idleSeconds: (Date.now() - idleStarted) / 1000,
      ...processMemory(pid),
      reportedRssBytes: idle ? idle.memory.rssBytes : null,
      heapUsedBytes: idle ? idle.memory.heapUsedBytes : null,
    };
    checkpoint('idle');
    report.printMemory(figures.memory, figures.memoryStages);
  } finally {
    cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }

  const targets = report.targetList(figures);
  report.printTargets(targets, opts.quick);
  if (opts.json) {
    fs.writeFileSync(opts.json, JSON.stringify({ ...figures, targets }, null, 2) + '\n');
    console.log(`\nfigures written to ${opts.json}`);
  }
  return targets.every((t) => t.pass) ? 0 : 1;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (err) {
  console.error(`bench-runtime: ${err.message}`);
  process.exit(1);
}
main(opts).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`bench-runtime: ${err.message}`);
    process.exitCode = 1;
  },
);
