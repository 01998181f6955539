'use strict';
// The two corpora: the core benchmark's 57 MB Rust corpus (tools/bench/setup.js) and the
// Linux kernel from Debian's linux-source-6.1, optionally a documented subset of it.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ensurePackages, assembleCorpus, isInstalled } = require('../bench/setup');

const KERNEL_PACKAGE = 'linux-source-6.1';
const KERNEL_TARBALL = '/usr/src/linux-source-6.1.tar.xz';

function run(command, args, options = {}) {
  console.error(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}`);
}

function benchCorpus(work) {
  ensurePackages();
  const dir = path.join(path.dirname(work), 'trufflepig-bench', 'corpus');
  const summary = assembleCorpus(dir);
  return { name: 'bench57', root: dir, note: `core benchmark corpus: ${summary.files} files, ${(summary.bytes / 1e6).toFixed(1)} MB` };
}

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
 * The kernel tree under work/kernel (unpacked once), as a Git repository with every file
 * added (or `preparedTree`, a tree already unpacked); with `subset` (top-level directories) a second tree of hard links holding only those.
 */
function kernelCorpus(work, subset, preparedTree) {
  if (!preparedTree && !isInstalled(KERNEL_PACKAGE)) {
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', KERNEL_PACKAGE]);
  }
  const unpacked = path.join(work, 'kernel');
  const tree = preparedTree || path.join(unpacked, 'linux-source-6.1');
  if (!fs.existsSync(path.join(tree, 'Makefile'))) {
    fs.mkdirSync(unpacked, { recursive: true });
    run('tar', ['-xJf', KERNEL_TARBALL, '-C', unpacked]);
  }
  let root = tree;
  if (subset && subset.length) {
    root = path.join(work, `kernel-${subset.join('+').replace(/\//g, '_')}`);
    if (!fs.existsSync(root)) {
      fs.mkdirSync(root, { recursive: true });
      for (const f of ['.gitignore', 'Makefile', 'README', 'COPYING']) fs.copyFileSync(path.join(tree, f), path.join(root, f));
      for (const d of subset) run('cp', ['-al', path.join(tree, d), path.join(root, d)]);
    }
  }
  if (!fs.existsSync(path.join(root, '.git'))) {
    dropDebianIgnoreBlock(root);
    run('git', ['init', '-q'], { cwd: root });
    run('git', ['add', '-A'], { cwd: root });
  }
  const count = spawnSync('git', ['ls-files'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).stdout.split('\n').filter(Boolean).length;
  const note = subset && subset.length ? `Linux 6.1 SUBSET ${subset.join(' ')}: ${count} tracked files` : `Linux 6.1 (whole tree): ${count} tracked files`;
  return { name: subset && subset.length ? 'kernel-subset' : 'kernel', root, note };
}

module.exports = { benchCorpus, kernelCorpus, dropDebianIgnoreBlock };
