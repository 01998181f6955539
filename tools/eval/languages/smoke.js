#!/usr/bin/env node
'use strict';
// Real-code smoke of the language extractors (issue 4): indexes real corpora with the built
// CLI and prints, per language, files indexed, parse failures, definitions per KB and 10
// `show sym:NAME` lookups checked against the declaration's path and line
// (smoke-lookups.json). Corpora are fetched once into --work (smoke-corpora.js).
// While `show sym:` answers an error (not_available before it exists), a lookup falls back
// to the first hit of `search sym:NAME` and is labelled `fallback`.
// Usage: node tools/eval/languages/smoke.js [--cli PATH] [--work DIR] [--fresh] [--json FILE] [LANGUAGE…]
const fs = require('fs');
const path = require('path');
const { DEFAULT_CLI, REPO_ROOT, requireCli, timedRun, parseJsonOutput } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { CORPORA } = require('./smoke-corpora');

/** Targets of issue 4's smoke. */
const PARSE_FAILURE_MAX_FRACTION = 0.05;
const LOOKUPS_MIN_LANDED = 9;
/** Index languages (IndexedFile.lang) that each smoke language counts. */
const LANGS_OF = { rust: ['rust'], php: ['php'], luau: ['luau'], typescript: ['typescript', 'tsx'] };

function parseArgs(argv) {
  const o = parseOptions(argv, {
    name: 'smoke',
    usage:
      'usage: node tools/eval/languages/smoke.js [--cli PATH] [--work DIR] [--fresh] [--json FILE] [rust|php|luau|typescript…]',
    options: {
      cli: { type: 'string', default: DEFAULT_CLI },
      work: { type: 'string', default: '/tmp/trufflepig-smoke' },
      fresh: { type: 'boolean' },
      json: { type: 'string', default: null },
    },
    positionals: true,
  });
  for (const a of o.positionals)
    if (!CORPORA[a]) throw new Error(`unknown argument ${a}: languages are ${Object.keys(CORPORA).join(', ')}`);
  return {
    cli: o.cli,
    work: o.work,
    fresh: o.fresh,
    json: o.json,
    languages: o.positionals.length ? o.positionals : Object.keys(CORPORA),
  };
}

function cli(opts, corpus, cache, args) {
  const r = timedRun(process.execPath, [
    opts.cli,
    '--no-workspace',
    '--no-daemon',
    '--json',
    '--root',
    corpus,
    '--cache',
    cache,
    ...args,
  ]);
  return { json: parseJsonOutput(r.stdout), status: r.status, stderr: r.stderr, seconds: r.seconds };
}

/** Per-language files, parse failures, definitions and bytes, read from the published index. */
async function indexFigures(cache, corpus, langs) {
  let index;
  try {
    index = require(path.join(REPO_ROOT, 'packages', 'index', 'dist'));
  } catch (err) {
    return { error: `cannot load packages/index/dist (${err.message})` };
  }
  const reader = await index.IndexReader.open(cache, corpus);
  if (!reader.ok) return { error: `${reader.error.code}: ${reader.error.message}` };
  const figures = { files: 0, failures: 0, failed: [], definitions: 0, bytes: 0 };
  try {
    for (const f of reader.value.files()) {
      if (!langs.includes(f.lang) || f.excluded) continue;
      figures.files++;
      figures.bytes += f.size;
      if (f.parse === 'partial' || f.parse === 'failed') {
        figures.failures++;
        figures.failed.push(`${f.path} (${f.parse})`);
      }
      figures.definitions += reader.value.fileDefinitions(f.path).length;
    }
  } finally {
    reader.value.close();
  }
  return figures;
}

/** Where an answer of `show sym:` points: the answer itself or its first definition. */
function showLanding(answer) {
  for (const c of [
    answer,
    answer && answer.definition,
    answer && answer.best,
    answer && answer.hits && answer.hits[0],
  ]) {
    if (c && typeof c.path === 'string' && Number.isInteger(c.start_line))
      return { path: c.path, line: c.start_line, endLine: c.end_line, kind: c.kind };
  }
  return null;
}

/** The expected declaration line must name the symbol: a wrong expectation is a harness error, not a miss. */
function checkExpectation(corpus, e) {
  const file = path.join(corpus, e.path);
  if (!fs.existsSync(file)) return `${e.path} does not exist`;
  const line = fs.readFileSync(file, 'utf8').split('\n')[e.line - 1] || '';
  return new RegExp(`(^|[^A-Za-z0-9_$])${e.name.replace(/[$]/g, '\\$')}([^A-Za-z0-9_$]|$)`).test(line)
    ? null
    : `${e.path}:${e.line} does not name ${e.name}`;
}

function lookup(opts, corpus, cache, e) {
  const show = cli(opts, corpus, cache, ['show', `sym:${e.name}`]);
  let via = 'show';
  let landing = show.json && !show.json.error ? showLanding(show.json) : null;
  let note = '';
  if (!landing) {
    note = show.json && show.json.error ? `show: ${show.json.error.code}` : `show: exit ${show.status}, no answer`;
    const search = cli(opts, corpus, cache, ['search', `sym:${e.name}`]);
    via = 'fallback';
    const hit = search.json && search.json.hits && search.json.hits[0];
    landing = hit ? { path: hit.path, line: hit.start_line, endLine: hit.end_line, kind: hit.kind } : null;
    if (!hit) note += search.json && search.json.error ? `; search: ${search.json.error.code}` : '; search: no hit';
  }
  const landed = landing !== null && landing.path === e.path && landing.line === e.line;
  return { ...e, via, landed, got: landing, note };
}

