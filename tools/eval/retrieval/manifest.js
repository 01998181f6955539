'use strict';
// SHA-256 pinning of the fixture tree: labels are byte spans, so any byte change must be a
// deliberate, reviewed relabelling and never a silent drift.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { walkFiles } = require('../../lib/corpus');

/** Every file under dir as a sorted '/'-separated relative path. */
const listFiles = (dir) =>
  walkFiles(dir)
    .map((f) => path.relative(dir, f).split(path.sep).join('/'))
    .sort();

/** { relativePath: sha256hex } for every file under dir. */
function hashTree(dir) {
  const manifest = {};
  for (const rel of listFiles(dir)) {
    manifest[rel] = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, rel)))
      .digest('hex');
  }
  return manifest;
}

/** Problems between the pinned manifest and the files on disk; empty when they agree. */
function compareManifest(pinned, actual) {
  const problems = [];
  for (const [rel, hash] of Object.entries(actual)) {
    if (!(rel in pinned)) problems.push(`${rel}: not pinned (new fixture file)`);
    else if (pinned[rel] !== hash)
      problems.push(`${rel}: content changed (sha256 ${hash.slice(0, 12)}…, pinned ${pinned[rel].slice(0, 12)}…)`);
  }
  for (const rel of Object.keys(pinned)) if (!(rel in actual)) problems.push(`${rel}: pinned but missing`);
  return problems;
}

/** Labels that cannot be right for the pinned files (unknown path, span outside the file). */
function checkLabels(cases, fixturesDir, pinned) {
  const problems = [];
  for (const c of cases) {
    for (const e of c.expected) {
      if (!(e.path in pinned)) problems.push(`case "${c.query}": expected path ${e.path} is not a pinned fixture`);
      else if (!(e.start >= 0 && e.start < e.end && e.end <= fs.statSync(path.join(fixturesDir, e.path)).size)) {
        problems.push(`case "${c.query}": span ${e.start}-${e.end} is outside ${e.path}`);
      }
    }
  }
  return problems;
}

module.exports = { hashTree, compareManifest, checkLabels };
