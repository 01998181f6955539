'use strict';
// Installs the benchmark's corpus and peers from Debian and assembles the fixed corpus tree.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { hasCommand } = require('../lib/proc');

const CORPUS_PACKAGES = ['librust-tokio-dev', 'librust-regex-dev', 'librust-hyper-dev', 'librust-syn-dev', 'librust-clap-dev'];
const PEER_PACKAGES = ['ripgrep', 'codesearch'];
const REGISTRY = '/usr/share/cargo/registry';

function isInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f', '${db:Status-Abbrev}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.startsWith('ii');
}

function runOrThrow(command, args) {
  console.error(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${command} ${args[0]} exited ${r.status}: install the packages by hand (as root) and rerun`);
}

/** apt-get update once, then install, only when something is missing. */
function ensurePackages() {
  const wanted = [...CORPUS_PACKAGES, ...PEER_PACKAGES];
  if (!fs.existsSync('/usr/bin/time')) wanted.push('time');
  const missing = wanted.filter((p) => !isInstalled(p));
  if (missing.length === 0) return [];
  if (!hasCommand('apt-get')) throw new Error(`missing Debian packages ${missing.join(' ')} and no apt-get here`);
  runOrThrow('apt-get', ['update']);
  runOrThrow('apt-get', ['install', '-y', ...wanted]);
  return missing;
}

/** Installed packages reachable from the corpus packages the way apt-get installs them:
 * Pre-Depends, Depends and Recommends, virtual names resolved to their installed providers. */
function dependencyClosure(roots) {
  const r = spawnSync('dpkg-query', ['-W', '-f', '${db:Status-Abbrev}\t${Package}\t${Provides}\t${Pre-Depends}, ${Depends}, ${Recommends}\n'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const providers = new Map();
  const depends = new Map();
  const names = (field) => field.split(/[,|]/).map((s) => s.trim().split(/[\s:(]/)[0]).filter(Boolean);
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

/** Regular files under the cargo registry owned by the closure, as sorted absolute paths. */
function corpusSourceFiles() {
  const files = new Set();
  for (const pkg of dependencyClosure(CORPUS_PACKAGES)) {
    const r = spawnSync('dpkg', ['-L', pkg], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    for (const f of r.stdout.split('\n')) {
      if (!f.startsWith(REGISTRY + '/')) continue;
      const st = fs.lstatSync(f, { throwIfNoEntry: false });
      if (st && st.isFile()) files.add(f);
    }
  }
  return [...files].sort();
}

/** Hard-links (or copies, across file systems) the corpus into dir once; returns {files, bytes}. */
function assembleCorpus(dir) {
  const stamp = path.join(path.dirname(dir), 'corpus.manifest');
  if (fs.existsSync(stamp) && fs.existsSync(dir)) return JSON.parse(fs.readFileSync(stamp, 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  const sources = corpusSourceFiles();
  if (sources.length === 0) throw new Error(`no crate sources under ${REGISTRY}: is ${CORPUS_PACKAGES[0]} installed?`);
  for (const src of sources) {
    const dest = path.join(dir, path.relative(REGISTRY, src));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    try {
      fs.linkSync(src, dest);
    } catch {
      fs.copyFileSync(src, dest);
    }
    bytes += fs.statSync(dest).size;
  }
  const summary = { files: sources.length, bytes };
  fs.writeFileSync(stamp, JSON.stringify(summary));
  return summary;
}

module.exports = { ensurePackages, assembleCorpus, dependencyClosure, isInstalled, CORPUS_PACKAGES, PEER_PACKAGES };
