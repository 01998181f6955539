'use strict';
// The .gitignore differential (issue 10, finding 9): seeded random rule sets in real Git
// repositories, the walk's file set against `git ls-files -co --exclude-standard` (minus
// untracked paths in the directories the walk never enters, whose tracked files it lists
// (issue 11), and everything that is not a regular file or a symlink). Used by packages/index/test/walk-git.test.ts with the TypeScript sources and
// by the reliability run with the built packages/index/dist; runnable alone:
//   node tools/reliability/gitignore.js --seed 1 --count 40
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { makeRng } = require('./lib/rng');

const NEVER_ENTERED = ['.git', 'node_modules', 'target', '.trufflepig'];
const EXAMPLES_KEPT = 5;

/** The seed of case `index` of a run seeded `seed` (cases are independent of `count`). */
function caseSeed(seed, index) {
  return (Math.imul(Number(seed) >>> 0, 100003) + index * 7919 + 1) >>> 0;
}

// Directories of the generated tree and the file names each may hold. A name that is also
// a subdirectory's (`deeper`, `x`) is left out where that subdirectory exists.
const DIRS = ['', 'a', 'a/deeper', 'a/deeper/x', 'b', 'b/deeper', 'build', 'src', 'src/sub', 'DIR', 'x'];
const NAMES = [
  'b.txt',
  'B.TXT',
  'a.Txt',
  'c.txt',
  'x.log',
  'keep.log',
  '1.log',
  'x',
  'foo.c',
  'bar.h',
  'deeper',
  'Makefile',
  'notes.md',
  '#hash',
  'sp ace.rs',
  'trail.rs',
  'Upper.rs',
  'keep',
];
const NON_UTF8_NAME = Buffer.from([0x62, 0xff, 0x2e, 0x74, 0x78, 0x74]); // b\xff.txt
const IGNORE_DIRS = ['', 'a', 'a/deeper', 'b', 'src', 'src/sub', 'x', 'build'];
// Git syntax the walk has to agree on: case, negation of files and directories, dir-only
// rules, anchoring, `**`, character classes, escapes, comments, trailing spaces.
const RULES = [
  '*.txt',
  '*.TXT',
  '*.Txt',
  '!b.txt',
  '!*.TXT',
  '!B.TXT',
  'deeper/',
  '!deeper/',
  'deeper',
  '!deeper',
  '/x',
  'x',
  'x/',
  '!x/',
  '**/deeper',
  '**/deeper/',
  '**/deeper/**',
  'a/**',
  'a/**/x',
  '**/x/**',
  '*.[ch]',
  '[a-c].txt',
  '[!b].txt',
  '[[:upper:]]*',
  '?.log',
  '*.log',
  '!keep.log',
  '**/*.log',
  'build/',
  '!build/',
  'build/*',
  '!build/keep',
  '*',
  '!*/',
  '!*.c',
  'DIR/',
  'dir/',
  '/*.txt',
  'src/*',
  '!src/sub/',
  'deeper/*',
  '!deeper/x',
  'a/deeper/',
  '/a/deeper',
  'sub',
  'sub/',
  '#comment',
  '',
  '\\#hash',
  'x.log ',
  'trail.rs   ',
  '*.md',
  '!notes.md',
  'Makefile',
  'a/',
  '!a/',
  '/b',
  '*/deeper',
  'sp\\ ace.rs',
  'keep',
  '!keep',
  'b/**',
  '!b/deeper/**',
  '**',
  'U*',
  '*.RS',
  'src/**/*.rs',
  '/a/*/x',
];

