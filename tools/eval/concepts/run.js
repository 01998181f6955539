#!/usr/bin/env node
'use strict';
// Concept replay (issue 13): labelled tasks over four real corpora (Rust, Python, JavaScript,
// TypeScript) and cross-member tasks over a workspace of three of them; Trufflepig against
// an rg baseline on the same bytes, per query class.
// Usage: node tools/eval/concepts/run.js [--json FILE] [--cli PATH] [--only ID,...] [--work DIR]
//        node tools/eval/concepts/run.js --pin   (rewrites manifest.json from the files on disk)
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI, buildStamp } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { writeWorkspaceFile } = require('../../lib/corpus');
const { CORPORA, WORKSPACE_MEMBERS, prepareCorpora } = require('./corpora');
const { TASKS, WORKSPACE_TASKS } = require('./tasks');
const { labelledFiles, pin, verify } = require('./pins');
const { scoreTask, scoreWorkspace, aggregateWorkspace, interleave } = require('./metrics');
const runners = require('./runners');
const report = require('./report');

const MANIFEST = path.join(__dirname, 'manifest.json');
const WORKSPACE_NAME = 'concepts';
const USAGE = 'usage: node tools/eval/concepts/run.js [--json FILE] [--cli PATH] [--only ID,...] [--work DIR] | --pin';

function options() {
  return parseOptions(process.argv.slice(2), {
    name: 'concepts',
    usage: USAGE,
    options: {
      json: { type: 'string' },
      cli: { type: 'string', default: DEFAULT_CLI },
      only: { type: 'string' },
      pin: { type: 'boolean' },
      work: { type: 'string' },
    },
  });
}

/** The tasks --only selects (all without it); unknown ids are an error naming them. */
function selectTasks(only) {
  if (!only) return { tasks: TASKS, workspaceTasks: WORKSPACE_TASKS, partial: false };
  const ids = new Set(
    only
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const known = new Set([...TASKS, ...WORKSPACE_TASKS].map((t) => t.id));
  const unknown = [...ids].filter((id) => !known.has(id));
  if (unknown.length)
    throw new Error(`--only names unknown task ids ${unknown.join(', ')}: see tools/eval/concepts/tasks.js`);
  return {
    tasks: TASKS.filter((t) => ids.has(t.id)),
    workspaceTasks: WORKSPACE_TASKS.filter((t) => ids.has(t.id)),
    partial: true,
  };
}

function verifyPins(roots) {
  const keys = labelledFiles(TASKS, WORKSPACE_TASKS);
  const pinned = fs.existsSync(MANIFEST) ? JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) : {};
  const problems = verify(keys, pinned, roots, TASKS, WORKSPACE_TASKS);
  if (problems.length) {
    for (const p of problems) console.error(`concepts: labelled file ${p}`);
    console.error(
      'concepts: labels are line spans of the pinned files: restore the corpus, or reread and relabel the affected tasks and run --pin',
    );
    process.exit(1);
  }
}

function runSingleRoot(cli, roots, tasks, work, workspaceAware) {
  const rows = [];
  const indexing = {};
  for (const corpus of Object.keys(CORPORA)) {
    const mine = tasks.filter((t) => t.corpus === corpus);
    if (mine.length === 0) continue;
    const selector = runners.rootSelector(roots[corpus], path.join(work, 'cache', corpus), workspaceAware);
    const indexed = runners.index(cli, selector, work);
    const report0 = indexed.reports[0] || {};
    indexing[corpus] = { seconds: indexed.seconds, files: report0.files, bytes: report0.source_bytes };
    console.log(
      `indexed ${corpus} (${CORPORA[corpus].language}, ${report0.files} files) in ${indexed.seconds.toFixed(1)} s`,
    );
    for (const task of mine) {
      const tpAnswer = runners.search(cli, selector, task.query, work);
      const rgAnswer = runners.rgSearch(roots[corpus], task.rg);
      const tp = {
        ...scoreTask(tpAnswer.hits, task.labels),
        error: tpAnswer.error,
        budgetCut: tpAnswer.budgetCut,
        seconds: tpAnswer.seconds,
      };
      const rg = { ...scoreTask(rgAnswer.hits, task.labels), error: rgAnswer.error };
      report.printTaskRow(task, tp, rg);
      rows.push({
        id: task.id,
        corpus,
        class: task.class,
        query: task.query,
        trufflepig: tp,
        rg,
        trufflepigFiles: [...new Set(tpAnswer.hits.map((h) => h.path))].slice(0, 10),
      });
    }
  }
  return { rows, indexing };
}

