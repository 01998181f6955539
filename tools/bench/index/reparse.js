#!/usr/bin/env node
'use strict';
// Incremental re-parse of a repair (docs/benchmarks.md, "Incremental re-parse of a repair"):
// the extractor's parse-with-repair (parseRepaired) and its facts (treeSitterFacts) on every
// file of the given directories whose language has a repair (C, C++, C#, TypeScript), with the
// repaired text parsed from scratch ("full") and from the edited tree ("incremental"), both in
// this process, alternating per file and repetition. Prints the times and checks, for every
// file, that both ways give the same text, tree (every node's type, extent and points) and facts.
// Usage: node tools/bench/index/reparse.js [--reps N] [--limit N] [--json FILE] DIR|FILE...
const fs = require('fs');
const path = require('path');
const { REPO_ROOT, median } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { walkFiles } = require('../../lib/corpus');

const DIST = path.join(REPO_ROOT, 'packages/index/dist');
const USAGE = 'usage: node tools/bench/index/reparse.js [--reps N] [--limit N] [--json FILE] DIR|FILE...';
const MODES = ['full', 'incremental'];

function parseArgs(argv) {
  const opts = parseOptions(argv, {
    name: 'reparse',
    usage: USAGE,
    options: {
      reps: { type: 'number', default: 2 },
      limit: { type: 'number', default: Infinity },
      json: { type: 'path' },
    },
    positionals: true,
  });
  if (!Number.isInteger(opts.reps) || opts.reps < 1) throw new Error('--reps takes a whole number >= 1');
  if (opts.positionals.length === 0) throw new Error(`no directory or file given\n${USAGE}`);
  return opts;
}

