'use strict';
// The Debian packages the core benchmark needs: the corpus's crates (lib/corpus.js assembles
// the corpus from them) and the tools it is measured against (rg, csearch, GNU time).
const fs = require('fs');
const { CORE_PACKAGES, ensureDebianPackages } = require('../../lib/corpus');

const PEER_PACKAGES = ['ripgrep', 'codesearch'];

/** apt-get update once, then install, only when something is missing; returns what was installed. */
function ensurePackages() {
  const wanted = [...CORE_PACKAGES, ...PEER_PACKAGES];
  if (!fs.existsSync('/usr/bin/time')) wanted.push('time');
  return ensureDebianPackages(wanted);
}

module.exports = { ensurePackages, PEER_PACKAGES };