function runWorkspace(cli, roots, tasks, work) {
  const members = WORKSPACE_MEMBERS.map((name) => ({ name, dir: roots[name] }));
  const file = writeWorkspaceFile(work, WORKSPACE_NAME, members);
  const selector = runners.workspaceSelector(file, path.join(work, 'cache', 'workspace'));
  const indexed = runners.index(cli, selector, work);
  console.log(`\nindexed workspace ${file} (${WORKSPACE_MEMBERS.join(', ')}) in ${indexed.seconds.toFixed(1)} s`);
  console.log(`${'workspace task'.padEnd(44)}tp page  rg page`);
  const rows = [];
  for (const task of tasks) {
    const tpAnswer = runners.search(cli, selector, task.query, work);
    // rg: one search per member, path order within each, interleaved one file per member.
    const perMember = members.map((m) => runners.rgSearch(m.dir, task.rg).hits.map((h) => ({ ...h, member: m.name })));
    const rgHits = interleave(perMember);
    const tp = { ...scoreWorkspace(tpAnswer.hits, task.labels), error: tpAnswer.error };
    const rg = scoreWorkspace(rgHits, task.labels);
    report.printWorkspaceRow(task, tp, rg);
    rows.push({
      id: task.id,
      query: task.query,
      trufflepig: tp,
      rg,
      trufflepigPage: tpAnswer.hits.slice(0, 10).map((h) => `${h.member}/${h.path}`),
    });
  }
  return {
    rows,
    indexSeconds: indexed.seconds,
    summary: {
      trufflepig: aggregateWorkspace(rows.map((r) => r.trufflepig)),
      rg: aggregateWorkspace(rows.map((r) => r.rg)),
    },
  };
}

function main() {
  const opts = options();
  const started = process.hrtime.bigint();
  const roots = prepareCorpora();
  if (opts.pin) {
    const pins = pin(labelledFiles(TASKS, WORKSPACE_TASKS), roots);
    fs.writeFileSync(MANIFEST, JSON.stringify(pins, null, 2) + '\n');
    console.log(`pinned ${Object.keys(pins).length} labelled files in ${MANIFEST}`);
    return;
  }
  verifyPins(roots);
  const { tasks, workspaceTasks, partial } = selectTasks(opts.only);
  const cli = requireCli(path.resolve(opts.cli));
  const stampBefore = buildStamp(cli);
  const workspaceAware = runners.supportsWorkspace(cli);
  const work = opts.work ? path.resolve(opts.work) : fs.mkdtempSync(path.join(os.tmpdir(), 'trufflepig-concepts-'));
  fs.mkdirSync(work, { recursive: true });
  // Fresh indexes every run: a cache left by an earlier build would measure that build.
  fs.rmSync(path.join(work, 'cache'), { recursive: true, force: true });
  console.log(
    `concept replay: ${tasks.length} tasks over ${Object.keys(CORPORA).join(', ')}, ${workspaceTasks.length} workspace tasks; ${os.cpus().length} cores, node ${process.version}`,
  );
  for (const [name, c] of Object.entries(CORPORA))
    console.log(`  ${name.padEnd(6)} ${c.language.padEnd(11)} ${roots[name]}  (${c.source})`);
  console.log('');
  try {
    report.printTaskHeader();
    const single = runSingleRoot(cli, roots, tasks, work, workspaceAware);
    const summary = report.summarize(single.rows);
    let workspace = null;
    if (workspaceTasks.length && !workspaceAware)
      console.log('\nNOTE: this CLI has no --workspace: the workspace tasks are not run');
    else if (workspaceTasks.length) workspace = runWorkspace(cli, roots, workspaceTasks, work);
    if (summary.overall) {
      report.printTable(
        'per class (R@k: a labelled file among the first k files; S@10: a hit overlapping a labelled span; MRR over 10)',
        summary.classes,
      );
      report.printTable('per corpus', summary.corpora);
      report.printTable('all tasks', { all: summary.overall });
    }
    if (workspace) report.printWorkspaceSummary(workspace.summary);
    const full = { ...summary, workspace: workspace && workspace.summary };
    report.printTargets(full, partial);
    const stampAfter = buildStamp(cli);
    const rebuilt = stampAfter !== stampBefore;
    if (rebuilt)
      console.log(
        `\nWARNING: the CLI was rebuilt during the run (${stampBefore} -> ${stampAfter}): figures may mix two builds`,
      );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`\nreplay took ${seconds.toFixed(1)} s`);
    if (opts.json) {
      const out = {
        seconds,
        partial,
        rebuilt,
        build: stampAfter,
        indexing: single.indexing,
        summary: full,
        tasks: single.rows,
        workspaceTasks: workspace ? workspace.rows : [],
      };
      fs.writeFileSync(opts.json, JSON.stringify(out, null, 2) + '\n');
    }
  } finally {
    if (!opts.work) fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`concepts: ${err.message}`);
  process.exit(1);
}
