'use strict';
// A fingerprint of the built CLI and its packages: other contributors rebuild while a run is
// in progress, and a run that straddles a rebuild (index format, query parser) measures
// errors, not search. Compared before and after the run.
const fs = require('fs');
const path = require('path');
const { REPO_ROOT } = require('../lib/proc');

function newestIn(dir, acc) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newestIn(full, acc);
    else if (entry.isFile()) {
      acc.files += 1;
      acc.newest = Math.max(acc.newest, fs.statSync(full).mtimeMs);
    }
  }
  return acc;
}

/** "files@newest-mtime" over apps/cli/dist and every packages/NAME/dist. */
function buildStamp(cli) {
  const dists = [path.dirname(cli)];
  const packages = path.join(REPO_ROOT, 'packages');
  for (const name of fs.existsSync(packages) ? fs.readdirSync(packages) : []) {
    const dist = path.join(packages, name, 'dist');
    if (fs.existsSync(dist)) dists.push(dist);
  }
  const acc = { files: 0, newest: 0 };
  for (const dist of dists) newestIn(dist, acc);
  return `${acc.files}@${new Date(acc.newest).toISOString()}`;
}

module.exports = { buildStamp };
