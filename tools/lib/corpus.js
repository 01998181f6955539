'use strict';
// The one corpus module of tools/: the directory walk, hard-linking or copying files into a
// corpus, building a tree once behind a stamp, where corpora come from (Debian packages,
// npm tarballs), and the corpora that more than one tool measures: the core Rust crates,
// effect's TypeScript sources and the Linux kernel. A tool's own corpora (the agent replay's
// Git repositories, the workspace bench's PHP member, the smoke's npm packages) are defined
// in the tool and assembled with these functions.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { run, hasCommand } = require('./proc');

// ---------------------------------------------------------------- walking a tree

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Every entry under `dir`, depth first, a directory before its contents: { path, name,
 * dirent }. `sorted` visits each directory's entries by name (code units), so the order is
 * the same on every run; `ignoreErrors` skips a directory that cannot be read instead of
 * throwing. Symbolic links are reported, never followed.
 */
function* walkEntries(dir, { sorted = false, ignoreErrors = false } = {}) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (ignoreErrors) return;
    throw err;
  }
  if (sorted) entries.sort(byName);
  for (const dirent of entries) {
    const full = path.join(dir, dirent.name);
    yield { path: full, name: dirent.name, dirent };
    if (dirent.isDirectory()) yield* walkEntries(full, { sorted, ignoreErrors });
  }
}

/** Absolute paths of the regular files under `dir` (walkEntries' options; `filter(name, path)` keeps some). */
function walkFiles(dir, { filter, ...options } = {}) {
  const out = [];
  for (const e of walkEntries(dir, options))
    if (e.dirent.isFile() && (!filter || filter(e.name, e.path))) out.push(e.path);
  return out;
}

/** Regular files under `dir` and their bytes: { files, bytes }. */
function treeStats(dir) {
  let files = 0;
  let bytes = 0;
  for (const file of walkFiles(dir)) {
    files += 1;
    bytes += fs.statSync(file).size;
  }
  return { files, bytes };
}

/** Apparent bytes of everything under `p` that is not a directory (links counted, not followed); `p`'s own size when it is not a directory. */
function diskBytes(p) {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of walkEntries(p)) if (!e.dirent.isDirectory()) n += fs.lstatSync(e.path).size;
  return n;
}

// ---------------------------------------------------------------- copying and building once

/** Hard-links `src` to `dest` (or copies it, across file systems), making dest's directory. */
function linkOrCopy(src, dest) {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  try {
    fs.linkSync(src, dest);
  } catch {
    fs.copyFileSync(src, dest);
  }
}

/**
 * Runs `build(tmp)` into a sibling temp dir and renames it to `dir`, then writes a stamp
 * (`DIR.manifest` unless `stamp` names another file) holding { files, bytes } and, when
 * given, `sources`: an interrupted build leaves no half corpus that a later run would reuse.
 * A stamp and a directory already there are reused when the stamp names the same sources.
 * Returns the stamp's content.
 */
