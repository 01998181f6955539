'use strict';
// The three members' corpora, assembled once under the work directory and reused:
// Rust crate sources (the core benchmark's corpus), PHP from php-laravel-framework and
// TypeScript from an npm package that ships its sources (both shared corpora are
// tools/lib/corpus.js's; the PHP member is this bench's own).
const fs = require('fs');
const path = require('path');
const {
  CORE_PACKAGES,
  TS_PACKAGE,
  coreCorpus,
  tsCorpus,
  buildOnce,
  debianFiles,
  linkFiles,
  ensureDebianPackages,
} = require('../../lib/corpus');

const PHP_PACKAGE = 'php-laravel-framework';
const PHP_TREE = '/usr/share/php';

/** Files under /usr/share/php owned by php-laravel-framework and what apt installs with it, linked into dir. */
function buildPhp(dir) {
  const sources = debianFiles([PHP_PACKAGE], PHP_TREE);
  if (sources.length === 0) throw new Error(`no PHP sources under ${PHP_TREE}: is ${PHP_PACKAGE} installed?`);
  linkFiles(sources, PHP_TREE, dir);
}

/** Assembles (or reuses) every member's corpus under `work`; returns [{name, dir, files, bytes, source}]. */
function prepareCorpora(work) {
  const wanted = [...CORE_PACKAGES, PHP_PACKAGE];
  if (!fs.existsSync('/usr/bin/time')) wanted.push('time');
  const installed = ensureDebianPackages(wanted);
  if (installed.length) console.log(`installed: ${installed.join(' ')}`);
  const rustDir = path.join(work, 'rust', 'corpus');
  const phpDir = path.join(work, 'php', 'corpus');
  const tsDir = path.join(work, 'ts', 'corpus');
  fs.mkdirSync(path.dirname(rustDir), { recursive: true });
  fs.mkdirSync(path.dirname(phpDir), { recursive: true });
  fs.mkdirSync(path.dirname(tsDir), { recursive: true });
  return [
    { name: 'rust', dir: rustDir, source: `crates of ${CORE_PACKAGES.join(' ')} (+ deps)`, ...coreCorpus(rustDir) },
    { name: 'php', dir: phpDir, source: `${PHP_PACKAGE} (+ deps) under ${PHP_TREE}`, ...buildOnce(phpDir, buildPhp) },
    { name: 'ts', dir: tsDir, source: `npm ${TS_PACKAGE} src/`, ...tsCorpus(tsDir) },
  ];
}

module.exports = { prepareCorpora, PHP_PACKAGE };
