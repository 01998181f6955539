'use strict';
// Printing for the concept replay: per-task rows, per-class tables, the workspace page and
// the issue's targets.
const { aggregate } = require('./metrics');

const CLASSES = ['concept', 'identifier', 'sym', 'regex', 'filter'];
// Issue 13's targets, as the replay checks them.
const TARGETS = [
  { label: 'concept recall@5', at: 0.9, pick: (s) => s.classes.concept && s.classes.concept.trufflepig.r5 },
  { label: 'concept MRR', at: 0.75, pick: (s) => s.classes.concept && s.classes.concept.trufflepig.mrr },
  { label: 'all tasks recall@5', at: 0.95, pick: (s) => s.overall && s.overall.trufflepig.r5 },
  { label: 'workspace first-page recall', at: 0.85, pick: (s) => s.workspace && s.workspace.trufflepig.recall },
];

const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '  - ');
const rankText = (r) => (r === null || r === undefined ? '-' : String(r));

function printTaskHeader() {
  console.log(`${'task'.padEnd(44)}${'class'.padEnd(11)}tp rank  rg rank`);
}

function printTaskRow(task, tp, rg) {
  const note = tp.error ? `  ERROR ${tp.error}` : tp.budgetCut ? '  cut by budget' : '';
  console.log(
    `${task.id.slice(0, 43).padEnd(44)}${task.class.padEnd(11)}${rankText(tp.rank).padStart(7)}  ${rankText(rg.rank).padStart(7)}${note}`,
  );
}

/** { classes: {name: {trufflepig, rg}}, overall, corpora } from scored rows. */
function summarize(rows) {
  const group = (pred) => ({
    trufflepig: aggregate(rows.filter(pred).map((r) => r.trufflepig)),
    rg: aggregate(rows.filter(pred).map((r) => r.rg)),
  });
  const classes = {};
  for (const c of CLASSES) if (rows.some((r) => r.class === c)) classes[c] = group((r) => r.class === c);
  const corpora = {};
  for (const name of [...new Set(rows.map((r) => r.corpus))]) corpora[name] = group((r) => r.corpus === name);
  return { classes, corpora, overall: rows.length ? group(() => true) : null };
}

function printTable(title, groups) {
  const cols = ['R@1', 'R@5', 'R@10', 'S@10', 'MRR'].map((c) => c.padStart(5)).join('');
  console.log(`\n${title}`);
  console.log(`${''.padEnd(12)}${'n'.padStart(4)}  ${'trufflepig'.padEnd(25)}  rg`);
  console.log(`${''.padEnd(12)}${''.padStart(4)}  ${cols}  ${cols}`);
  const fig = (a) => [a.r1, a.r5, a.r10, a.s10, a.mrr].map((x) => f2(x).padStart(5)).join('');
  for (const [name, g] of Object.entries(groups)) {
    const errors = g.trufflepig.errors ? `   (${g.trufflepig.errors} errors)` : '';
    console.log(
      `${name.padEnd(12)}${String(g.trufflepig.tasks).padStart(4)}  ${fig(g.trufflepig)}  ${fig(g.rg)}${errors}`,
    );
  }
}

function printWorkspaceRow(task, tp, rg) {
  const note = tp.error ? `  ERROR ${tp.error}` : '';
  console.log(
    `${task.id.slice(0, 43).padEnd(44)}${`${tp.found}/${tp.pairs}`.padStart(7)}  ${`${rg.found}/${rg.pairs}`.padStart(7)}${note}`,
  );
}

function printWorkspaceSummary(ws) {
  const line = (name, a) =>
    console.log(
      `${name.padEnd(12)}${`${a.found}/${a.pairs}`.padStart(7)} pairs = ${f2(a.recall)}   (mean per task ${f2(a.meanTaskRecall)})`,
    );
  console.log(`\nworkspace first-page recall of (member, path) pairs, ${ws.trufflepig.tasks} tasks`);
  line('trufflepig', ws.trufflepig);
  line('rg', ws.rg);
}

function printTargets(summary, partial) {
  console.log(`\ntargets (issue 13)${partial ? ' -- partial run (--only): not the full task set' : ''}`);
  for (const t of TARGETS) {
    const v = t.pick(summary);
    const ok = Number.isFinite(v) && v >= t.at;
    console.log(`  ${ok ? 'PASS' : 'MISS'}  ${t.label.padEnd(30)} ${f2(v)}  (target >= ${t.at.toFixed(2)})`);
  }
}

module.exports = {
  CLASSES,
  TARGETS,
  printTaskHeader,
  printTaskRow,
  summarize,
  printTable,
  printWorkspaceRow,
  printWorkspaceSummary,
  printTargets,
};