function buildOnce(dir, build, { stamp = `${dir}.manifest`, sources } = {}) {
  if (fs.existsSync(stamp) && fs.existsSync(dir)) {
    const known = JSON.parse(fs.readFileSync(stamp, 'utf8'));
    if (sources === undefined || JSON.stringify(known.sources) === JSON.stringify(sources)) return known;
  }
  const tmp = `${dir}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(stamp, { force: true });
  fs.mkdirSync(tmp, { recursive: true });
  build(tmp);
  fs.renameSync(tmp, dir);
  const summary = { ...treeStats(dir), ...(sources === undefined ? {} : { sources }) };
  fs.writeFileSync(stamp, JSON.stringify(summary));
  return summary;
}

// ---------------------------------------------------------------- Debian packages

function isInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f', '${db:Status-Abbrev}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.startsWith('ii');
}

/**
 * Installs the missing ones of `packages` (apt-get update once, then apt-get install -y;
 * through sudo when not root); returns the names it installed. Run as root, or install
 * them first.
 */
function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !isInstalled(p));
  if (missing.length === 0) return [];
  if (!hasCommand('apt-get')) throw new Error(`missing Debian packages ${missing.join(' ')} and no apt-get here`);
  const sudo = process.getuid && process.getuid() !== 0 && hasCommand('sudo');
  const apt = (args) =>
    sudo
      ? run('sudo', ['apt-get', ...args], { echo: true, stderr: 'inherit', env: { DEBIAN_FRONTEND: 'noninteractive' } })
      : run('apt-get', args, { echo: true, stderr: 'inherit', env: { DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update']);
  apt(['install', '-y', ...missing]);
  return missing;
}

/** Installed packages reachable from `roots` the way apt-get installs them:
 * Pre-Depends, Depends and Recommends, virtual names resolved to their installed providers. */
function dependencyClosure(roots) {
  const r = spawnSync(
    'dpkg-query',
    ['-W', '-f', '${db:Status-Abbrev}\t${Package}\t${Provides}\t${Pre-Depends}, ${Depends}, ${Recommends}\n'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const providers = new Map();
  const depends = new Map();
  const names = (field) =>
    field
      .split(/[,|]/)
      .map((s) => s.trim().split(/[\s:(]/)[0])
      .filter(Boolean);
  for (const line of r.stdout.split('\n')) {
    const [status, pkg, provides, deps] = line.split('\t');
    if (!status || !status.startsWith('ii')) continue;
    for (const name of [pkg, ...names(provides)]) {
      if (!providers.has(name)) providers.set(name, []);
      providers.get(name).push(pkg);
    }
    depends.set(pkg, names(deps || ''));
  }
  const seen = new Set();
  const queue = [...roots];
  while (queue.length) {
    const pkg = queue.pop();
    if (seen.has(pkg)) continue;
    seen.add(pkg);
    for (const dep of depends.get(pkg) || []) for (const p of providers.get(dep) || []) queue.push(p);
  }
  return [...seen].sort();
}

/** Regular files under `tree` owned by `packages` and their dependency closure, as sorted absolute paths. */
function debianFiles(packages, tree) {
  const files = new Set();
  for (const pkg of dependencyClosure(packages)) {
    const r = spawnSync('dpkg', ['-L', pkg], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    for (const f of r.stdout.split('\n')) {
      if (!f.startsWith(tree + '/')) continue;
      const st = fs.lstatSync(f, { throwIfNoEntry: false });
      if (st && st.isFile()) files.add(f);
    }
  }
  return [...files].sort();
}

/** Hard-links (or copies) `files`, each at its path relative to `tree`, into `dir`. */
function linkFiles(files, tree, dir) {
  for (const src of files) linkOrCopy(src, path.join(dir, path.relative(tree, src)));
}

// ---------------------------------------------------------------- npm tarballs

/** `npm pack SPEC` into `dir` (the registry's ordinary client; never the repository's
 * dependencies); returns the tarball's path. */
function npmPack(spec, dir) {
  const out = run('npm', ['pack', spec, '--silent'], { cwd: dir, echo: true, stderr: 'inherit' });
  return path.join(dir, out.trim().split('\n').pop());
}

/** Unpacks a .tgz into `dest` without its top directory (`package/`); `members` limits it
 * to those paths of the tarball, `extra` adds tar options. */
function untar(tarball, dest, { members = [], extra = [] } = {}) {
  run('tar', ['-xzf', tarball, '-C', dest, '--strip-components=1', ...extra, ...members]);
}

/** Runs `use(scratch)` with a fresh temp directory, removed afterwards. */
function withScratch(prefix, use) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return use(scratch);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- shared corpora

/** The core benchmark corpus: crate sources of five Debian Rust packages and what apt installs with them. */
const CORE_PACKAGES = [
  'librust-tokio-dev',
  'librust-regex-dev',
  'librust-hyper-dev',
  'librust-syn-dev',
  'librust-clap-dev',
];
const CARGO_REGISTRY = '/usr/share/cargo/registry';

/**
 * The core corpus hard-linked (or copied) into `dir` once: every regular file under the
 * cargo registry owned by CORE_PACKAGES' dependency closure (about 5,200 files, 57 MB).
 * The packages must be installed. Returns { files, bytes }; `DIR.manifest` stamps it.
 */
function coreCorpus(dir) {
  return buildOnce(dir, (tmp) => {
    const sources = debianFiles(CORE_PACKAGES, CARGO_REGISTRY);
    if (sources.length === 0)
      throw new Error(`no crate sources under ${CARGO_REGISTRY}: is ${CORE_PACKAGES[0]} installed?`);
    linkFiles(sources, CARGO_REGISTRY, tmp);
  });
}

/** effect ships its TypeScript sources under src/ (~360 .ts files, ~7 MB); pinned so every run measures the same bytes. */
const TS_PACKAGE = 'effect@3.22.4';
const TS_KEEP = ['package/src', 'package/package.json'];

/** `src/` and `package.json` of TS_PACKAGE in `dir` once (`npm pack` into a temp dir); returns { files, bytes }. */
function tsCorpus(dir) {
  return buildOnce(dir, (tmp) =>
    withScratch('tp-ts-corpus-', (scratch) => untar(npmPack(TS_PACKAGE, scratch), tmp, { members: TS_KEEP })),
  );
}

const KERNEL_PACKAGE = 'linux-source-6.1';
const KERNEL_TARBALL = '/usr/src/linux-source-6.1.tar.xz';

/** Drops the Debian packaging block (`/*` ignores everything at the top level) from the tarball's .gitignore. */
function dropDebianIgnoreBlock(tree) {
  const file = path.join(tree, '.gitignore');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('# Debian packaging'));
  if (at < 0) return;
  let start = at;
  while (start > 0 && lines[start - 1].trim() === '#') start--;
  fs.writeFileSync(file, `${lines.slice(0, start).join('\n').trimEnd()}\n`);
}

