#!/usr/bin/env node
// hist and blame on a real history (issue 16, Performance): no public Git remote is
// reachable here, so the history is the released versions of one npm package committed
// oldest first (npm-history.js). Prints the history index's build time and size, then,
// for 20 targets chosen from the final version (targets.js), median whole-process times of
// `trufflepig --no-daemon hist path:F:A-B`, `hist sym:NAME`, `blame path:F:A-B` beside
// `git log --first-parent -L` (without and with the patch) and `git blame -M -w` of the
// same lines, all in one run and interleaved, with `node -e 0` as the process floor, and the
// target: each verb's median ≤ the plain git command's. Then one profiled run of each verb.
//
//   node tools/bench/history/real.js [--package semver] [--versions 66] [--reps 5] [--work DIR] [--cli PATH] [--no-profile]
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseOptions } = require('../../lib/args');
const {
  DEFAULT_CLI,
  REPO_ROOT,
  loadHistory,
  git,
  now,
  ms,
  timed,
  whileRebuilding,
  cliJson,
  median,
  fmtMs,
} = require('./common');
const { packageHistoryRepo } = require('./npm-history');
const { pickTargets } = require('./targets');
const { profileRun, describeProfile } = require('./profile');

const opts = parseOptions(process.argv.slice(2), {
  name: 'bench-history',
  usage:
    'usage: node tools/bench/history/real.js [--package semver] [--versions 66] [--reps 5] [--work DIR] [--cli PATH] [--no-profile]',
  options: {
    package: { type: 'string', default: 'semver' },
    versions: { type: 'number', default: 66 },
    reps: { type: 'number', default: 5 },
    work: { type: 'path', default: path.join(os.tmpdir(), 'trufflepig-bench-history-real') },
    cli: { type: 'path', default: DEFAULT_CLI },
    'no-profile': { type: 'boolean' },
  },
});
const PKG = opts.package;
// semver's last 66 stable versions are 5.0.0 to 7.8.6: one file (semver.js) until 6.3.2,
// split into classes/, functions/, ranges/, internal/ at 7.0.0 (moves to follow).
const VERSIONS = opts.versions;
const REPS = opts.reps;
const TARGETS = 20;
const WORK = opts.work;
const CLI = opts.cli;
const PROFILE = !opts.noProfile;

/** The verbs the daemon answers (hist and blame run in the client unless listed). */
function servedVerbs() {
  // serving/launch/ since the workspace package was split by concern; the flat dist/ before.
  for (const rel of [['serving', 'launch', 'fast-client.js'], ['fast-client.js']]) {
    const file = path.join(REPO_ROOT, 'packages', 'workspace', 'dist', ...rel);
    if (fs.existsSync(file)) return require(file).FAST_VERBS;
  }
  return new Set();
}

/** The commands timed per target, by label; `verb` marks Trufflepig's, `git` the baseline each is held to. */
function commandsFor(root, cache, t, served) {
  const tp = (daemon, ...words) => [
    process.execPath,
    [CLI, ...(daemon ? [] : ['--no-daemon']), '--root', root, '--cache', cache, ...words],
  ];
  const span = `path:${t.file}:${t.start}-${t.end}`;
  const sym = [`sym:${t.name}`, `file:${t.file}`];
  const cmds = [
    { label: 'hist path', verb: true, run: tp(false, 'hist', span) },
    { label: 'hist sym', verb: true, run: tp(false, 'hist', ...sym) },
    { label: 'blame', verb: true, run: tp(false, 'blame', span) },
    {
      label: 'git log -L --no-patch',
      run: ['git', ['log', '--first-parent', '-L', `${t.start},${t.end}:${t.file}`, '--no-patch']],
    },
    { label: 'git log -L', run: ['git', ['log', '--first-parent', '-L', `${t.start},${t.end}:${t.file}`]] },
    { label: 'git blame -M -w', run: ['git', ['blame', '-M', '-w', '-L', `${t.start},${t.end}`, t.file]] },
    { label: 'node -e 0', run: [process.execPath, ['-e', '0']] },
  ];
  if (served.has('hist'))
    cmds.push(
      { label: 'hist path (served)', run: tp(true, 'hist', span) },
      { label: 'hist sym (served)', run: tp(true, 'hist', ...sym) },
    );
  if (served.has('blame')) cmds.push({ label: 'blame (served)', run: tp(true, 'blame', span) });
  return cmds;
}

