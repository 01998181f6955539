'use strict';
// 9 and 10: experiments other modules own (tools/reliability/gitignore.js, abuse.js). Each
// exports `run(opts)` returning (or resolving to) a summary; this adapter accepts
//   { attempts, failures: number | array, examples?: string[], notes?: string[], byKind?: {} }
// (also `count`/`total` for attempts, `differences`/`diffs` for failures) and reports a
// module that does not exist yet as "not available".
const fs = require('fs');
const path = require('path');
const { short } = require('../lib/harness');

const DIR = path.join(__dirname, '..');

function asNumber(...values) {
  for (const v of values) {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (Array.isArray(v)) return v.length;
  }
  return null;
}

function exampleText(e) {
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object') return e.text || e.detail || e.message || JSON.stringify(e);
  return String(e);
}

/** Copies a module's summary into the experiment under failure kind `kind`. */
function absorb(exp, result, kind) {
  const r = result || {};
  const attempts = asNumber(r.attempts, r.count, r.total, r.cases);
  const failureList = [r.failures, r.differences, r.diffs].find(Array.isArray);
  const failures = asNumber(r.failures, r.differences, r.diffs) || 0;
  if (attempts === null) {
    exp.state = 'bad summary';
    exp.note(`run() returned no attempt count: ${short(JSON.stringify(r), 200)}`);
    return;
  }
  exp.attempts += attempts;
  exp.failures += failures;
  if (r.byKind && typeof r.byKind === 'object') {
    for (const [k, n] of Object.entries(r.byKind)) exp.byKind[k] = (exp.byKind[k] || 0) + Number(n || 0);
  } else if (failures) exp.byKind[kind] = (exp.byKind[kind] || 0) + failures;
  const examples = Array.isArray(r.examples) ? r.examples : failureList || [];
  for (const e of examples.slice(0, 20)) exp.examples.push({ kind, text: short(exampleText(e), 400) });
  for (const n of Array.isArray(r.notes) ? r.notes : r.note ? [r.note] : []) exp.note(short(String(n), 300));
  // gitignore.js: the same cases for the walk used outside Git work trees.
  if (r.rules && typeof r.rules === 'object' && typeof r.rules.attempts === 'number') {
    exp.attempts += r.rules.attempts;
    exp.failures += r.rules.failures || 0;
    if (r.rules.failures) exp.byKind[kind] = (exp.byKind[kind] || 0) + r.rules.failures;
    for (const e of (r.rules.examples || []).slice(0, 10))
      exp.examples.push({ kind, text: short(`outside Git: ${exampleText(e)}`, 400) });
    exp.note(
      `in Git work trees ${attempts} checks, ${failures} differing; outside Git (rules) ${r.rules.attempts} checks, ${r.rules.failures || 0} differing`,
    );
  }
  // abuse.js: the medians behind its verdict.
  if (typeof r.quietMedianMs === 'number' && typeof r.abusedMedianMs === 'number') {
    exp.note(
      `search median quiet ${r.quietMedianMs.toFixed(0)} ms, under abuse ${r.abusedMedianMs.toFixed(0)} ms (${(r.abusedMedianMs / r.quietMedianMs).toFixed(2)}×, target ≤ 2×)${typeof r.abusiveRequests === 'number' ? `; ${r.abusiveRequests} catastrophic requests` : ''}`,
    );
  }
  if (r.skipped) exp.state = 'skipped';
}

async function runModule(file, exp, opts, kind) {
  const full = path.join(DIR, file);
  if (!fs.existsSync(full)) {
    exp.state = 'not available';
    exp.note(`tools/reliability/${file} does not exist yet`);
    return;
  }
  const mod = require(full);
  if (typeof mod.run !== 'function') {
    exp.state = 'not available';
    exp.note(`tools/reliability/${file} exports no run()`);
    return;
  }
  absorb(exp, await mod.run(opts), kind);
}

module.exports = {
  gitignore: {
    title: '.gitignore differential against Git',
    run: (h, exp, rng, out, plan) =>
      runModule(
        'gitignore.js',
        exp,
        { seed: plan.seed, count: plan.gitignoreSets, quick: plan.quick, cli: h.cliPath, work: h.base },
        'gitignore',
      ),
  },
  abuse: {
    title: 'daemon responsiveness under abuse',
    run: (h, exp, rng, out, plan) =>
      runModule(
        'abuse.js',
        exp,
        { seed: plan.seed, quick: plan.quick, cli: h.cliPath, work: h.base, deadlineMs: h.deadlineMs },
        'responsive',
      ),
  },
  absorb,
};