/** One random case: the tree, the ignore files and the extras of the tracked phase (pure). */
function makeCase(seed) {
  const rng = makeRng(seed);
  const files = [];
  for (const dir of DIRS) {
    const children = new Set(
      DIRS.filter((d) => d !== dir && path.posix.dirname(d || '.') === (dir || '.')).map((d) => path.posix.basename(d)),
    );
    for (const name of NAMES) if (!children.has(name) && rng.chance(0.35)) files.push(dir ? `${dir}/${name}` : name);
  }
  const ignoreFiles = {};
  for (const dir of IGNORE_DIRS) {
    if (!rng.chance(dir === '' ? 0.9 : 0.45)) continue;
    const rules = [];
    for (let n = 1 + rng.int(5); n > 0; n--) rules.push(rng.pick(RULES));
    ignoreFiles[dir ? `${dir}/.gitignore` : '.gitignore'] = `${rules.join('\n')}\n`;
  }
  const exclude = rng.chance(0.4) ? `${[rng.pick(RULES), rng.pick(RULES)].join('\n')}\n` : undefined;
  const tracked = files.filter(() => rng.chance(0.25));
  return {
    seed,
    files,
    ignoreFiles,
    exclude,
    nonUtf8Dir: rng.pick(['', 'a', 'b/deeper']),
    tracked,
    deleted: tracked.filter(() => rng.chance(0.3)),
    subdirectory: rng.pick(['a', 'b', 'src', 'a/deeper']),
    nestedIn: rng.pick(['', 'a', 'b/deeper', 'src/sub']),
    nestedRules: `${[rng.pick(RULES), rng.pick(RULES)].join('\n')}\n`,
  };
}

function git(cwd, args, env) {
  const r = spawnSync('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.error || r.status !== 0)
    throw new Error(`git ${args.join(' ')} in ${cwd}: ${r.error ? r.error.message : r.stderr.toString().trim()}`);
  return r.stdout;
}

function write(root, rel, content) {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** Phase one: the untracked tree, ignore files, a symlink, a FIFO and never-entered dirs. */
function buildUntracked(root, c, env) {
  fs.mkdirSync(root, { recursive: true });
  git(root, ['init', '-q'], env);
  for (const dir of DIRS) fs.mkdirSync(path.join(root, dir), { recursive: true });
  for (const rel of c.files) write(root, rel, `${rel}\n`);
  for (const [rel, text] of Object.entries(c.ignoreFiles)) write(root, rel, text);
  if (c.exclude) fs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), c.exclude);
  // A name that is not UTF-8 must come back byte for byte.
  fs.writeFileSync(Buffer.concat([Buffer.from(path.join(root, c.nonUtf8Dir) + '/'), NON_UTF8_NAME]), 'x\n');
  for (const rel of [
    'node_modules/p/i.js',
    'a/node_modules/q.js',
    'target/t.rs',
    'src/target',
    '.trufflepig/c',
    'b/.trufflepig',
  ])
    write(root, rel, 'x\n');
  fs.symlinkSync('a', path.join(root, 'link-dir'));
  fs.symlinkSync('b.txt', path.join(root, 'b', 'link.txt'));
  spawnSync('mkfifo', [path.join(root, 'a', 'fifo.txt')]);
}

