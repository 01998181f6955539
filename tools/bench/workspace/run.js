#!/usr/bin/env node
'use strict';
// Workspace benchmark (issue 3): a three-member workspace (Rust, PHP, TypeScript registry
// corpora); one-shot workspace search against each member's single-root search, and every
// response's o200k_base size against its budget.
// Usage: node tools/bench/workspace/run.js [--rounds N] [--quick] [--reuse-index] [--json FILE] [--work DIR] [--cli PATH]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI, supportsWorkspace, buildStamp } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { writeWorkspaceFile } = require('../../lib/corpus');
const { prepareCorpora } = require('./corpora');
const { indexAll, measureSearches } = require('./measure');
const { QUERIES } = require('./queries');
const report = require('./report');

const USAGE =
  'usage: node tools/bench/workspace/run.js [--rounds N] [--quick] [--reuse-index] [--json FILE] [--work DIR] [--cli PATH]';
const FULL_ROUNDS = 15;
const QUICK_ROUNDS = 3;
const WORKSPACE_NAME = 'bench';

function parseArgs(argv) {
  const o = parseOptions(argv, {
    name: 'bench-workspace',
    usage: USAGE,
    options: {
      rounds: { type: 'number' },
      quick: { type: 'boolean' },
      'reuse-index': { type: 'boolean' },
      json: { type: 'string', default: null },
      work: { type: 'path', default: path.join(os.tmpdir(), 'trufflepig-bench-ws') },
      cli: { type: 'string', default: DEFAULT_CLI },
    },
  });
  // --quick is 3 rounds instead of 15; an explicit --rounds N wins.
  const opts = {
    rounds: o.rounds ?? (o.quick ? QUICK_ROUNDS : FULL_ROUNDS),
    quick: o.quick,
    fresh: !o.reuseIndex,
    json: o.json,
    work: o.work,
    cli: o.cli,
  };
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new Error('--rounds needs a positive integer');
  return opts;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cli = requireCli(path.resolve(opts.cli));
  fs.mkdirSync(opts.work, { recursive: true });
  const members = prepareCorpora(opts.work);
  const stampBefore = buildStamp(cli);
  const workspace = supportsWorkspace(cli);
  const plan = {
    work: opts.work,
    members,
    cacheDir: path.join(opts.work, 'cache'),
    workspaceFile: writeWorkspaceFile(opts.work, WORKSPACE_NAME, members), // next to, not inside, the member roots
    workspace,
    fresh: opts.fresh,
    queries: QUERIES,
    rounds: opts.rounds,
  };
  console.log(
    `trufflepig workspace bench: ${os.cpus().length} cores, node ${process.version}, ${plan.rounds} rounds x ${QUERIES.length} queries, workspace ${plan.workspaceFile}`,
  );
  if (!workspace) console.log(`NOTE: ${cli} --help lists no --workspace: measuring the single-root half only`);
  report.printCorpora(members);

  const indexing = indexAll(cli, plan);
  report.printIndexing(indexing, plan.fresh);

  const memberNames = members.map((m) => m.name);
  const modes = [...(workspace ? ['workspace'] : []), ...memberNames];
  report.printQueryHeader(modes);
  const results = measureSearches(cli, plan, (round) =>
    process.stderr.write(`\rround ${round}/${plan.rounds}${round === plan.rounds ? '\n' : ''}`),
  );
  for (const q of results) report.printQueryRow(q, memberNames);
  const summary = report.summarize(results, memberNames);
  report.printSummary(summary, plan.rounds, QUERIES.length);
  const targets = report.printTargets(summary, !workspace);
  targets.push(report.printBuildCheck(stampBefore, buildStamp(cli)));

  if (opts.json) {
    const figures = {
      rounds: plan.rounds,
      workspaceSupported: workspace,
      corpora: members,
      index: indexing,
      summary,
      targets,
      queries: results.map(({ query, kind, budget, medians, samples }) => ({ query, kind, budget, medians, samples })),
    };
    fs.writeFileSync(opts.json, JSON.stringify(figures, null, 2) + '\n');
    console.log(`\nfigures written to ${opts.json}`);
  }
  return targets.every((t) => t.pass) ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (err) {
  console.error(`bench-workspace: ${err.message}`);
  process.exitCode = 1;
}