function load() {
  const need = (p) => {
    const file = path.join(DIST, p);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: build first (npx nx run index:build)`);
    return require(file);
  };
  return {
    ...need('extract/treesitter.js'),
    ...need('extract/collect.js'),
    ...need('extract/grammars.js'),
    ...need('extract/text.js'),
    ...need('extract/lang/c-family.js'),
    ...need('classify.js'),
  };
}

/** The language extraction parses a file as (extract.ts, contentLanguage), or null when it has no repair. */
function languageOf(m, file, text) {
  let lang = m.extractionLanguageOf(file);
  if (lang === 'extensionless') lang = m.extensionlessLanguage(text);
  else if (lang === 'c' && m.looksLikeCpp(text)) lang = 'cpp';
  if (lang === 'text' || lang === 'dreammaker' || !m.SPECS[lang] || !m.SPECS[lang].repair) return null;
  return lang;
}

/**
 * Every node of a tree with its type, offsets, points and flags: rootNode.toString() names
 * types alone, and an edited tree differs from a fresh parse in its nodes' extents.
 */
function treeDump(tree) {
  const out = [];
  const c = tree.walk();
  for (;;) {
    out.push(
      `${c.nodeType} ${c.startIndex}-${c.endIndex} ${c.startPosition.row}:${c.startPosition.column}-${c.endPosition.row}:${c.endPosition.column}${c.nodeIsMissing ? ' missing' : ''}`,
    );
    if (c.gotoFirstChild()) continue;
    while (!c.gotoNextSibling()) if (!c.gotoParent()) return out.join('\n');
  }
}

function timeMs(fn) {
  const t = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const fmt = (ms) => ms.toFixed(1).padStart(10);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const m = load();
  // Trees hold native memory V8 does not see: collect as extraction does (extract/collect.ts),
  // between files, outside the timed parts (without it the process was killed on fs/).
  const collect = m.treeCollector();
  const files = [];
  for (const p of opts.positionals) {
    const abs = path.resolve(p);
    if (fs.statSync(abs).isDirectory()) files.push(...walkFiles(abs).sort());
    else files.push(abs);
  }
  const rows = [];
  const mismatches = [];
  let bytes = 0;
  for (const file of files) {
    if (rows.length >= opts.limit) break;
    const buf = fs.readFileSync(file);
    const decoded = m.decodeText(buf);
    const lang = languageOf(m, file, decoded.text);
    if (!lang) continue;
    bytes += buf.length;
    const { parser, spec } = m.parserFor(lang);
    const source = spec.prepare?.(decoded.text).text ?? decoded.text;
    const lineStarts = m.lineStartOffsets(buf);
    const row = {
      file,
      lang,
      bytes: buf.length,
      parse: [],
      repaired: { full: [], incremental: [] },
      facts: { full: [], incremental: [] },
    };
    const seen = {};
    for (let rep = 0; rep < opts.reps; rep++) {
      // Alternate which way goes first, so neither always runs on a warmer cache or a fresher heap.
      const order = (rows.length + rep) % 2 ? MODES : [...MODES].reverse();
      const first = timeMs(() => parser.parse(source));
      row.parse.push(first.ms);
      row.tried = first.value.rootNode.hasError;
      for (const mode of order) {
        const r = timeMs(() => m.parseRepaired(parser, spec, source, mode));
        const f = timeMs(() => m.treeSitterFacts(lang, decoded, lineStarts, mode));
        row.repaired[mode].push(r.ms);
        row.facts[mode].push(f.ms);
        if (rep === 0) {
          row.kept = r.value.text !== source;
          seen[mode] = { text: r.value.text, tree: treeDump(r.value.tree), facts: JSON.stringify(f.value) };
        }
      }
    }
    for (const what of ['text', 'tree', 'facts'])
      if (seen.full[what] !== seen.incremental[what]) mismatches.push(`${file}: ${what} differs`);
    rows.push(row);
    if (collect(buf.length * (1 + 4 * opts.reps))) await new Promise((resolve) => setImmediate(resolve));
  }
  const med = (r, key, mode) => median(mode ? r[key][mode] : r[key]);
  const tried = rows.filter((r) => r.tried);
  const total = (key, mode, list = rows) => sum(list.map((r) => med(r, key, mode)));
  const perFile = (key, mode) => median(tried.map((r) => med(r, key, mode)));
  const ratio = median(
    tried.map(
      (r) =>
        (med(r, 'repaired', 'incremental') - med(r, 'parse')) /
        Math.max(1e-3, med(r, 'repaired', 'full') - med(r, 'parse')),
    ),
  );
  const byLang = {};
  for (const r of rows) byLang[r.lang] = (byLang[r.lang] || 0) + 1;
  console.log(
    `${rows.length} files (${Object.entries(byLang)
      .map(([l, n]) => `${l} ${n}`)
      .join(
        ', ',
      )}), ${(bytes / 1e6).toFixed(1)} MB; repair tried on ${tried.length}, a rewrite kept on ${rows.filter((r) => r.kept).length}; ${opts.reps} repetitions, medians per file`,
  );
  console.log(`${''.padEnd(44)}${'full'.padStart(10)}${'increm.'.padStart(10)}  (ms)`);
  const line = (label, a, b) => console.log(`${label.padEnd(44)}${fmt(a)}${fmt(b)}`);
  line('first parse alone, all files', total('parse'), total('parse'));
  line('parse with repair, all files', total('repaired', 'full'), total('repaired', 'incremental'));
  line(
    '  of which after the first parse',
    total('repaired', 'full') - total('parse'),
    total('repaired', 'incremental') - total('parse'),
  );
  line('parse with repair, median of a repaired file', perFile('repaired', 'full'), perFile('repaired', 'incremental'));
  line('facts (treeSitterFacts), all files', total('facts', 'full'), total('facts', 'incremental'));
  console.log(`median per repaired file of (incremental / full) time after the first parse: ${ratio.toFixed(2)}`);
  console.log(
    `identity (text, tree, facts) on every file: ${mismatches.length === 0 ? 'IDENTICAL' : `${mismatches.length} MISMATCHES`}`,
  );
  for (const m of mismatches.slice(0, 20)) console.log(`  ${m}`);
  const worst = [...tried]
    .map((r) => ({ file: r.file, full: med(r, 'repaired', 'full'), incremental: med(r, 'repaired', 'incremental') }))
    .sort((a, b) => b.incremental - b.full - (a.incremental - a.full))
    .slice(0, 5);
  console.log('largest losses (parse with repair, ms):');
  for (const w of worst) console.log(`  ${w.file}  ${w.full.toFixed(1)} -> ${w.incremental.toFixed(1)}`);
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ rows, mismatches }, null, 1));
  process.exitCode = mismatches.length ? 1 : 0;
}

main().catch((e) => {
  console.error(`reparse: ${e.message}`);
  process.exitCode = 1;
});
