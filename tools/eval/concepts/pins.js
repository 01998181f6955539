'use strict';
// SHA-256 pins of every labelled file, keyed "corpus/path": a label is a line span of
// particular bytes, so a corpus that changed underneath must fail the run, naming the file.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Every labelled (corpus, path), tasks and workspace tasks alike (a member is its corpus). */
function labelledFiles(tasks, workspaceTasks) {
  const keys = new Set();
  for (const t of tasks) for (const l of t.labels) keys.add(`${t.corpus}/${l.path}`);
  for (const t of workspaceTasks) for (const l of t.labels) keys.add(`${l.member}/${l.path}`);
  return [...keys].sort();
}

function resolve(key, roots) {
  const [corpus, ...rest] = key.split('/');
  return roots[corpus] ? path.join(roots[corpus], rest.join('/')) : null;
}

/** { "corpus/path": sha256 } for the labelled files; throws naming a missing one. */
function pin(keys, roots) {
  const out = {};
  for (const key of keys) {
    const file = resolve(key, roots);
    if (!file || !fs.existsSync(file)) throw new Error(`labelled file ${key} does not exist: fix the label`);
    out[key] = sha256(file);
  }
  return out;
}

/** Problems between the pins, the files on disk and the labels' line spans; empty when all agree. */
function verify(keys, pinned, roots, tasks, workspaceTasks) {
  const problems = [];
  for (const key of keys) {
    const file = resolve(key, roots);
    if (!(key in pinned)) problems.push(`${key}: labelled but not pinned (run --pin after reading it)`);
    else if (!file || !fs.existsSync(file)) problems.push(`${key}: pinned but missing`);
    else {
      const hash = sha256(file);
      if (hash !== pinned[key])
        problems.push(`${key}: content changed (sha256 ${hash.slice(0, 12)}…, pinned ${pinned[key].slice(0, 12)}…)`);
    }
  }
  const lineCounts = new Map();
  const check = (id, corpus, l) => {
    const key = `${corpus}/${l.path}`;
    const file = resolve(key, roots);
    if (!file || !fs.existsSync(file)) return;
    if (!lineCounts.has(key)) lineCounts.set(key, fs.readFileSync(file, 'utf8').split('\n').length);
    const [a, b] = l.lines;
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 1 && a <= b && b <= lineCounts.get(key))) {
      problems.push(`${id}: span ${a}-${b} is outside ${key} (${lineCounts.get(key)} lines)`);
    }
  };
  for (const t of tasks) for (const l of t.labels) check(t.id, t.corpus, l);
  for (const t of workspaceTasks) for (const l of t.labels) check(t.id, l.member, l);
  return problems;
}

module.exports = { labelledFiles, pin, verify, sha256 };
