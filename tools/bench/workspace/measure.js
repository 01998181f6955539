'use strict';
// Runs the CLI: one index per member (single-root) and one workspace index, then the query
// rounds, interleaving the workspace search with every member's single-root search.
const fs = require('fs');
const path = require('path');
const { timedRun, parseJsonOutput, oneLine, median } = require('../../lib/proc');
const { countTokens } = require('./tokens');
const { DEFAULT_SEARCH_BUDGET } = require('./queries');

/** The command-line prefix for each mode; `cwd` lies outside every member root so a
 * workspace search with no selector searches all members. */
function modes(plan) {
  const single = Object.fromEntries(
    plan.members.map((m) => [
      m.name,
      [
        '--root',
        m.dir,
        ...(plan.workspace ? ['--no-workspace'] : []),
        '--cache',
        path.join(plan.cacheDir, 'single', m.name),
        '--no-daemon',
        '--json',
      ],
    ]),
  );
  // Output is parsed as JSON: --json (lines is the CLI's default).
  const workspace = [
    '--workspace',
    plan.workspaceFile,
    '--cache',
    path.join(plan.cacheDir, 'workspace'),
    '--no-daemon',
    '--json',
  ];
  return { single, workspace };
}

function runIndex(cli, prefix, cache, fresh, cwd) {
  if (fresh) fs.rmSync(cache, { recursive: true, force: true });
  const r = timedRun(process.execPath, [cli, ...prefix, 'index'], { cwd });
  if (r.status !== 0)
    throw new Error(
      `index ${prefix.join(' ')} exited ${r.status}: ${oneLine(r.stdout + ' ' + r.stderr).slice(0, 500)}`,
    );
  const report = parseJsonOutput(r.stdout);
  // A workspace index may report per member on further lines: keep every JSON line.
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => parseJsonOutput(l) || l.trim());
  return {
    seconds: r.seconds,
    report,
    lines,
    raw: report ? undefined : oneLine(r.stdout + ' ' + r.stderr).slice(0, 300),
  };
}

/** One `index` per member in single-root mode, then one workspace `index` (all members). */
function indexAll(cli, plan) {
  const { single, workspace } = modes(plan);
  const results = { single: {}, workspace: null };
  for (const m of plan.members) {
    results.single[m.name] = runIndex(
      cli,
      single[m.name],
      path.join(plan.cacheDir, 'single', m.name),
      plan.fresh,
      plan.work,
    );
  }
  if (plan.workspace)
    results.workspace = runIndex(cli, workspace, path.join(plan.cacheDir, 'workspace'), plan.fresh, plan.work);
  return results;
}

/** Checks a search response; returns the sample with what the response showed. */
function inspect(r, budget, memberNames) {
  const out = parseJsonOutput(r.stdout);
  const tokens = countTokens(r.stdout);
  const sample = {
    seconds: r.seconds,
    tokens,
    budget,
    withinBudget: tokens <= budget,
    ok: false,
    count: 0,
    truncated: false,
  };
  if (r.status !== 0 || !out || !Array.isArray(out.hits)) {
    const code = out && out.error ? `${out.error.code}: ${out.error.message}` : oneLine(r.stdout + ' ' + r.stderr);
    sample.error = `exit ${r.status}: ${code.slice(0, 240)}`;
    return sample;
  }
  sample.count = out.hits.length;
  sample.truncated = Boolean(out.truncated);
  if (!memberNames) {
    sample.ok = true;
    return sample;
  }
  sample.byMember = {};
  for (const h of out.hits) sample.byMember[h.member] = (sample.byMember[h.member] || 0) + 1;
  const states = (out.coverage && out.coverage.members) || {};
  sample.states = Object.fromEntries(memberNames.map((n) => [n, states[n] ? states[n].state : 'absent']));
  const unmarked = out.hits.filter((h) => typeof h.member !== 'string').length;
  const incomplete = memberNames.filter((n) => sample.states[n] !== 'complete');
  if (unmarked) sample.error = `${unmarked} hits without a member`;
  else if (incomplete.length)
    sample.error = `members not complete: ${incomplete.map((n) => `${n}=${sample.states[n]}`).join(', ')}`;
  else sample.ok = true;
  return sample;
}

/** Runners for one query: every member single-root, and the workspace when the CLI has it. */
function runners(cli, plan, q) {
  const { single, workspace } = modes(plan);
  const budgetArgs = q.budget == null ? [] : ['-b', String(q.budget)];
  const budget = q.budget == null ? DEFAULT_SEARCH_BUDGET : q.budget;
  const names = plan.members.map((m) => m.name);
  const search = (prefix, memberNames) => () =>
    inspect(
      timedRun(process.execPath, [cli, ...prefix, ...budgetArgs, 'search', q.query], { cwd: plan.work }),
      budget,
      memberNames,
    );
  const list = names.map((n) => [n, search(single[n], null)]);
  if (plan.workspace) list.unshift(['workspace', search(workspace, names)]);
  return list;
}

/** `rounds` passes over the query set; within a query the modes run back to back, the
 * first one rotated every time so no mode always runs first (or right after another). */
function measureSearches(cli, plan, onRound) {
  const perQuery = plan.queries.map((q) => {
    const list = runners(cli, plan, q);
    // Keys in runner order (workspace first, then members as declared), not in rotated run order.
    return { ...q, runners: list, samples: Object.fromEntries(list.map(([name]) => [name, []])) };
  });
  for (const q of perQuery) for (const [, run] of q.runners) run(); // untimed warm-up of every cache
  let turn = 0;
  for (let round = 0; round < plan.rounds; round++) {
    for (const q of perQuery) {
      const n = q.runners.length;
      for (let i = 0; i < n; i++) {
        const [name, run] = q.runners[(i + turn) % n];
        q.samples[name].push(run());
      }
      turn++;
    }
    if (onRound) onRound(round + 1);
  }
  return perQuery.map(({ runners: _, samples, ...q }) => ({
    ...q,
    samples,
    medians: Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, median(s.map((x) => x.seconds))])),
  }));
}

module.exports = { indexAll, measureSearches, modes, inspect };
