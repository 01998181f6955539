#!/usr/bin/env node
'use strict';
// Reference-resolution replay (issue 4): for every labelled reference site of the language
// fixtures (packages/index/fixtures/<language>/labels.json) whose name has exactly one
// labelled definition, runs `refs NAME` through @trufflepig/workspace and counts how the
// site resolves. A false resolution is a site reported `resolved` (or a single named
// candidate) to another definition than the labelled one. Target: zero.
// Usage: node tools/eval/languages/resolution.js [--json FILE] [LANGUAGE…]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { REPO_ROOT } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');

const FIXTURES = path.join(REPO_ROOT, 'packages', 'index', 'fixtures');

function load() {
  try {
    return require(path.join(REPO_ROOT, 'packages', 'workspace', 'dist'));
  } catch (err) {
    console.error(`cannot load packages/workspace/dist (${err.message}); build first: npm run build`);
    process.exit(2);
  }
}

async function replay(ws, language, base) {
  const labels = JSON.parse(fs.readFileSync(path.join(FIXTURES, language, 'labels.json'), 'utf8'));
  const root = path.join(base, language);
  fs.cpSync(path.join(FIXTURES, language), root, { recursive: true });
  fs.rmSync(path.join(root, 'labels.json'));
  const opts = {
    root,
    cache: path.join(base, `${language}.cache`),
    cwd: root,
    noWorkspace: true,
    noDaemon: true,
    budget: 1_000_000,
    limit: 100_000,
  };
  const indexed = await ws.indexCommand(opts);
  if (indexed.exitCode !== 0) throw new Error(`${language}: index failed: ${indexed.stdout}`);
  const defsByName = new Map();
  for (const d of labels.defs) defsByName.set(d.name, [...(defsByName.get(d.name) ?? []), d]);
  const counts = { sites: 0, resolved: 0, candidate: 0, unresolved: 0, missing: 0, false: [] };
  const byName = new Map();
  for (const r of labels.refs) {
    const defs = defsByName.get(r.name);
    if (!defs || defs.length !== 1) continue;
    byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  }
  for (const [name, refs] of byName) {
    const out = await ws.refsCommand([name], opts);
    if (out.exitCode !== 0) throw new Error(`${language}: refs ${name} failed: ${out.stdout}`);
    const hits = JSON.parse(out.stdout).hits;
    const def = defsByName.get(name)[0];
    const expected = `${def.file}:${def.line}`;
    for (const r of refs) {
      counts.sites++;
      const hit = hits.find(
        (h) =>
          h.path === r.file && h.start <= r.start && r.start < Math.max(h.end, h.start + 1) && h.start_line === r.line,
      );
      if (!hit) {
        counts.missing++;
        continue;
      }
      counts[hit.resolution]++;
      if (
        (hit.resolution === 'resolved' || hit.resolution === 'candidate') &&
        hit.definition !== undefined &&
        hit.definition !== expected
      ) {
        counts.false.push(`${r.file}:${r.line} ${name} -> ${hit.definition} (${hit.resolution}; labelled ${expected})`);
      }
    }
  }
  return counts;
}

async function main() {
  const opts = parseOptions(process.argv.slice(2), {
    name: 'resolution',
    usage: 'usage: node tools/eval/languages/resolution.js [--json FILE] [LANGUAGE…]',
    options: { json: { type: 'string' } },
    positionals: true,
  });
  const jsonFile = opts.json;
  const wanted = opts.positionals;
  const languages = (wanted.length ? wanted : fs.readdirSync(FIXTURES))
    .filter((l) => fs.existsSync(path.join(FIXTURES, l, 'labels.json')))
    .sort();
  const ws = load();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-resolution-'));
  const results = {};
  console.log('language     sites  resolved  candidate  unresolved  not-found  false');
  let falseTotal = 0;
  try {
    for (const language of languages) {
      const c = await replay(ws, language, base);
      results[language] = c;
      falseTotal += c.false.length;
      console.log(
        `${language.padEnd(12)} ${String(c.sites).padStart(5)}  ${String(c.resolved).padStart(8)}  ${String(c.candidate).padStart(9)}  ${String(c.unresolved).padStart(10)}  ${String(c.missing).padStart(9)}  ${String(c.false.length).padStart(5)}`,
      );
      for (const f of c.false) console.log(`  false: ${f}`);
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  console.log(`${falseTotal === 0 ? 'PASS' : 'FAIL'}  false resolutions: ${falseTotal} (target 0)`);
  if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(results, null, 1));
  process.exitCode = falseTotal === 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exitCode = 2;
});
