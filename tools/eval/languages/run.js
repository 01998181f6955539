#!/usr/bin/env node
'use strict';
// Language replay: indexes each fixture directory of packages/index/fixtures/<language>/
// with the built @trufflepig/index and compares with its labels.
// Usage: node tools/eval/languages/run.js [--json FILE] [--verbose] [LANGUAGE…]
//        node tools/eval/languages/run.js --write-labels   (regenerates labels.json from the annotations)
//
// Labels are written by hand as annotations in a comment on the labelled line:
//   `@def KIND [OWNER::]NAME` a definition of NAME on this line, with its kind and owner;
//   `@ref ROLE NAME[#N]`     the (N-th) occurrence of NAME on this line has ROLE.
// `--write-labels` turns them into labels.json with byte spans of the name (the span
// convention: a label's start/end are the name's bytes, never the whole definition).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { REPO_ROOT } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { walkFiles } = require('../../lib/corpus');

const FIXTURES = path.join(REPO_ROOT, 'packages', 'index', 'fixtures');
const ANNOTATION = /(\/\/|#|--)\s*@(def|ref)\b/;
const ROLE_ALIASES = { field: 'member' };

function loadIndex() {
  try {
    return require(path.join(REPO_ROOT, 'packages', 'index', 'dist'));
  } catch (err) {
    console.error(`cannot load packages/index/dist (${err.message}); build it: npx nx run @trufflepig/index:build`);
    process.exit(2);
  }
}

/** The fixture files under dir (labels.json aside), sorted. */
const sourceFiles = (dir) => walkFiles(dir, { filter: (name) => name !== 'labels.json' }).sort();

/** Byte offset of the n-th whole-word occurrence of `name` in `code` (a line's text before its annotation). */
function wordOffset(code, name, n) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, 'g');
  let m;
  let k = 0;
  while ((m = re.exec(code))) if (++k === n) return Buffer.byteLength(code.slice(0, m.index));
  return -1;
}

function labelsFromAnnotations(dir) {
  const defs = [];
  const refs = [];
  const problems = [];
  for (const file of sourceFiles(dir)) {
    const rel = path.relative(dir, file);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    let lineStart = 0;
    lines.forEach((line, i) => {
      const at = line.search(ANNOTATION);
      if (at >= 0) {
        const code = line.slice(0, at);
        const note = line.slice(at);
        for (const m of note.matchAll(/@(def|ref)\s+(\S+)\s+(\S+)/g)) {
          const [, what, kindOrRole, target] = m;
          const [spec, nth] = target.split('#');
          const cut = spec.lastIndexOf('::');
          const owner = what === 'def' && cut >= 0 ? spec.slice(0, cut) : null;
          const name = what === 'def' && cut >= 0 ? spec.slice(cut + 2) : spec;
          const offset = wordOffset(code, name, Number(nth ?? 1));
          if (offset < 0) {
            problems.push(`${rel}:${i + 1}: ${name} not found before the annotation`);
            continue;
          }
          const start = lineStart + offset;
          const label = { file: rel, line: i + 1, name, start, end: start + Buffer.byteLength(name) };
          if (what === 'def') defs.push({ ...label, kind: kindOrRole, owner });
          else refs.push({ ...label, role: ROLE_ALIASES[kindOrRole] ?? kindOrRole });
        }
      }
      lineStart += Buffer.byteLength(line) + 1;
    });
  }
  return { defs, refs, problems };
}