function pct(n, d) {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`;
}

async function smokeLanguage(opts, lang, expectations) {
  console.log(`\n== ${lang}`);
  const corpus = CORPORA[lang](opts.work);
  const cache = path.join(opts.work, lang, 'cache');
  if (opts.fresh) fs.rmSync(cache, { recursive: true, force: true });
  console.log(
    `corpus ${corpus.dir}: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(1)} MB (${corpus.sources.join(', ')})`,
  );
  const idx = cli(opts, corpus.dir, cache, ['index']);
  if (!idx.json || idx.json.error) {
    const why =
      idx.json && idx.json.error
        ? `${idx.json.error.code}: ${idx.json.error.message}`
        : (idx.stderr || '').trim().split('\n').pop();
    console.log(`index FAILED: ${why}`);
    return { lang, error: `index: ${why}`, pass: { parse: false, lookups: false } };
  }
  console.log(
    `index: ${idx.json.files} files (${idx.json.parsed} parsed) in ${idx.seconds.toFixed(1)} s, parse_failures ${idx.json.parse_failures}`,
  );
  const figures = await indexFigures(cache, corpus.dir, LANGS_OF[lang]);
  if (figures.error) console.log(`figures unavailable: ${figures.error}`);
  else {
    console.log(
      `${lang} files: ${figures.files}, parse failures: ${figures.failures} (${pct(figures.failures, figures.files)}), ` +
        `definitions: ${figures.definitions} (${(figures.definitions / (figures.bytes / 1024)).toFixed(2)} per KB)`,
    );
    for (const f of figures.failed.slice(0, 10)) console.log(`  parse failure: ${f}`);
    if (figures.failed.length > 10) console.log(`  … ${figures.failed.length - 10} more`);
  }
  const problems = expectations.map((e) => checkExpectation(corpus.dir, e)).filter(Boolean);
  if (problems.length) throw new Error(`smoke-lookups.json is wrong for ${lang}: ${problems.join('; ')}`);
  const lookups = expectations.map((e) => lookup(opts, corpus.dir, cache, e));
  for (const l of lookups) {
    const got = l.got ? `${l.got.path}:${l.got.line}${l.got.kind ? ` ${l.got.kind}` : ''}` : 'nothing';
    console.log(
      `  ${l.landed ? 'ok  ' : 'MISS'} [${l.via}] sym:${l.name} -> ${got}${l.landed ? '' : ` (expected ${l.path}:${l.line})`}${l.note ? `  (${l.note})` : ''}`,
    );
  }
  const landed = lookups.filter((l) => l.landed).length;
  const fallbacks = lookups.filter((l) => l.via === 'fallback').length;
  const files = figures.error ? idx.json.files : figures.files;
  const failures = figures.error ? idx.json.parse_failures : figures.failures;
  const pass = { parse: failures <= PARSE_FAILURE_MAX_FRACTION * files, lookups: landed >= LOOKUPS_MIN_LANDED };
  return {
    lang,
    corpus: { dir: corpus.dir, files: corpus.files, bytes: corpus.bytes, sources: corpus.sources },
    index: { files: idx.json.files, parse_failures: idx.json.parse_failures, seconds: idx.seconds },
    files,
    failures,
    definitions: figures.definitions,
    bytes: figures.bytes,
    definitions_per_kb: figures.error ? null : figures.definitions / (figures.bytes / 1024),
    lookups,
    landed,
    fallbacks,
    pass,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireCli(opts.cli);
  const expectations = JSON.parse(fs.readFileSync(path.join(__dirname, 'smoke-lookups.json'), 'utf8'));
  const results = [];
  for (const lang of opts.languages) results.push(await smokeLanguage(opts, lang, expectations[lang] || []));
  console.log('\n== summary');
  console.log('language    files  parse failures  defs/KB  lookups landed  verdict');
  for (const r of results) {
    if (r.error) {
      console.log(`${r.lang.padEnd(10)}  FAIL parse  FAIL lookups  (${r.error})`);
      continue;
    }
    const lookups = `${r.landed}/${r.lookups.length}${r.fallbacks ? ` (${r.fallbacks} fallback)` : ''}`;
    console.log(
      `${r.lang.padEnd(10)} ${String(r.files).padStart(6)}  ${`${r.failures} (${pct(r.failures, r.files)})`.padEnd(14)}  ` +
        `${r.definitions_per_kb === null ? 'n/a' : r.definitions_per_kb.toFixed(2).padStart(7)}  ${lookups.padEnd(14)}  ` +
        `${r.pass.parse ? 'PASS' : 'FAIL'} parse (<= ${PARSE_FAILURE_MAX_FRACTION * 100}%)  ${r.pass.lookups ? 'PASS' : 'FAIL'} lookups (>= ${LOOKUPS_MIN_LANDED}/10)`,
    );
  }
  if (results.some((r) => r.fallbacks))
    console.log('fallback: `show sym:` did not answer, the first hit of `search sym:NAME` was checked instead');
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ cli: opts.cli, results }, null, 2));
  process.exitCode = results.every((r) => r.pass.parse && r.pass.lookups) ? 0 : 1;
}

main().catch((err) => {
  console.error(`smoke: ${err.message}`);
  process.exit(2);
});
