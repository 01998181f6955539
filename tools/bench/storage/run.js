#!/usr/bin/env node
'use strict';
// Storage-engine benchmark (issue 15, deliverable 1): the real indexer's rows loaded into
// each candidate, measured side by side in one run. See tools/README.md.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { requireCli, DEFAULT_CLI } = require('../../lib/proc');
const { parseOptions } = require('../../lib/args');
const { walkFiles } = require('../../lib/corpus');
const { benchCorpus, kernelCorpus } = require('./corpora');
const { writeDump, readDump } = require('./dump');
const { candidates } = require('./candidates');
const { queriesFor } = require('./queries');
const { measureInstalls } = require('./install');
const report = require('./report');

const CHILD = path.join(__dirname, 'child.js');
const EDIT_FILES = 5;
/** The mix reader's pause between reading the generation and the stamps (in both modes). */
const MIX_GAP_MS = 2;

function parseArgs(argv) {
  const o = parseOptions(argv, {
    name: 'bench-storage',
    usage:
      'usage: node tools/bench/storage/run.js [--corpus bench57,kernel] [--kernel-subset fs,kernel,...] [--kernel-tree DIR] [--work DIR] [--segments N] [--rounds N] [--only NAMES] [--no-install] [--reindex] [--json FILE] [--cli PATH]',
    options: {
      corpus: { type: 'list', default: ['bench57', 'kernel'] },
      work: { type: 'path', default: path.join(os.tmpdir(), 'trufflepig-bench-storage') },
      'kernel-tree': { type: 'path' },
      'kernel-subset': { type: 'list' },
      segments: { type: 'number' },
      rounds: { type: 'number', default: 3 },
      'no-install': { type: 'boolean' },
      only: { type: 'list', default: null },
      json: { type: 'path' },
      cli: { type: 'path', default: DEFAULT_CLI },
      reindex: { type: 'boolean' },
    },
  });
  return {
    corpus: o.corpus,
    work: o.work,
    kernelTree: o.kernelTree,
    subset: o.kernelSubset,
    segments: o.segments,
    rounds: o.rounds,
    edits: 5,
    mixMs: 3000,
    install: !o.noInstall,
    only: o.only,
    json: o.json,
    cli: o.cli,
    reindex: o.reindex,
  };
}

function child(mode, args) {
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', CHILD, mode, JSON.stringify(args)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const last = r.stdout.trim().split('\n').pop();
  const parsed = last ? JSON.parse(last) : { error: `no output (exit ${r.status}, signal ${r.signal})` };
  if (parsed.error) throw new Error(`${mode} ${args.candidate}: ${parsed.error}`);
  return parsed.result;
}