async function replay(index, language) {
  const dir = path.join(FIXTURES, language);
  const labels = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8'));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), `tp-languages-${language}-`));
  try {
    const rec = await index.reconcile(dir, { cacheDir: cache, parallelism: 1 });
    if (!rec.ok) throw new Error(`${rec.error.code}: ${rec.error.message}`);
    const opened = await index.IndexReader.open(cache, dir);
    if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
    const reader = opened.value;
    const files = {};
    for (const f of reader.files())
      if (f.lang !== 'text')
        files[f.path] = {
          parse: f.parse,
          defs: reader.fileDefinitions(f.path),
          imports: reader.fileImports(f.path).length,
        };
    reader.close();
    const occurrences = {};
    const falses = [];
    let defsFound = 0;
    const misses = [];
    const labelledStarts = new Set();
    for (const l of labels.defs) {
      labelledStarts.add(`${l.file}:${l.start}`);
      const d = (files[l.file]?.defs ?? []).find((x) => x.nameStart === l.start && x.name === l.name);
      if (!d) {
        misses.push(`def ${l.kind} ${l.owner ? l.owner + '::' : ''}${l.name} (${l.file}:${l.line})`);
        continue;
      }
      defsFound++;
      if (d.kind !== l.kind || (d.container ?? null) !== l.owner)
        falses.push(
          `def ${l.name} (${l.file}:${l.line}): reported ${d.kind} ${d.container ?? '-'}, labelled ${l.kind} ${l.owner ?? '-'}`,
        );
    }
    let refsFound = 0;
    for (const l of labels.refs) {
      occurrences[l.file] ??= index.extractOccurrences(
        index.languageOf(l.file),
        fs.readFileSync(path.join(dir, l.file)),
      );
      const o = occurrences[l.file].find((x) => x.start === l.start && x.name === l.name);
      if (!o) {
        misses.push(`ref ${l.role} ${l.name} (${l.file}:${l.line})`);
        continue;
      }
      if (o.role === l.role) refsFound++;
      else falses.push(`ref ${l.name} (${l.file}:${l.line}): role ${o.role}, labelled ${l.role}`);
    }
    const unlabelled = [];
    for (const [file, f] of Object.entries(files))
      for (const d of f.defs)
        if (!labelledStarts.has(`${file}:${d.nameStart}`))
          unlabelled.push(`${d.kind} ${d.container ? d.container + '::' : ''}${d.name} (${file}:${d.startLine})`);
    const parseFailures = Object.values(files).filter((f) => f.parse !== 'ok').length;
    return {
      language,
      files: Object.keys(files).length,
      parseFailures,
      defs: {
        expected: labels.defs.length,
        found: defsFound,
        recall: labels.defs.length ? defsFound / labels.defs.length : 1,
      },
      refs: {
        expected: labels.refs.length,
        found: refsFound,
        recall: labels.refs.length ? refsFound / labels.refs.length : 1,
      },
      imports: Object.values(files).reduce((n, f) => n + f.imports, 0),
      falseResults: falses,
      misses,
      unlabelled,
    };
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseOptions(process.argv.slice(2), {
    name: 'languages',
    usage: 'usage: node tools/eval/languages/run.js [--json FILE] [--verbose] [LANGUAGE…] | --write-labels',
    options: {
      json: { type: 'string', default: null },
      verbose: { type: 'boolean' },
      'write-labels': { type: 'boolean' },
    },
    positionals: true,
  });
  const json = opts.json;
  const all = fs
    .readdirSync(FIXTURES)
    .filter((d) => fs.statSync(path.join(FIXTURES, d)).isDirectory())
    .sort();
  if (opts.writeLabels) {
    for (const language of all) {
      const { defs, refs, problems } = labelsFromAnnotations(path.join(FIXTURES, language));
      for (const p of problems) console.error(`${language}: ${p}`);
      fs.writeFileSync(
        path.join(FIXTURES, language, 'labels.json'),
        JSON.stringify({ convention: 'start/end: byte span of the name', defs, refs }, null, 1) + '\n',
      );
      console.log(`${language}: ${defs.length} definitions, ${refs.length} reference sites`);
    }
    return;
  }
  const index = loadIndex();
  const chosen = opts.positionals.length ? opts.positionals : all;
  const results = [];
  console.log(
    'language     files parse-fail  defs exp/found  recall   refs exp/found  recall  imports  false  unlabelled-defs',
  );
  for (const language of chosen) {
    const r = await replay(index, language);
    results.push(r);
    console.log(
      `${language.padEnd(12)} ${String(r.files).padStart(5)} ${String(r.parseFailures).padStart(10)}  ${`${r.defs.expected}/${r.defs.found}`.padStart(14)}  ${r.defs.recall.toFixed(3)}  ${`${r.refs.expected}/${r.refs.found}`.padStart(14)}  ${r.refs.recall.toFixed(3)}  ${String(r.imports).padStart(7)}  ${String(r.falseResults.length).padStart(5)}  ${String(r.unlabelled.length).padStart(15)}`,
    );
  }
  for (const r of results) {
    for (const f of r.falseResults) console.log(`  ${r.language} FALSE ${f}`);
    for (const m of r.misses) console.log(`  ${r.language} MISSED ${m}`);
    if (opts.verbose) for (const u of r.unlabelled) console.log(`  ${r.language} unlabelled ${u}`);
  }
  if (json) fs.writeFileSync(json, JSON.stringify(results, null, 1));
  const failed = results.some((r) => r.defs.recall < 0.95 || r.falseResults.length > 0);
  console.log(
    failed
      ? 'FAIL: a language is below definition recall 0.95 or has false results'
      : 'PASS: definition recall >= 0.95 and no false results in every language',
  );
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exit(2);
});
