'use strict';
// Figures and the issue's targets with PASS/FAIL.
const { median } = require('../../lib/proc');

const MB = 1e6; // decimal megabytes, as tools/bench/index
const RATIO_LIMIT = 1.3; // issue 3: workspace median <= 1.3 x the slowest member's single-root median

const fmt = (n, digits = 3) => (n == null || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);

function printCorpora(members) {
  console.log('\ncorpora:');
  for (const m of members)
    console.log(
      `  ${pad(m.name, 6)}${lpad(m.files, 6)} files ${lpad(fmt(m.bytes / MB, 1), 6)} MB  ${m.dir}  (${m.source})`,
    );
  const total = members.reduce((s, m) => s + m.bytes, 0);
  console.log(
    `  total ${lpad(
      members.reduce((s, m) => s + m.files, 0),
      6,
    )} files ${lpad(fmt(total / MB, 1), 6)} MB`,
  );
}

function indexLine(run) {
  const r = run.report;
  if (!r) return `not JSON: ${run.raw}`;
  const mbps = typeof r.source_bytes === 'number' ? `${fmt(r.source_bytes / MB / run.seconds, 2)} MB/s, ` : '';
  const fields = ['files', 'parsed', 'reused', 'parse_failures']
    .filter((k) => typeof r[k] === 'number')
    .map((k) => `${k} ${r[k]}`);
  return `${mbps}${fields.join(', ')}`;
}

function printIndexing(indexing, fresh) {
  console.log(`\nindex (${fresh ? 'cold, fresh caches' : 'reused caches: no-change reindex'}):`);
  for (const [name, run] of Object.entries(indexing.single))
    console.log(`  single-root ${pad(name, 10)}${lpad(fmt(run.seconds, 2), 7)} s  ${indexLine(run)}`);
  if (!indexing.workspace) return;
  const ws = indexing.workspace;
  const members =
    ws.report && ws.report.members && typeof ws.report.members === 'object' ? Object.entries(ws.report.members) : [];
  const bytes = members.reduce((sum, [, r]) => sum + (typeof r.source_bytes === 'number' ? r.source_bytes : 0), 0);
  const rate = bytes ? `${fmt(bytes / MB / ws.seconds, 2)} MB/s over all members` : '';
  console.log(`  workspace (all members)${lpad(fmt(ws.seconds, 2), 6)} s  ${rate}`);
  // Per member as the CLI reports it (duration_ms is the member's own indexing time).
  for (const [name, r] of members) {
    const seconds = typeof r.duration_ms === 'number' ? `${lpad(fmt(r.duration_ms / 1000, 2), 7)} s` : '      ? s';
    console.log(
      `    member ${pad(name, 15)}${seconds}  ${indexLine({ seconds: (r.duration_ms || NaN) / 1000, report: r })}`,
    );
  }
  if (members.length === 0)
    for (const line of ws.lines.slice(0, 8))
      console.log(`    CLI report: ${(typeof line === 'string' ? line : JSON.stringify(line)).slice(0, 600)}`);
}

function modeNames(results) {
  return Object.keys(results[0].medians);
}

function printQueryHeader(names) {
  console.log(
    `\n${pad('query', 20)}${names.map((n) => lpad(`${n} s`, 12)).join('')}${lpad('ws/slowest', 12)}  workspace hits by member`,
  );
}

function slowestOf(medians, memberNames) {
  return memberNames.reduce((a, n) => (medians[n] > medians[a] ? n : a), memberNames[0]);
}

function printQueryRow(q, memberNames) {
  const names = Object.keys(q.medians);
  const slowest = slowestOf(q.medians, memberNames);
  const ratio = q.medians.workspace == null ? null : q.medians.workspace / q.medians[slowest];
  const last = q.samples.workspace ? q.samples.workspace[q.samples.workspace.length - 1] : null;
  const hits =
    last && last.byMember
      ? Object.entries(last.byMember)
          .map(([n, c]) => `${n} ${c}`)
          .join(', ') || 'none'
      : '';
  // Per mode: how many of its samples failed, and its first error.
  const errors = names.map((n) => [n, q.samples[n].filter((s) => !s.ok)]).filter(([, bad]) => bad.length);
  const note = errors
    .map(([n, bad]) => `\n    ERROR ${n} ${bad.length}/${q.samples[n].length}: ${bad[0].error}`)
    .join('');
  console.log(
    `${pad(q.query.slice(0, 19), 20)}${names.map((n) => lpad(fmt(q.medians[n]), 12)).join('')}${lpad(ratio == null ? '' : `${fmt(ratio, 2)} (${slowest})`, 12)}  ${hits}${note}`,
  );
}