function childAsync(mode, args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, mode, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    p.stdout.on('data', (d) => {
      buf += d;
    });
    p.on('close', () => {
      try {
        const parsed = JSON.parse(buf.trim().split('\n').pop());
        if (parsed.error) reject(new Error(parsed.error));
        else resolve(parsed.result);
      } catch (err) {
        reject(err);
      }
    });
  });
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Runs the real indexer once into work/cache-NAME (kept for reruns); returns its index file and timing. */
function indexCorpus(corpus, opts) {
  const cache = path.join(opts.work, `cache-${corpus.name}`);
  const stamp = path.join(opts.work, `index-${corpus.name}.json`);
  if (!opts.reindex && fs.existsSync(stamp)) return JSON.parse(fs.readFileSync(stamp, 'utf8'));
  fs.rmSync(cache, { recursive: true, force: true });
  console.error(`indexing ${corpus.root} (the built CLI, --no-daemon)...`);
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', '%e %M', process.execPath, opts.cli, '--no-daemon', '--root', corpus.root, '--cache', cache, 'index'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new Error(`index of ${corpus.root} failed: ${r.stderr.slice(-2000)}`);
  const [secs, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  const found = walkFiles(cache, { filter: (name) => name === 'index.sqlite' })[0];
  const result = { indexFile: found, seconds: secs, peakRss: kb * 1024, bytes: fs.statSync(found).size };
  fs.writeFileSync(stamp, JSON.stringify(result));
  return result;
}

async function dumpCorpus(corpus, index, opts) {
  const dump = path.join(opts.work, `dump-${corpus.name}.bin`);
  const stamp = `${dump}.json`;
  if (!opts.reindex && fs.existsSync(stamp) && JSON.parse(fs.readFileSync(stamp, 'utf8')).indexFile === index.indexFile)
    return { dump, ...JSON.parse(fs.readFileSync(stamp, 'utf8')) };
  console.error(`reading ${index.indexFile} with sql.js into ${dump}...`);
  const t = Date.now();
  const r = await writeDump(index.indexFile, corpus.root, dump);
  const result = { indexFile: index.indexFile, ...r, ms: Date.now() - t };
  fs.writeFileSync(stamp, JSON.stringify(result));
  return { dump, ...result };
}

/** Edit fixtures: EDIT_FILES files of median size with regions, and stamp files spread over the segments. */
function editFixtures(corpus, dump, opts, segments) {
  const file = path.join(opts.work, `fixtures-${corpus.name}.json`);
  const files = [];
  const regionsOf = new Map();
  for (const rec of readDump(dump)) {
    if (rec.t === 'file') {
      const c = (n) => rec.cols.indexOf(n);
      for (const r of rec.rows)
        if (r[c('excluded')] == null)
          files.push({ id: r[c('id')], path: String(r[c('path')]), size: Number(r[c('size')]) });
    } else if (rec.t === 'region') {
      const fc = rec.cols.indexOf('file');
      for (const r of rec.rows) regionsOf.set(r[fc], (regionsOf.get(r[fc]) || 0) + 1);
    }
  }
  const withRegions = files.filter((f) => regionsOf.get(f.id)).sort((a, b) => a.size - b.size || a.id - b.id);
  const mid = Math.floor(withRegions.length / 2);
  const chosen = withRegions.slice(mid, mid + EDIT_FILES);
  const { pathShard } = require('./candidates');
  const stampIds = [];
  const shards = new Set();
  for (const f of withRegions) {
    const s = pathShard(f.path, segments);
    if (shards.has(s)) continue;
    shards.add(s);
    stampIds.push(f.id);
    if (stampIds.length === 8) break;
  }
  const want = new Map(chosen.map((f) => [f.id, { id: f.id, path: f.path, size: f.size, docs: [], text: null }]));
  for (const rec of readDump(dump)) {
    if (rec.t === 'fts') for (const r of rec.rows) if (want.has(r[3])) want.get(r[3]).docs.push([r[0], r[1], r[2]]);
    if (rec.t === 'tri') for (const r of rec.rows) if (want.has(r[0])) want.get(r[0]).text = r[1];
  }
  fs.writeFileSync(file, JSON.stringify({ files: [...want.values()], stampIds }));
  return { file, stampIds, chosen: chosen.map((f) => `${f.path} (${f.size} B)`) };
}

const dirOf = (opts, corpus, cand, suffix = '') => path.join(opts.work, `db-${corpus.name}`, `${cand.name}${suffix}`);

function freshDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function copyDir(from, to) {
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
  return to;
}

async function mixTest(opts, corpus, cand, dir, fixtures, segments) {
  const flags = {
    readyFlag: path.join(dir, '..', `${cand.name}.ready`),
    doneFlag: path.join(dir, '..', `${cand.name}.done`),
  };
  for (const f of Object.values(flags)) fs.rmSync(f, { force: true });
  const common = { candidate: cand.name, dir, segments, stampIds: fixtures.stampIds, ...flags };
  const keepOpen = cand.flavour === 'fts5';
  const [writer, reader] = await Promise.all([
    childAsync('mixwriter', { ...common, fixtures: fixtures.file, durationMs: opts.mixMs, minGenerations: 3 }),
    childAsync('mixreader', { ...common, keepOpen, gapMs: MIX_GAP_MS }),
  ]);
  for (const f of Object.values(flags)) fs.rmSync(f, { force: true });
  return { writer, reader, keepOpen };
}

/**
 * Kills a writer with SIGKILL halfway through the part of a large write that puts bytes on
 * disk (timed by a dry run on a copy): for sql.js the export and file writes after the
 * in-memory commit; for the file engines the whole transaction (pages spill to the journal,
 * WAL or database file before COMMIT). Then a fresh reader checks what is left.
 */
async function killTest(opts, corpus, cand, dir, segments, identifier) {
  const check = (target) => child('check', { candidate: cand.name, dir: target, segments, identifier });
  const before = check(dir);
  const fromMarker = cand.engine === 'sql.js' ? 'commit' : 'begin';
  const runWriter = (target, killAfter) =>
    new Promise((resolve) => {
      const p = spawn(
        process.execPath,
        [CHILD, 'killwriter', JSON.stringify({ candidate: cand.name, dir: target, segments })],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const markers = {};
      let buf = '';
      p.stdout.on('data', (d) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = JSON.parse(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
          if (line.marker) {
            markers[line.marker] ??= line.at ?? 0;
            if (line.marker === fromMarker && killAfter != null) setTimeout(() => p.kill('SIGKILL'), killAfter);
          }
        }
      });
      p.on('close', (code, signal) => resolve({ markers, code, signal }));
    });
  const dryDir = copyDir(dir, `${dir}-dry`);
  const dry = await runWriter(dryDir, null);
  const completed = check(dryDir);
  fs.rmSync(dryDir, { recursive: true, force: true });
  const windowMs = (dry.markers.done ?? 0) - (dry.markers[fromMarker] ?? 0);
  const target = copyDir(dir, `${dir}-kill`);
  const killed = await runWriter(target, Math.max(1, windowMs / 2));
  const landed =
    killed.signal !== 'SIGKILL'
      ? 'finished before the kill'
      : killed.markers.done != null
        ? 'after its last step'
        : killed.markers.commit != null
          ? 'during commit/publication'
          : 'during the write, before COMMIT';
  const leftovers = fs.readdirSync(target).map((f) => `${f} ${fs.statSync(path.join(target, f)).size}`);
  const after = check(target);
  let afterLockRemoved = null;
  let afterWriterOpen = null;
  let afterNativeOpen = null;
  const staleLock = path.join(target, 'index.db.lock');
  const leftLock = fs.existsSync(staleLock);
  if (leftLock) {
    // Two recoveries of the same post-kill state, each on its own copy: a read-only reader,
    // and a read-write open (which is what rolls a hot journal back) followed by a reader.
    // A third copy is opened read-write by native SQLite (better-sqlite3), then read by this candidate.
    const second = copyDir(target, `${target}-rw`);
    const third = copyDir(target, `${target}-native`);
    for (const d of [target, second, third]) fs.rmSync(path.join(d, 'index.db.lock'), { recursive: true, force: true });
    afterLockRemoved = check(target);
    child('recover', { candidate: cand.name, dir: second, segments });
    afterWriterOpen = check(second);
    child('recoverNative', { dir: third });
    afterNativeOpen = check(third);
    for (const d of [second, third]) fs.rmSync(d, { recursive: true, force: true });
  }
  fs.rmSync(target, { recursive: true, force: true });
  const fp = (c) => JSON.stringify(c.fingerprint);
  const outcome = (c) =>
    !c
      ? null
      : !c.ok
        ? `unreadable (${c.error})`
        : c.quickCheck !== 'ok'
          ? `corrupt (${c.quickCheck})`
          : c.generation === before.generation && fp(c) === fp(before)
            ? 'previous generation'
            : c.generation === completed.generation && fp(c) === fp(completed)
              ? 'new generation (the write had completed)'
              : 'MIXED';
  return {
    fromMarker,
    windowMs,
    landed,
    leftovers,
    leftLock,
    outcome: outcome(after),
    outcomeAfterLockRemoved: outcome(afterLockRemoved),
    outcomeAfterWriterOpen: outcome(afterWriterOpen),
    outcomeAfterNativeOpen: outcome(afterNativeOpen),
    before,
    completed,
    after,
    afterLockRemoved,
  };
}

async function measureCorpus(corpus, opts) {
  const index = indexCorpus(corpus, opts);
  const d = await dumpCorpus(corpus, index, opts);
  const segments = opts.segments || Math.max(8, Math.round(index.bytes / 5e6 / 8) * 8);
  const fixtures = editFixtures(corpus, d.dump, opts, segments);
  const q = queriesFor(corpus.name);
  const cands = candidates(segments).filter((c) => !opts.only || opts.only.includes(c.name));
  const rows = {};
  for (const cand of cands) {
    console.error(`[${corpus.name}] load ${cand.name}...`);
    const dir = freshDir(dirOf(opts, corpus, cand));
    rows[cand.name] = {
      label: cand.label,
      load: child('load', { candidate: cand.name, dir, dump: d.dump, segments, trigram: true }),
    };
  }
  const reads = Object.fromEntries(cands.map((c) => [c.name, []]));
  for (let round = 0; round < opts.rounds; round++) {
    // Interleaved, first candidate rotated, so no candidate always reads first.
    for (let k = 0; k < cands.length; k++) {
      const cand = cands[(k + round) % cands.length];
      console.error(`[${corpus.name}] read round ${round + 1} ${cand.name}...`);
      reads[cand.name].push(
        child('read', {
          candidate: cand.name,
          dir: dirOf(opts, corpus, cand),
          segments,
          identifiers: q.identifiers,
          freeText: q.freeText,
          substrings: q.substrings,
        }),
      );
    }
  }
  for (const cand of cands) {
    const rs = reads[cand.name];
    const perQuery = (key) => rs[0][key].map((_, i) => median(rs.map((r) => r[key][i])));
    rows[cand.name].read = {
      openMs: median(rs.map((r) => r.openMs)),
      idleRss: median(rs.map((r) => r.idleRss)),
      afterRss: median(rs.map((r) => r.afterRss)),
      baseRss: median(rs.map((r) => r.baseRss)),
      identMs: median(perQuery('ident')),
      freeMs: median(perQuery('free')),
      triMs: rs[0].tri.length ? median(perQuery('tri')) : null,
      files: rs[0].files,
      hits: rs[0].hits,
    };
  }
  for (const cand of cands) {
    const dir = dirOf(opts, corpus, cand);
    console.error(`[${corpus.name}] edit ${cand.name}...`);
    const e = child('edit', { candidate: cand.name, dir, segments, fixtures: fixtures.file, count: opts.edits });
    rows[cand.name].edit = {
      openMs: e.openMs,
      ms: median(e.ms),
      bytes: median(e.bytes),
      ckMs: median(e.ckMs),
      ckBytes: median(e.ckBytes),
      deleteMs: median(e.deleteMs),
      all: e,
    };
    console.error(`[${corpus.name}] mix ${cand.name}...`);
    rows[cand.name].mix = await mixTest(opts, corpus, cand, dir, fixtures, segments);
    console.error(`[${corpus.name}] kill -9 ${cand.name}...`);
    rows[cand.name].kill = await killTest(opts, corpus, cand, dir, segments, q.identifiers[0]);
  }
  return {
    corpus,
    index,
    dump: { counts: d.counts, ftsBytes: d.ftsBytes, triBytes: d.triBytes, ms: d.ms },
    segments,
    fixtures: fixtures.chosen,
    rows,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireCli(opts.cli);
  for (const dep of ['better-sqlite3', 'node-sqlite3-wasm']) {
    try {
      require.resolve(dep);
    } catch {
      throw new Error(`${dep} missing: run \`npm install\` in ${__dirname} first`);
    }
  }
  fs.mkdirSync(opts.work, { recursive: true });
  const results = {
    started: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    corpora: [],
  };
  if (opts.install) results.install = measureInstalls(opts.work);
  for (const name of opts.corpus) {
    const corpus = name === 'bench57' ? benchCorpus(opts.work) : kernelCorpus(opts.work, opts.subset, opts.kernelTree);
    results.corpora.push(await measureCorpus(corpus, opts));
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(results, null, 1));
  }
  results.finished = new Date().toISOString();
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(results, null, 1));
  process.stdout.write(report.render(results));
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
