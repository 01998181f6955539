#!/usr/bin/env node
// hist with and without the history index (issue 16, deliverable 6), on a synthetic
// repository of a few thousand first-parent commits made with `git fast-import`
// (deterministic: a seeded generator). Prints the index's build time and size, an
// incremental update after one commit, and median times over 20 targets of: the walk in
// process (walkHistory, the index loaded and checked per call as a CLI run does), the whole
// `trufflepig hist` CLI run (--no-daemon), and `git log -L` of the same lines. Every walk
// with the index is checked to answer exactly as the one without.
//
//   node tools/bench/history/run.js [--commits N] [--files N] [--reps N] [--work DIR] [--cli PATH]
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseOptions } = require('../../lib/args');
const { DEFAULT_CLI, loadHistory, git, now, ms, cliJson, median, fmtMs } = require('./common');

const opts = parseOptions(process.argv.slice(2), {
  name: 'bench-history',
  usage: 'usage: node tools/bench/history/run.js [--commits N] [--files N] [--reps N] [--work DIR] [--cli PATH]',
  options: {
    commits: { type: 'number', default: 4000 },
    files: { type: 'number', default: 120 },
    reps: { type: 'number', default: 3 },
    work: { type: 'path', default: path.join(os.tmpdir(), 'trufflepig-bench-history') },
    cli: { type: 'path', default: DEFAULT_CLI },
  },
});
const COMMITS = opts.commits;
const FILES = opts.files;
const REPS = opts.reps;
const WORK = opts.work;
const CLI = opts.cli;
const history = loadHistory();

// mulberry32: a seeded generator, so every run makes the same repository.
let seed = 42;
const rand = (n) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
};

const FUNCS = 12;
/** A file: FUNCS functions of 4 to 7 lines, each body line carrying a version number. */
function fileText(versions) {
  return versions
    .map((v, f) => {
      const body = Array.from({ length: 3 + (f % 4) }, (_, k) => `  const v${k} = x * ${v[k] ?? 0} + ${k};`);
      return `export function fn${f}(x: number): number {\n${body.join('\n')}\n  return v0;\n}\n`;
    })
    .join('\n');
}