/** Headline figures: per mode the median of its per-query medians. */
function summarize(results, memberNames) {
  const names = modeNames(results);
  const medians = Object.fromEntries(names.map((n) => [n, median(results.map((q) => q.medians[n]))]));
  const slowest = slowestOf(medians, memberNames);
  const all = results.flatMap((q) => names.flatMap((n) => q.samples[n]));
  const overBudget = all.filter((s) => !s.withinBudget);
  const failed = Object.fromEntries(
    names.map((n) => [n, results.reduce((c, q) => c + q.samples[n].filter((s) => !s.ok).length, 0)]),
  );
  const fill = Math.max(...all.map((s) => s.tokens / s.budget));
  return {
    medians,
    slowestMember: slowest,
    ratio: medians.workspace == null ? null : medians.workspace / medians[slowest],
    responses: all.length,
    pages: all.filter((s) => s.ok).length,
    overBudget: overBudget.length,
    worstOverBudget: overBudget.sort((a, b) => b.tokens - b.budget - (a.tokens - a.budget))[0] || null,
    maxFill: fill,
    failed,
  };
}

function printSummary(s, rounds, queries) {
  const names = Object.keys(s.medians);
  console.log(
    `${pad(`median (${queries} queries x ${rounds})`, 20)}${names.map((n) => lpad(fmt(s.medians[n]), 12)).join('')}${lpad(s.ratio == null ? '' : `${fmt(s.ratio, 2)} (${s.slowestMember})`, 12)}`,
  );
  console.log(
    `\nper-member single-root medians: ${names
      .filter((n) => n !== 'workspace')
      .map((n) => `${n} ${fmt(s.medians[n])} s`)
      .join(', ')}; slowest: ${s.slowestMember}`,
  );
  if (s.medians.workspace != null)
    console.log(
      `workspace median ${fmt(s.medians.workspace)} s = ${fmt(s.ratio, 2)} x the slowest member (${s.slowestMember} ${fmt(s.medians[s.slowestMember])} s)`,
    );
  console.log(
    `responses counted with o200k_base: ${s.responses}, over budget: ${s.overBudget}, largest tokens/budget: ${fmt(s.maxFill, 2)}`,
  );
}

/** Prints PASS/FAIL per target; returns the list (a missing workspace half fails its target). */
function printTargets(s, workspaceMissing) {
  console.log('\ntargets (issue 3):');
  const failedWs = s.failed.workspace || 0;
  const failedSingle = Object.entries(s.failed).filter(([n, c]) => n !== 'workspace' && c > 0);
  let ratioNote = '';
  if (workspaceMissing) ratioNote = '  [this CLI has no --workspace: workspace half not run]';
  else if (failedWs || failedSingle.length)
    ratioNote = `  [failed searches: ${Object.entries(s.failed)
      .filter(([, c]) => c)
      .map(([n, c]) => `${n} ${c}`)
      .join(', ')}]`;
  const ratioPass = !ratioNote && s.ratio != null && s.ratio <= RATIO_LIMIT;
  const budgetPass = s.overBudget === 0 && s.responses > 0;
  const w = s.worstOverBudget;
  const weak = s.pages < s.responses ? ` [only ${s.pages} of ${s.responses} responses were search pages]` : '';
  const budgetNote = (w ? `  [worst: ${w.tokens} tokens for budget ${w.budget}]` : '') + weak;
  const targets = [
    {
      label: 'workspace median / slowest member median',
      value: s.ratio,
      limit: `<= ${RATIO_LIMIT}`,
      pass: ratioPass,
      note: ratioNote,
    },
    {
      label: 'responses within budget (o200k_base)',
      value: s.responses - s.overBudget,
      limit: `= ${s.responses}`,
      pass: budgetPass,
      note: budgetNote,
      digits: 0,
    },
  ];
  for (const t of targets)
    console.log(
      `  ${t.pass ? 'PASS' : 'FAIL'}  ${pad(t.label, 42)} ${lpad(fmt(t.value, t.digits ?? 2), 6)}  (target ${t.limit})${t.note}`,
    );
  return targets;
}

/** A run during which the CLI or a package was rebuilt measured two builds: void it. */
function printBuildCheck(before, after) {
  const pass = before === after;
  const note = pass ? '' : `  [dist changed during the run: ${before} -> ${after}; rerun when nobody is building]`;
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}  ${pad('CLI build unchanged during the run', 42)} ${lpad(pass ? 'yes' : 'no', 6)}${note}`,
  );
  return { label: 'CLI build unchanged during the run', value: pass, limit: 'yes', pass, note };
}

module.exports = {
  printBuildCheck,
  printCorpora,
  printIndexing,
  printQueryHeader,
  printQueryRow,
  summarize,
  printSummary,
  printTargets,
  RATIO_LIMIT,
};
