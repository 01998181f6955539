#!/usr/bin/env node
'use strict';
// Which Luau strategy recovers more definitions on the labelled Luau fixtures:
//   lua-grammar   the Lua grammar on the raw source;
//   blanked       Luau-only syntax blanked to same-length spaces, then the Lua grammar (the shipped extractor);
//   line-based    a line-oriented regex extractor (below).
// Usage: node tools/eval/languages/luau-measure.js   (needs packages/index/dist; figures go to docs/languages.md)
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { REPO_ROOT } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');

const DIR = path.join(REPO_ROOT, 'packages', 'index', 'fixtures', 'luau');
const labels = JSON.parse(fs.readFileSync(path.join(DIR, 'labels.json'), 'utf8'));
const constantName = (n) => n.length > 1 && /^[A-Z][A-Z0-9_]*$/.test(n);

/** The line-based alternative: one regex per definition form, top-level assignments at column 0 only. */
function lineBased(text) {
  const defs = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const add = (name, kind, owner, m, group) =>
      defs.push({ name, kind, owner, nameStart: offset + Buffer.byteLength(line.slice(0, m.indices[group][0])) });
    let m;
    if ((m = /^\s*local\s+function\s+([A-Za-z_]\w*)/d.exec(line))) add(m[1], 'function', null, m, 1);
    else if ((m = /^\s*function\s+([A-Za-z_][\w.]*)([.:])([A-Za-z_]\w*)/d.exec(line)))
      add(m[3], m[2] === ':' ? 'method' : 'function', m[1], m, 3);
    else if ((m = /^\s*function\s+([A-Za-z_]\w*)/d.exec(line))) add(m[1], 'function', null, m, 1);
    else if ((m = /^(?:export\s+)?type\s+([A-Za-z_]\w*)/d.exec(line))) add(m[1], 'type', null, m, 1);
    else if ((m = /^local\s+([A-Za-z_]\w*)\s*(?::[^=]*)?(=\s*function\b)?/d.exec(line)))
      add(m[1], m[2] ? 'function' : constantName(m[1]) ? 'constant' : 'variable', null, m, 1);
    else if ((m = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*=\s*(function\b)?/d.exec(line)))
      add(m[2], m[3] ? 'function' : 'field', m[1], m, 2);
    else if ((m = /^([A-Za-z_]\w*)\s*=[^=]/d.exec(line)))
      add(m[1], constantName(m[1]) ? 'constant' : 'variable', null, m, 1);
    offset += Buffer.byteLength(line) + 1;
  }
  return defs;
}

function treeSitter(raw) {
  const index = require(path.join(REPO_ROOT, 'packages', 'index', 'dist'));
  if (raw) {
    const grammars = require(path.join(REPO_ROOT, 'packages', 'index', 'dist', 'extract', 'grammars'));
    grammars.SPECS.luau = { ...grammars.SPECS.luau, prepare: undefined };
  }
  return (file) => {
    const x = index.extractFile('luau', fs.readFileSync(file));
    return {
      parse: x.parse,
      defs: x.definitions.map((d) => ({ name: d.name, kind: d.kind, owner: d.container, nameStart: d.nameStart })),
    };
  };
}

function score(extract) {
  let found = 0;
  let wrong = 0;
  let partial = 0;
  const files = [...new Set(labels.defs.map((l) => l.file))];
  for (const file of files) {
    const got = extract(path.join(DIR, file));
    if (got.parse && got.parse !== 'ok') partial++;
    for (const l of labels.defs.filter((x) => x.file === file)) {
      const d = got.defs.find((x) => x.nameStart === l.start && x.name === l.name);
      if (!d) continue;
      found++;
      if (d.kind !== l.kind || (d.owner ?? null) !== l.owner) wrong++;
    }
  }
  return {
    expected: labels.defs.length,
    found,
    recall: +(found / labels.defs.length).toFixed(3),
    wrongKindOrOwner: wrong,
    filesWithParseErrors: partial,
  };
}

const opts = parseOptions(process.argv.slice(2), {
  name: 'luau-measure',
  usage:
    'usage: node tools/eval/languages/luau-measure.js   (--one STRATEGY: one strategy, the child process of a run)',
  options: { one: { type: 'string' } },
});
if (opts.one) {
  const strategy = opts.one;
  const extract =
    strategy === 'line-based'
      ? (file) => ({ defs: lineBased(fs.readFileSync(file, 'utf8')) })
      : treeSitter(strategy === 'lua-grammar');
  process.stdout.write(JSON.stringify(score(extract)));
} else {
  // One process per strategy: the grammar module caches its parser and spec.
  for (const strategy of ['lua-grammar', 'blanked', 'line-based']) {
    const r = JSON.parse(execFileSync(process.execPath, [__filename, '--one', strategy], { encoding: 'utf8' }));
    console.log(
      `${strategy.padEnd(12)} definitions ${r.found}/${r.expected} recall ${r.recall}  wrong kind/owner ${r.wrongKindOrOwner}  files with parse errors ${r.filesWithParseErrors}`,
    );
  }
}
