'use strict';
// The three members' corpora, assembled once under the work directory and reused:
// Rust crate sources (the core benchmark's corpus), PHP from php-laravel-framework and
// TypeScript from an npm package that ships its sources.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { hasCommand } = require('../lib/proc');
const { assembleCorpus, dependencyClosure, isInstalled, CORPUS_PACKAGES } = require('../bench/setup');

const PHP_PACKAGE = 'php-laravel-framework';
const PHP_TREE = '/usr/share/php';
// effect ships its TypeScript sources under src/ (~360 .ts files, ~7 MB); pinned so every
// run measures the same bytes.
const TS_PACKAGE = 'effect@3.22.4';
const TS_KEEP = ['package/src', 'package/package.json'];

function run(command, args, options = {}) {
  console.error(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
  if (r.error) throw new Error(`${command} failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}`);
  return r.stdout;
}

/** Installs the Debian packages the corpora come from, when missing (apt-get update once). */
function ensureDebianPackages() {
  const wanted = [...CORPUS_PACKAGES, PHP_PACKAGE];
  if (!fs.existsSync('/usr/bin/time')) wanted.push('time');
  const missing = wanted.filter((p) => !isInstalled(p));
  if (missing.length === 0) return [];
  if (!hasCommand('apt-get')) throw new Error(`missing Debian packages ${missing.join(' ')} and no apt-get here`);
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  apt(['update']);
  apt(['install', '-y', ...missing]);
  return missing;
}

function dirStats(dir) {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = dirStats(full);
      files += sub.files;
      bytes += sub.bytes;
    } else if (entry.isFile()) {
      files += 1;
      bytes += fs.statSync(full).size;
    }
  }
  return { files, bytes };
}

/** Runs `build(tmp)` into a sibling temp dir and renames it into place, then stamps it:
 * an interrupted preparation leaves no half corpus that a later run would reuse. */
function once(dir, build) {
  const stamp = `${dir}.manifest`;
  if (fs.existsSync(stamp) && fs.existsSync(dir)) return JSON.parse(fs.readFileSync(stamp, 'utf8'));
  const tmp = `${dir}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  build(tmp);
  fs.renameSync(tmp, dir);
  const summary = dirStats(dir);
  fs.writeFileSync(stamp, JSON.stringify(summary));
  return summary;
}

function linkOrCopy(src, dest) {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  try {
    fs.linkSync(src, dest);
  } catch {
    fs.copyFileSync(src, dest);
  }
}

/** Files under /usr/share/php owned by php-laravel-framework and what apt installs with it. */
function phpSourceFiles() {
  const files = new Set();
  for (const pkg of dependencyClosure([PHP_PACKAGE])) {
    const r = spawnSync('dpkg', ['-L', pkg], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    for (const f of r.stdout.split('\n')) {
      if (!f.startsWith(PHP_TREE + '/')) continue;
      const st = fs.lstatSync(f, { throwIfNoEntry: false });
      if (st && st.isFile()) files.add(f);
    }
  }
  return [...files].sort();
}

function buildPhp(dir) {
  const sources = phpSourceFiles();
  if (sources.length === 0) throw new Error(`no PHP sources under ${PHP_TREE}: is ${PHP_PACKAGE} installed?`);
  for (const src of sources) linkOrCopy(src, path.join(dir, path.relative(PHP_TREE, src)));
}

/** `npm pack` into a temp dir (never the repository's dependencies), keep src/ and package.json. */
function buildTs(dir) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-ws-npm-'));
  try {
    const out = run('npm', ['pack', TS_PACKAGE, '--silent'], { cwd: scratch });
    const tarball = out.trim().split('\n').pop();
    run('tar', ['-xzf', path.join(scratch, tarball), '-C', dir, '--strip-components=1', ...TS_KEEP]);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Assembles (or reuses) every member's corpus under `work`; returns [{name, dir, files, bytes, source}]. */
function prepareCorpora(work) {
  const installed = ensureDebianPackages();
  if (installed.length) console.log(`installed: ${installed.join(' ')}`);
  const rustDir = path.join(work, 'rust', 'corpus');
  const phpDir = path.join(work, 'php', 'corpus');
  const tsDir = path.join(work, 'ts', 'corpus');
  fs.mkdirSync(path.dirname(rustDir), { recursive: true });
  fs.mkdirSync(path.dirname(phpDir), { recursive: true });
  fs.mkdirSync(path.dirname(tsDir), { recursive: true });
  return [
    { name: 'rust', dir: rustDir, source: `crates of ${CORPUS_PACKAGES.join(' ')} (+ deps)`, ...assembleCorpus(rustDir) },
    { name: 'php', dir: phpDir, source: `${PHP_PACKAGE} (+ deps) under ${PHP_TREE}`, ...once(phpDir, buildPhp) },
    { name: 'ts', dir: tsDir, source: `npm ${TS_PACKAGE} src/`, ...once(tsDir, buildTs) },
  ];
}

module.exports = { prepareCorpora, dirStats, TS_PACKAGE, PHP_PACKAGE };
