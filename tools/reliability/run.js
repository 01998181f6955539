#!/usr/bin/env node
'use strict';
// Reliability experiments of issue 10: drives the built CLI on small real Git repositories
// in a temp directory, with and without daemons, as a hostile and a careless user would,
// and prints attempts, failures and examples per experiment plus the targets line. Exit 1
// when a target is missed (or an experiment could not run). Every daemon and helper process
// it starts is stopped on every exit path, SIGINT and SIGTERM included.
// Usage: node tools/reliability/run.js [--seed N] [--quick] [--json FILE] [--cli PATH]
//          [--deadline MS] [--only NAME,NAME] [--jobs N] [--keep]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { requireCli, DEFAULT_CLI } = require('../lib/proc');
const { parseOptions } = require('../lib/args');
const { Harness, Experiment } = require('./lib/harness');
const { makeRng } = require('./lib/rng');
const { makeOutside } = require('./lib/repo');
const { makeCleanup } = require('./lib/cleanup');
const { documentedCodes } = require('./lib/checks');
const { selfTest } = require('./lib/selftest');
const report = require('./lib/report');
const external = require('./experiments/external');

const USAGE =
  'usage: node tools/reliability/run.js [--seed N] [--quick] [--json FILE] [--cli PATH] [--deadline MS] [--only NAME,NAME] [--jobs N] [--keep]';

const EXPERIMENTS = [
  ['escape', require('./experiments/escape')],
  ['control', require('./experiments/control')],
  ['query', require('./experiments/query')],
  ['config', require('./experiments/config')],
  ['kill', require('./experiments/kill')],
  ['tmpfs', require('./experiments/tmpfs')],
  ['concurrent', require('./experiments/concurrent')],
  ['odd', require('./experiments/odd')],
  ['gitignore', external.gitignore],
  ['abuse', external.abuse],
];

// Counts per experiment. The full plan is well over 5,000 attempts; the quick plan (part of
// `npm test`) keeps every experiment but few repetitions, mostly through a daemon.
const FULL = {
  directShare: 1,
  staticNames: 30,
  staticSearches: 8,
  swapRounds: 12,
  swapQueries: 11,
  swapShows: 12,
  raceCalls: 200,
  raceSetups: 3,
  controlRounds: 4,
  controlShows: 10,
  controlNames: 12,
  controlArgv: 28,
  queryDirect: 300,
  queryDaemon: 1500,
  queryFixedDirect: undefined,
  catastrophic: 8,
  configs: 600,
  killFiles: 2000,
  kills: 20,
  tmpfs: 9,
  twoIndexerFiles: 600,
  twoIndexers: 10,
  clients: 8,
  clientCalls: 100,
  oddFiles: 20000,
  oddShows: 12,
  oddMutations: 4,
  gitignoreSets: 40,
};
// directShare: the part of each repetition count that also runs with --no-daemon (a call
// there costs ~0.3 s of start-up and index loading against ~0.08 s through a daemon).
const QUICK = {
  directShare: 0.35,
  staticNames: 5,
  staticSearches: 4,
  swapRounds: 2,
  swapQueries: 5,
  swapShows: 3,
  raceCalls: 10,
  raceSetups: 2,
  controlRounds: 1,
  controlShows: 3,
  controlNames: 4,
  controlArgv: 10,
  queryDirect: 6,
  queryDaemon: 45,
  queryFixedDirect: 4,
  catastrophic: 1,
  configs: 10,
  killFiles: 200,
  kills: 1,
  tmpfs: 1,
  twoIndexerFiles: 100,
  twoIndexers: 1,
  clients: 8,
  clientCalls: 2,
  oddFiles: 5000,
  oddShows: 3,
  oddMutations: 1,
  gitignoreSets: 6,
};

function parseArgs(argv) {
  const o = parseOptions(argv, {
    name: 'reliability',
    usage: USAGE,
    exitCode: 2,
    options: {
      quick: { type: 'boolean' },
      seed: { type: 'number', default: 1 },
      json: { type: 'path', default: null },
      cli: { type: 'path', default: DEFAULT_CLI },
      deadline: { type: 'number', default: 10000 },
      only: { type: 'list', default: null },
      keep: { type: 'boolean' },
      jobs: { type: 'number', default: null },
    },
  });
  const opts = {
    seed: o.seed,
    quick: o.quick,
    json: o.json,
    cli: o.cli,
    deadlineMs: o.deadline,
    only: o.only,
    keep: o.keep,
    jobs: o.jobs,
  };
  // Two lanes by default in the quick run (it is part of npm test); one in the full run, so
  // latencies are measured on a machine the run does not load twice.
  if (opts.jobs === null) opts.jobs = opts.quick ? 2 : 1;
  if (!Number.isInteger(opts.jobs) || opts.jobs < 1) throw new Error('--jobs takes a whole number >= 1');
  if (!Number.isInteger(opts.seed)) throw new Error('--seed takes a whole number');
  if (!(opts.deadlineMs > 0)) throw new Error('--deadline takes milliseconds > 0');
  const names = EXPERIMENTS.map(([n]) => n);
  for (const n of opts.only || [])
    if (!names.includes(n)) throw new Error(`--only: unknown experiment ${n} (one of ${names.join(', ')})`);
  return opts;
}