/** The repository, made once per shape: COMMITS commits on main, each editing 1-3 functions, a rename now and then, a merge every 200. */
function makeRepo() {
  const root = path.join(WORK, `repo-v2-${COMMITS}-${FILES}`);
  if (fs.existsSync(path.join(root, '.git'))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  git(root, ['init', '-q', '-b', 'main']);
  const names = Array.from({ length: FILES }, (_, i) => `src/m${String(i).padStart(3, '0')}.ts`);
  const state = names.map(() => Array.from({ length: FUNCS }, () => []));
  const out = [];
  let mark = 0;
  let when = 1_600_000_000;
  const blob = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const commitOn = (branch, msg, changes, from, merge) => {
    mark++;
    when += 3600;
    out.push(
      `commit refs/heads/${branch}\nmark :${mark}\nauthor B <b@e> ${when} +0000\ncommitter B <b@e> ${when} +0000\n${blob(msg)}`,
    );
    if (from) out.push(`from ${from}\n`);
    if (merge) out.push(`merge ${merge}\n`);
    out.push(...changes, '\n');
    return `:${mark}`;
  };
  let head = commitOn(
    'main',
    'initial import',
    names.map((n, i) => `M 100644 inline ${n}\n${blob(fileText(state[i]))}`),
  );
  for (let c = 1; c < COMMITS; c++) {
    const changes = [];
    if (c % 200 === 0) {
      // A short branch merged back with --no-ff: its commit edits one function.
      const i = rand(FILES);
      const f = rand(FUNCS);
      state[i][f][0] = (state[i][f][0] ?? 0) + 1;
      const side = commitOn('side', `side ${c}`, [`M 100644 inline ${names[i]}\n${blob(fileText(state[i]))}`], head);
      head = commitOn(
        'main',
        `Merge side ${c}`,
        [`M 100644 inline ${names[i]}\n${blob(fileText(state[i]))}`],
        head,
        side,
      );
      continue;
    }
    if (c % 500 === 250) {
      const i = rand(FILES);
      const renamed = names[i].replace(/(\.r\d+)?\.ts$/, `.r${c}.ts`);
      changes.push(`R ${names[i]} ${renamed}\n`);
      names[i] = renamed;
    }
    for (let k = 1 + rand(3); k > 0; k--) {
      const i = rand(FILES);
      const f = rand(FUNCS);
      const line = rand(3);
      state[i][f][line] = (state[i][f][line] ?? 0) + 1;
      changes.push(`M 100644 inline ${names[i]}\n${blob(fileText(state[i]))}`);
    }
    head = commitOn('main', `commit ${c}: edit`, changes, head);
  }
  git(root, ['fast-import', '--quiet'], out.join(''));
  git(root, ['checkout', '-q', '-f', 'main']);
  git(root, ['branch', '-D', 'side']);
  return root;
}

/** 20 targets: a function's lines in 20 files of HEAD (by a fixed stride). */
function targets(root) {
  const files = git(root, ['ls-files', 'src']).trim().split('\n');
  const out = [];
  for (let k = 0; k < 20; k++) {
    const file = files[(k * 7) % files.length];
    const text = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    const f = (k * 5) % FUNCS;
    const start = text.findIndex((l) => l.startsWith(`export function fn${f}(`)) + 1;
    let end = start;
    while (text[end - 1] !== '}') end++;
    out.push({ file, start, end });
  }
  return out;
}

const cli = (root, cache, words) => cliJson(CLI, root, cache, words);

async function main() {
  fs.mkdirSync(WORK, { recursive: true });
  let t0 = now();
  const root = makeRepo();
  const made = ms(t0);
  const count = Number(git(root, ['rev-list', '--count', '--first-parent', 'HEAD']).trim());
  console.log(
    `repository: ${root} (${count} first-parent commits, ${FILES} files; made in ${(made / 1000).toFixed(1)} s, or reused)`,
  );
  const plain = fs.mkdtempSync(path.join(WORK, 'plain-'));
  const indexed = fs.mkdtempSync(path.join(WORK, 'indexed-'));
  try {
    t0 = now();
    const built = await history.buildHistoryIndex(root, indexed);
    const buildMs = ms(t0);
    if (!built.ok) throw new Error(built.error.message);
    console.log(
      `history index: built in ${(buildMs / 1000).toFixed(2)} s, ${built.value.commits} commits, ${(built.value.bytes / 1024 / 1024).toFixed(2)} MiB${built.value.cut ? ` (cut: ${built.value.cut.reason})` : ''}`,
    );

    const repo = history.openRepo(root).value;
    const list = targets(root);
    const gitMs = [];
    const plainMs = [];
    const indexMs = [];
    const loadMs = [];
    let scanned = 0;
    let fromIndex = 0;
    for (const t of list) {
      const target = { path: t.file, range: { start: t.start, end: t.end }, name: undefined };
      for (let r = 0; r < REPS; r++) {
        let s = now();
        const a = await history.walkHistory(repo, target);
        plainMs.push(ms(s));
        s = now();
        const { index } = history.loadHistoryIndex(repo, indexed);
        loadMs.push(ms(s));
        const b = await history.walkHistory(repo, target, { index });
        indexMs.push(ms(s));
        const strip = (w) => JSON.stringify({ ...w.value, fromIndex: 0 });
        if (!a.ok || !b.ok || strip(a) !== strip(b))
          throw new Error(`different answers for ${t.file}:${t.start}-${t.end}`);
        if (r === 0) {
          scanned += a.value.scanned;
          fromIndex += b.value.fromIndex;
        }
        s = now();
        git(root, ['log', '--first-parent', '-L', `${t.start},${t.end}:${t.file}`, '--format=%H', '--no-patch']);
        gitMs.push(ms(s));
      }
    }
    const fmt = fmtMs;
    console.log(
      `\nwalk in process, 20 targets x ${REPS} (${scanned} file-log records in all, ${fromIndex} of them from the index):`,
    );
    console.log(`  median walkHistory without index: ${fmt(median(plainMs))}`);
    console.log(
      `  median walkHistory with index:    ${fmt(median(indexMs))}   (of which loading+checking the index file: ${fmt(median(loadMs))})`,
    );
    console.log(`  median git log -L (same lines):   ${fmt(median(gitMs))}`);

    // The whole CLI: both caches get the code index first, so only hist is timed.
    for (const cache of [plain, indexed]) cli(root, cache, ['index']);
    const cliPlain = [];
    const cliIndexed = [];
    for (const t of list) {
      const words = ['hist', `path:${t.file}:${t.start}-${t.end}`];
      for (let r = 0; r < Math.max(1, REPS - 1); r++) {
        let s = now();
        const a = cli(root, plain, words);
        cliPlain.push(ms(s));
        s = now();
        const b = cli(root, indexed, words);
        cliIndexed.push(ms(s));
        const rows = (o) => JSON.stringify(o.hits.map(({ handle: _h, ...rest }) => rest));
        if (rows(a) !== rows(b)) throw new Error(`the CLI answered differently for ${words.join(' ')}`);
        if (b.coverage.history_index.state !== 'current')
          throw new Error(`the index was not used: ${JSON.stringify(b.coverage.history_index)}`);
      }
    }
    console.log(`\ntrufflepig hist (whole CLI run, --no-daemon), 20 targets:`);
    console.log(`  median without index: ${fmt(median(cliPlain))}`);
    console.log(`  median with index:    ${fmt(median(cliIndexed))}`);

    // One more commit: the update adds one segment.
    const file = list[0].file;
    fs.appendFileSync(path.join(root, file), '\n// one more line\n');
    git(root, ['commit', '-q', '-am', 'one more commit']);
    t0 = now();
    const up = await history.buildHistoryIndex(root, indexed);
    console.log(
      `\nincremental update after one commit: ${fmt(ms(t0))} (${up.ok ? `${up.value.outcome}, ${up.value.read} read` : up.error.message})`,
    );
    git(root, ['reset', '-q', '--hard', 'HEAD~1']);
  } finally {
    fs.rmSync(plain, { recursive: true, force: true });
    fs.rmSync(indexed, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exitCode = 1;
});