/**
 * The Linux kernel from Debian's linux-source-6.1 under WORK/kernel (installed with apt-get
 * and unpacked once; or `preparedTree`, a tree already unpacked), as a Git repository with
 * every file added; with `subset` (top-level directories) a second tree of hard links
 * holding only those. Returns { name, root, note }.
 */
function kernelCorpus(work, subset, preparedTree) {
  if (!preparedTree) ensureDebianPackages([KERNEL_PACKAGE]);
  const unpacked = path.join(work, 'kernel');
  const tree = preparedTree || path.join(unpacked, 'linux-source-6.1');
  if (!fs.existsSync(path.join(tree, 'Makefile'))) {
    fs.mkdirSync(unpacked, { recursive: true });
    run('tar', ['-xJf', KERNEL_TARBALL, '-C', unpacked], { echo: true, stderr: 'inherit' });
  }
  let root = tree;
  if (subset && subset.length) {
    root = path.join(work, `kernel-${subset.join('+').replace(/\//g, '_')}`);
    if (!fs.existsSync(root)) {
      fs.mkdirSync(root, { recursive: true });
      for (const f of ['.gitignore', 'Makefile', 'README', 'COPYING'])
        fs.copyFileSync(path.join(tree, f), path.join(root, f));
      for (const d of subset) {
        // A nested subset (`fs/ext4`) needs its parent directories first.
        fs.mkdirSync(path.dirname(path.join(root, d)), { recursive: true });
        run('cp', ['-al', path.join(tree, d), path.join(root, d)], { echo: true, stderr: 'inherit' });
      }
    }
  }
  if (!fs.existsSync(path.join(root, '.git'))) {
    dropDebianIgnoreBlock(root);
    run('git', ['init', '-q'], { cwd: root, echo: true, stderr: 'inherit' });
    run('git', ['add', '-A'], { cwd: root, echo: true, stderr: 'inherit' });
  }
  const count = run('git', ['ls-files'], { cwd: root }).split('\n').filter(Boolean).length;
  const note =
    subset && subset.length
      ? `Linux 6.1 SUBSET ${subset.join(' ')}: ${count} tracked files`
      : `Linux 6.1 (whole tree): ${count} tracked files`;
  return { name: subset && subset.length ? 'kernel-subset' : 'kernel', root, note };
}

/** A workspace file naming `members` ([{ name, dir }]), written in `work`, next to (not inside) their roots. */
function writeWorkspaceFile(work, name, members) {
  const file = path.join(work, 'trufflepig.workspace.toml');
  const lines = ['[workspace]', `name = "${name}"`, `members = [${members.map((m) => `"${m.name}"`).join(', ')}]`];
  for (const m of members) lines.push('', `[members.${m.name}]`, `path = ${JSON.stringify(m.dir)}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

module.exports = {
  walkEntries,
  walkFiles,
  treeStats,
  diskBytes,
  linkOrCopy,
  linkFiles,
  buildOnce,
  isInstalled,
  ensureDebianPackages,
  dependencyClosure,
  debianFiles,
  npmPack,
  untar,
  withScratch,
  CORE_PACKAGES,
  CARGO_REGISTRY,
  coreCorpus,
  TS_PACKAGE,
  tsCorpus,
  KERNEL_PACKAGE,
  kernelCorpus,
  dropDebianIgnoreBlock,
  writeWorkspaceFile,
};