/** Phase two: tracked files (ignored ones too), deletions, a nested repo, a submodule, a swapped directory. */
function addTracked(root, c, env) {
  const tracked = [...c.tracked, 'swap/f.txt', 'node_modules/p/i.js'];
  write(root, 'swap/f.txt', 'f\n');
  git(root, ['add', '-f', '--', ...tracked], env);
  for (const rel of c.deleted) fs.rmSync(path.join(root, rel));
  fs.renameSync(path.join(root, 'swap'), path.join(root, 'swap.real'));
  fs.symlinkSync('swap.real', path.join(root, 'swap'));
  // A nested repository with its own rules: the enclosing ones do not reach inside it.
  const nested = path.join(root, c.nestedIn, 'nested');
  fs.mkdirSync(nested, { recursive: true });
  git(nested, ['init', '-q'], env);
  for (const rel of c.files.slice(0, 6)) write(nested, rel, 'n\n');
  write(nested, '.gitignore', c.nestedRules);
  git(root, ['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`], env);
  write(root, 'sub/inside.txt', 's\n');
}

function isUnderLink(root, raw) {
  for (let i = raw.indexOf(0x2f); i !== -1; i = raw.indexOf(0x2f, i + 1)) {
    const st = fs.lstatSync(Buffer.concat([Buffer.from(`${root}/`), raw.subarray(0, i)]), { throwIfNoEntry: false });
    if (!st || !st.isDirectory()) return true;
  }
  return false;
}

function gitLsFiles(dir, env, which = ['--cached', '--others', '--exclude-standard']) {
  const out = git(dir, ['ls-files', '-z', ...which], env);
  const paths = [];
  for (let start = 0, end = out.indexOf(0); end !== -1; start = end + 1, end = out.indexOf(0, start))
    paths.push(out.subarray(start, end));
  return paths;
}

/**
 * Git's answer, as entries `latin1 path` (+ ` ->` for a symlink), sorted. An untracked
 * nested repository (listed as `dir/`) contributes what its own Git lists.
 */
function gitFileSet(root, env) {
  const seen = new Set();
  const collect = (under) => {
    const dir = under.length ? path.join(root, under.toString()) : root;
    const tracked = new Set(gitLsFiles(dir, env, ['--cached']).map((p) => p.toString('latin1')));
    for (const rel of gitLsFiles(dir, env)) {
      const raw = Buffer.concat([under, rel]);
      const neverEntered = raw
        .toString('latin1')
        .split('/')
        .some((part) => NEVER_ENTERED.includes(part));
      if (neverEntered && !tracked.has(rel.toString('latin1'))) continue;
      if (raw[raw.length - 1] === 0x2f) {
        collect(raw);
        continue;
      }
      if (isUnderLink(root, raw)) continue;
      const st = fs.lstatSync(Buffer.concat([Buffer.from(`${root}/`), raw]), { throwIfNoEntry: false });
      if (!st || !(st.isFile() || st.isSymbolicLink())) continue;
      seen.add(`${raw.toString('latin1')}${st.isSymbolicLink() ? ' ->' : ''}`);
    }
  };
  collect(Buffer.alloc(0));
  return [...seen].sort();
}

function walkedSet(result) {
  return result.files.map((f) => `${f.raw.toString('latin1')}${f.symlink ? ' ->' : ''}`).sort();
}

function difference(expected, actual) {
  const want = new Set(expected);
  const got = new Set(actual);
  return { missing: expected.filter((p) => !got.has(p)), extra: actual.filter((p) => !want.has(p)) };
}

function printable(entry) {
  return JSON.stringify(Buffer.from(entry, 'latin1').toString('utf8'));
}

/**
 * Compare one case. `walk` is `{ walkRoot, walkByRules }` (the TypeScript sources or the
 * built dist). Returns one comparison per check: `{ check, via, missing, extra }`.
 * `rules` comparisons measure the walk used outside Git (reported apart).
 */
function runCase(seed, walk, baseDir, env) {
  const c = makeCase(seed);
  const root = path.join(baseDir, `case-${seed}`, 'root');
  buildUntracked(root, c, env);
  const checks = [];
  const compare = (check, dir, result) => {
    const diff = difference(gitFileSet(dir, env), walkedSet(result));
    checks.push({ check, via: result.via, ...diff });
  };
  compare('git', root, walk.walkRoot(root));
  if (walk.walkByRules) compare('rules', root, walk.walkByRules(root));
  const sub = path.join(root, c.subdirectory);
  const subIgnored = spawnSync('git', ['check-ignore', '-q', '--no-index', '.'], { cwd: sub, env }).status === 0;
  const subResult = walk.walkRoot(sub);
  // A root Git ignores is not part of the repository: the walk reads its rules itself.
  if (subIgnored)
    checks.push({ check: 'git-subdirectory', via: subResult.via, missing: [], extra: [], expectedVia: 'rules' });
  else compare('git-subdirectory', sub, subResult);
  addTracked(root, c, env);
  compare('git-tracked', root, walk.walkRoot(root));
  fs.rmSync(path.join(baseDir, `case-${seed}`), { recursive: true, force: true });
  return { case: c, checks };
}

function failed(check) {
  const expectedVia = check.expectedVia || (check.check === 'rules' ? 'rules' : 'git');
  return check.via !== expectedVia || check.missing.length > 0 || check.extra.length > 0;
}

function describe(c, check) {
  const list = (xs) => xs.slice(0, 4).map(printable).join(', ') + (xs.length > 4 ? `, … (${xs.length})` : '');
  const rules = Object.entries(c.ignoreFiles).map(([f, t]) => `${f}: ${JSON.stringify(t.trimEnd().split('\n'))}`);
  if (c.exclude) rules.push(`.git/info/exclude: ${JSON.stringify(c.exclude.trimEnd().split('\n'))}`);
  const parts = [`case ${c.seed} ${check.check} (via ${check.via})`];
  if (check.missing.length) parts.push(`missing ${list(check.missing)}`);
  if (check.extra.length) parts.push(`extra ${list(check.extra)}`);
  parts.push(`rules ${rules.join('; ')}`);
  return parts.join(': ');
}

/**
 * A Git environment without the caller's configuration: an empty HOME, no XDG config, no
 * system file. The walk reads process.env, so it is set there for the run and restored.
 */
function isolatedEnv(home) {
  const saved = {};
  const keys = [
    'HOME',
    'XDG_CONFIG_HOME',
    'GIT_CONFIG_GLOBAL',
    'GIT_CONFIG_SYSTEM',
    'GIT_CONFIG_NOSYSTEM',
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
  ];
  for (const k of keys) saved[k] = process.env[k];
  for (const k of keys) delete process.env[k];
  process.env.HOME = home;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  const restore = () => {
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  };
  return { env: { ...process.env }, restore };
}

function loadDist() {
  const dist = path.join(__dirname, '..', '..', 'packages', 'index', 'dist');
  const { walkRoot } = require(dist);
  const { walkByRules } = require(path.join(dist, 'walk.js'));
  return { walkRoot, walkByRules };
}

/**
 * `count` seeded cases. Returns `{ attempts, failures, examples }` for the walk used in Git
 * work trees (each case: the root, a subdirectory as root, then with tracked, deleted and
 * special entries) and the same counts under `rules` for the walk used outside Git.
 */
async function run({ seed = 1, count = 40, walk } = {}) {
  const impl = walk || loadDist();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-gitignore-'));
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  const { env, restore } = isolatedEnv(home);
  const main = { attempts: 0, failures: 0, examples: [] };
  const rules = { attempts: 0, failures: 0, examples: [] };
  try {
    for (let i = 0; i < count; i++) {
      const { case: c, checks } = runCase(caseSeed(seed, i), impl, base, env);
      for (const [tally, mine] of [
        [main, checks.filter((k) => k.check !== 'rules')],
        [rules, checks.filter((k) => k.check === 'rules')],
      ]) {
        if (mine.length === 0) continue;
        tally.attempts++;
        const bad = mine.filter(failed);
        if (bad.length === 0) continue;
        tally.failures++;
        if (tally.examples.length < EXAMPLES_KEPT) tally.examples.push(describe(c, bad[0]));
      }
    }
  } finally {
    restore();
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { ...main, rules };
}

module.exports = { run, runCase, makeCase, caseSeed, failed, describe, isolatedEnv };

if (require.main === module) {
  const { parseOptions } = require('../lib/args');
  const opts = parseOptions(process.argv.slice(2), {
    name: 'gitignore',
    usage: 'usage: node tools/reliability/gitignore.js [--seed N] [--count N]',
    options: { seed: { type: 'number', default: 1 }, count: { type: 'number', default: 40 } },
  });
  run({ seed: opts.seed, count: opts.count }).then(
    (r) => {
      console.log(`gitignore (git work trees): attempts ${r.attempts}, failures ${r.failures}`);
      for (const e of r.examples) console.log(`  ${e}`);
      console.log(`gitignore (rules walk, outside git): attempts ${r.rules.attempts}, failures ${r.rules.failures}`);
      for (const e of r.rules.examples) console.log(`  ${e}`);
      process.exitCode = r.failures > 0 ? 1 : 0;
    },
    (err) => {
      console.error(`gitignore: ${err.message}`);
      process.exitCode = 2;
    },
  );
}