/** The CLI's environment: config and cache homes inside the run, no inherited TRUFFLEPIG_ overrides. */
function cliEnv(base) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TRUFFLEPIG_')) env[k] = v;
  env.XDG_CACHE_HOME = path.join(base, 'xdg-cache');
  env.XDG_CONFIG_HOME = path.join(base, 'xdg-config');
  return env;
}

async function main(opts) {
  const cli = requireCli(opts.cli);
  selfTest();
  const started = Date.now();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'trufflepig-reliability-'));
  const out = makeOutside(base);
  const h = new Harness({ cli, base, deadlineMs: opts.deadlineMs, canaries: out.canaries, env: cliEnv(base) });
  const cleanupApi = makeCleanup(h, { keep: opts.keep });
  const onSignal = (signal, code) => () => {
    process.stderr.write(`\n${signal}: stopping daemons and helpers\n`);
    cleanupApi.cleanup();
    process.exit(code);
  };
  process.on('SIGINT', onSignal('SIGINT', 130));
  process.on('SIGTERM', onSignal('SIGTERM', 143));
  process.on('exit', cleanupApi.cleanup);

  const plan = { ...(opts.quick ? QUICK : FULL), seed: opts.seed, quick: opts.quick };
  const rng = makeRng(opts.seed);
  const selected = EXPERIMENTS.filter(([name]) => !opts.only || opts.only.includes(name));
  const experiments = selected.map(([name, mod]) => new Experiment(name, mod.title));
  let harnessErrors = 0;
  let finished = 0;
  const runOne = async (index) => {
    const [name, mod] = selected[index];
    const exp = experiments[index];
    const scope = h.scope(name);
    const t0 = Date.now();
    try {
      await mod.run(scope, exp, rng.fork(name), out, plan, cleanupApi);
    } catch (e) {
      harnessErrors++;
      exp.state = 'harness error';
      exp.note(String(e && e.stack ? e.stack.split('\n').slice(0, 2).join(' ') : e));
    } finally {
      cleanupApi.stopDaemons(scope);
    }
    if (['failed to set up', 'bad summary'].includes(exp.state)) harnessErrors++;
    process.stderr.write(
      `[${++finished}/${selected.length}] ${mod.title}: ${exp.attempts} attempts, ${exp.failures} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
    );
  };
  // `jobs` lanes take this tool's experiments in order, each lane one at a time. The modules
  // of other authors run afterwards and alone: they may block the event loop (spawnSync),
  // and the abuse measurement compares latencies that a second lane would disturb.
  const isExternal = (i) => selected[i][1] === external.gitignore || selected[i][1] === external.abuse;
  const queue = selected.map((_, i) => i).filter((i) => !isExternal(i));
  const lane = async () => {
    while (queue.length) await runOne(queue.shift());
  };
  await Promise.all(Array.from({ length: Math.min(opts.jobs, Math.max(1, queue.length)) }, lane));
  for (const i of selected.map((_, j) => j).filter(isExternal)) await runOne(i);
  const seconds = (Date.now() - started) / 1000;
  const documented = documentedCodes();
  const undocumented = [...h.codesSeen].filter((c) => c !== 'usage' && !documented.has(c)).sort();
  const { text, targets } = report.render(experiments, {
    quick: opts.quick,
    partial: !!opts.only,
    seed: opts.seed,
    seconds,
    undocumented,
  });
  console.log(text);
  if (h.rebuildRetries.count)
    console.log(
      `${h.rebuildRetries.count} call(s) were run again because they loaded a build being rewritten (Cannot find module)`,
    );
  if (harnessErrors) console.log(`${harnessErrors} experiment(s) could not run as planned (see their notes): exit 1`);
  if (opts.json) {
    const meta = {
      seed: opts.seed,
      quick: opts.quick,
      cli,
      seconds,
      undocumented_codes: undocumented,
      harness_errors: harnessErrors,
      rebuild_retries: h.rebuildRetries.count,
    };
    fs.writeFileSync(opts.json, `${JSON.stringify(report.toJson(experiments, meta, targets), null, 2)}\n`);
  }
  cleanupApi.cleanup();
  return targets.ok && harnessErrors === 0 ? 0 : 1;
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
main(opts).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e && e.stack ? e.stack : String(e));
    process.exitCode = 1;
  },
);
