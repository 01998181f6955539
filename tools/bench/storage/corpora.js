'use strict';
// The two corpora: the core benchmark's 57 MB Rust corpus and the Linux kernel from Debian's
// linux-source-6.1, optionally a documented subset of it (both assembled by tools/lib/corpus.js).
const path = require('path');
const { coreCorpus, kernelCorpus } = require('../../lib/corpus');
const { ensurePackages } = require('../index/setup');

/** The core corpus where tools/bench/index keeps it ($TMPDIR/trufflepig-bench/corpus), reused by both. */
function benchCorpus(work) {
  ensurePackages();
  const dir = path.join(path.dirname(work), 'trufflepig-bench', 'corpus');
  const summary = coreCorpus(dir);
  return {
    name: 'bench57',
    root: dir,
    note: `core benchmark corpus: ${summary.files} files, ${(summary.bytes / 1e6).toFixed(1)} MB`,
  };
}

module.exports = { benchCorpus, kernelCorpus };