/** Every command REPS times per target, interleaved, the first one rotated per repetition; per-target medians. */
function measure(root, cache, targets, served) {
  const rows = [];
  const warm = commandsFor(root, cache, targets[0], served);
  for (const c of warm) timed(c.run[0], c.run[1], { cwd: root }); // untimed: page cache, git's object cache
  targets.forEach((t, ti) => {
    const cmds = commandsFor(root, cache, t, served);
    const samples = new Map(cmds.map((c) => [c.label, []]));
    for (let r = 0; r < REPS; r++) {
      for (let i = 0; i < cmds.length; i++) {
        const c = cmds[(i + r + ti) % cmds.length];
        const x = whileRebuilding(() => timed(c.run[0], c.run[1], { cwd: root }));
        if (x.status !== 0)
          throw new Error(
            `${c.label} on ${t.file}:${t.start}-${t.end}: exit ${x.status}: ${(x.stderr || x.stdout).slice(0, 300)}`,
          );
        samples.get(c.label).push(x.ms);
      }
    }
    rows.push({ t, medians: Object.fromEntries([...samples].map(([k, v]) => [k, median(v)])) });
  });
  return rows;
}

/** What each target's answers say (untimed, --json): commits, moves, index use, blame runs. */
function describeTargets(root, cache, targets) {
  return targets.map((t) => {
    const span = `path:${t.file}:${t.start}-${t.end}`;
    const h = cliJson(CLI, root, cache, ['hist', span]);
    const s = cliJson(CLI, root, cache, ['hist', `sym:${t.name}`, `file:${t.file}`]);
    const b = cliJson(CLI, root, cache, ['blame', span]);
    const symSpan = s.hits[0] ? `${s.hits[0].path}:${s.hits[0].start_line}-${s.hits[0].end_line}` : '';
    return {
      commits: h.coverage.commits,
      moves: h.coverage.moves,
      index: h.coverage.history_index,
      symCommits: s.coverage.commits,
      symSame: s.coverage.commits === h.coverage.commits,
      symTarget: s.target,
      symSpan,
      runs: b.coverage.runs,
      blameCommits: b.coverage.commits,
    };
  });
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

async function main() {
  if (!Number.isInteger(VERSIONS) || VERSIONS < 40)
    throw new Error(`--versions ${VERSIONS}: the issue asks for 40 or more`);
  if (!fs.existsSync(CLI)) throw new Error(`CLI not built at ${CLI}: npx nx run trufflepig:build`);
  fs.mkdirSync(WORK, { recursive: true });
  let t0 = now();
  const repo = packageHistoryRepo(PKG, VERSIONS, WORK);
  const root = repo.root;
  const commits = Number(git(root, ['rev-list', '--count', '--first-parent', 'HEAD']).trim());
  console.log(
    `package: ${PKG}, ${repo.versions.length} stable versions ${repo.versions[0].version} .. ${repo.versions[repo.versions.length - 1].version}, oldest first by version`,
  );
  console.log(
    `repository: ${root} (${commits} first-parent commits, ${git(root, ['ls-files']).trim().split('\n').length} files at HEAD; ${repo.made ? `made in ${(ms(t0) / 1000).toFixed(1)} s, ${repo.fetched} tarballs fetched` : 'reused'})`,
  );
  if (repo.backwards)
    console.log(
      `  dates: the registry's times, as it has them; ${repo.backwards} of ${commits} commits are dated before their parent (its times are out of version order)`,
    );

  const cache = path.join(WORK, `cache-${path.basename(root)}`);
  t0 = now();
  cliJson(CLI, root, cache, ['index']);
  console.log(
    `code index: ${fmtMs(ms(t0))} (--cache ${cache}); .git: ${git(root, ['count-objects', '-vH']).match(/size-pack: (.*)/)[1]} packed, ${git(root, ['count-objects', '-vH']).match(/^size: (.*)/m)[1]} loose`,
  );

  const history = loadHistory();
  const opened = history.openRepo(root);
  if (!opened.ok) throw new Error(opened.error.message);
  fs.rmSync(history.historyIndexDir(cache, opened.value.commonDir), { recursive: true, force: true });
  t0 = now();
  const built = await history.buildHistoryIndex(root, cache);
  const buildMs = ms(t0);
  if (!built.ok) throw new Error(built.error.message);
  console.log(
    `history index: built in ${fmtMs(buildMs)} (in process, cold), ${built.value.commits} commits, ${built.value.bytes} bytes (${(built.value.bytes / 1024).toFixed(1)} KiB)${built.value.cut ? `, cut: ${built.value.cut.reason}` : ''}`,
  );

  t0 = now();
  const targets = pickTargets(CLI, root, cache, TARGETS);
  const facts = describeTargets(root, cache, targets);
  console.log(
    `\n${TARGETS} targets (definitions of the final version, most-changed lines first; picked and checked in ${(ms(t0) / 1000).toFixed(1)} s):`,
  );
  console.log(
    `  ${pad('#', 3)}${pad('target', 38)}${pad('name', 26)}${lpad('file', 5)}${lpad('-L', 4)}${lpad('hist', 5)}${lpad('mv', 3)}${lpad('sym', 4)}${lpad('runs', 5)}  index`,
  );
  targets.forEach((t, i) => {
    const f = facts[i];
    console.log(
      `  ${pad(i + 1, 3)}${pad(`${t.file}:${t.start}-${t.end}`, 38)}${pad(t.name, 26)}${lpad(t.fileCommits, 5)}${lpad(t.lineCommits, 4)}${lpad(f.commits, 5)}${lpad(f.moves, 3)}${lpad(f.symSame ? f.symCommits : `${f.symCommits}!`, 4)}${lpad(f.runs, 5)}  ${f.index ? `${f.index.state} (${f.index.records} records)` : '-'}`,
    );
  });
  console.log(
    '  (file: commits that changed the file; -L: git log -L commits; hist: hist path: commits, mv: moves followed; sym: hist sym: commits, ! = differs; runs: blame runs)',
  );
  const notCurrent = facts.filter((f) => !f.index || f.index.state !== 'current').length;
  if (notCurrent) console.log(`  warning: ${notCurrent} hist runs did not read a current history index`);

  const served = servedVerbs();
  const servedNote = ['hist', 'blame'].map((v) => `${v} ${served.has(v) ? 'served' : 'not served'}`).join(', ');
  console.log(
    `\ndaemon: ${servedNote} (packages/workspace/dist fast-client FAST_VERBS: ${[...served].join(' ')})${served.has('hist') || served.has('blame') ? '' : '; both run in the client process with or without a daemon, so there are no served times'}`,
  );
  // Served verbs are timed through a running daemon (tools/bench/runtime starts and stops it).
  const daemon = served.has('hist') || served.has('blame') ? require('../runtime/cli') : undefined;
  const ctx = { cli: CLI, corpus: root, cache };
  let rows;
  let servedProfiles = [];
  try {
    if (daemon) {
      const started = await daemon.startDaemon(ctx);
      const t = targets[0];
      const check = daemon.cliSync(ctx, ['hist', `path:${t.file}:${t.start}-${t.end}`]);
      const c = check.json && check.json.coverage;
      console.log(
        `  daemon serving (pid ${started.pid}, up in ${started.startSeconds.toFixed(1)} s); served hist of target 1: ${c ? `${c.commits} commits (foreground: ${facts[0].commits}), history index ${c.history_index ? c.history_index.state : 'not reported'}` : check.error}`,
      );
    }
    console.log(
      `\ntiming: ${TARGETS} targets x ${REPS} repetitions, whole processes, interleaved (first command rotated); medians per target:`,
    );
    rows = measure(root, cache, targets, served);
    // The client's side of a served call (the daemon's work shows as the client waiting).
    if (PROFILE && daemon) servedProfiles = profiles(root, cache, targets[0], false, served);
  } finally {
    if (daemon) daemon.stopDaemon(ctx);
  }
  const labels = Object.keys(rows[0].medians);
  console.log(`  ${pad('#', 3)}${labels.map((l) => lpad(l, Math.max(10, l.length + 2))).join('')}`);
  rows.forEach((r, i) =>
    console.log(
      `  ${pad(i + 1, 3)}${labels.map((l) => lpad(r.medians[l].toFixed(1), Math.max(10, l.length + 2))).join('')}`,
    ),
  );
  const overall = Object.fromEntries(labels.map((l) => [l, median(rows.map((r) => r.medians[l]))]));
  console.log(
    `  ${pad('med', 3)}${labels.map((l) => lpad(overall[l].toFixed(1), Math.max(10, l.length + 2))).join('')}`,
  );

  const floor = overall['node -e 0'];
  console.log(`\nmedians of the per-target medians (ms); process floor node -e 0: ${fmtMs(floor)}`);
  const checks = [
    ['hist path', 'git log -L', 'git log -L --no-patch'],
    ['hist sym', 'git log -L', 'git log -L --no-patch'],
    ['blame', 'git blame -M -w'],
  ];
  for (const suffix of ['', ' (served)']) {
    const present = checks.filter(([verb]) => overall[verb + suffix] !== undefined);
    if (present.length === 0) continue;
    let pass = present.length === checks.length;
    for (const [verb, plain, bare] of present) {
      const v = overall[verb + suffix];
      const ok = v <= overall[plain];
      pass = pass && ok;
      const also = bare ? `; vs ${bare} ${fmtMs(overall[bare])}: ${(v / overall[bare]).toFixed(1)}x` : '';
      console.log(
        `  ${pad(verb + suffix, 19)} ${lpad(fmtMs(v), 9)}  (${lpad(fmtMs(v - floor), 8)} above the floor)  vs ${plain} ${fmtMs(overall[plain])}: ${(v / overall[plain]).toFixed(1)}x ${ok ? 'PASS' : 'MISS'}${also}`,
      );
    }
    console.log(
      `  target${suffix || ' (--no-daemon)'}: each verb's median <= the plain git command's (hist: git log --first-parent -L with its patch; blame: git blame -M -w): ${pass ? 'PASS' : 'MISS'}`,
    );
  }

  await inProcess(root, cache, targets, overall);

  if (PROFILE) {
    const t = targets[0];
    console.log(
      `\nprofile (node --cpu-prof, trace-hooks.js preloaded; target 1, ${t.file}:${t.start}-${t.end} ${t.name}):`,
    );
    for (const p of [...profiles(root, cache, t, true, served), ...servedProfiles])
      for (const line of describeProfile(p)) console.log(`  ${line}`);
  }
}

/**
 * The verbs as a long-lived process runs them (the MCP server, a daemon's handler, a
 * library caller of @trufflepig/workspace): no process start. Per target, the first call
 * (cold: its blobs not yet parsed) and the median of REPS repeated calls; medians over the
 * targets beside the git medians of the same run.
 */
async function inProcess(root, cache, targets, overall) {
  const ws = require(path.join(REPO_ROOT, 'packages', 'workspace', 'dist'));
  const opts = { root, cache, cwd: root, format: 'lines', host: ws.ROOT_DAEMON_HOST };
  const verbs = [
    ['hist path', (t) => ws.histCommand([`path:${t.file}:${t.start}-${t.end}`], opts), 'git log -L'],
    ['blame', (t) => ws.blameCommand([`path:${t.file}:${t.start}-${t.end}`], opts), 'git blame -M -w'],
  ];
  console.log(
    `\nin process (@trufflepig/workspace histCommand/blameCommand, host ROOT_DAEMON_HOST; ${REPS} repeated calls a target after its first):`,
  );
  for (const [label, run, plain] of verbs) {
    const first = [];
    const repeated = [];
    for (const t of targets) {
      let t0 = now();
      const r = await run(t);
      if (r.exitCode !== 0) throw new Error(`${label} in process on ${t.file}: ${r.stderr}`);
      first.push(ms(t0));
      const again = [];
      for (let i = 0; i < REPS; i++) {
        t0 = now();
        await run(t);
        again.push(ms(t0));
      }
      repeated.push(median(again));
    }
    const f = median(first);
    const w = median(repeated);
    console.log(
      `  ${pad(label, 10)} first call ${lpad(fmtMs(f), 9)} (${(f / overall[plain]).toFixed(1)}x ${plain} ${fmtMs(overall[plain])})  repeated ${lpad(fmtMs(w), 9)} (${(w / overall[plain]).toFixed(1)}x) ${w <= overall[plain] ? 'PASS' : 'MISS'}`,
    );
  }
}

/** One profiled run of each verb on target `t`: with --no-daemon (`foreground`), else those the daemon serves. */
function profiles(root, cache, t, foreground, served) {
  const span = `path:${t.file}:${t.start}-${t.end}`;
  const runs = [
    ['hist path', ['hist', span]],
    ['hist sym', ['hist', `sym:${t.name}`, `file:${t.file}`]],
    ['blame', ['blame', span]],
  ];
  const dir = path.join(WORK, 'profile');
  return runs
    .filter(([, words]) => foreground || served.has(words[0]))
    .map(([label, words]) =>
      profileRun(
        CLI,
        [...(foreground ? ['--no-daemon'] : []), '--root', root, '--cache', cache, ...words],
        dir,
        foreground ? label : `${label} (served)`,
      ),
    );
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exitCode = 1;
});
