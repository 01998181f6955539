'use strict';
// The four candidates, each with the same operations: load(dump), openReader(), openWriter().
// A reader: files, identifier(name), freeText(words), trigram(text)?, snapshot(ids, tx), check(), close().
// A writer: edit(fileId, docs, triText), stampGeneration(ids, fileId, docs), bigGeneration(markers), close().
const fs = require('fs');
const path = require('path');
const ops = require('./ops');
const { openSqlJs, openBetter, openWasm } = require('./engines');
const { readDump } = require('./dump');

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Accumulates the time spent inside engine calls (dump decoding is not counted). */
class Clock {
  constructor() {
    this.ms = 0;
  }
  async run(fn) {
    const t = now();
    try {
      return await fn();
    } finally {
      this.ms += now() - t;
    }
  }
}

function writeSynced(file, bytes) {
  const fd = fs.openSync(file, 'w', 0o600);
  try {
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir) {
  const fd = fs.openSync(dir, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

/** What publishDatabase does today: a staging file written and flushed, then renamed over. */
function publishFile(dir, name, bytes, hook = () => {}) {
  const staging = path.join(dir, `${name}.staging-${process.pid}`);
  writeSynced(staging, bytes);
  hook('written');
  fs.renameSync(staging, path.join(dir, name));
  fsyncDir(dir);
}

const fileBytes = (dir) => fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);

// ---------- SQL-level reader shared by all candidates (one or more databases) ----------

function identifierAcross(nameDb, dbs, flavour, name) {
  const id = ops.nameId(nameDb, name);
  let uses = 0;
  let hits = [];
  for (const d of dbs) {
    uses += ops.useRows(d, id).length;
    hits = hits.concat(ops.ftsQuery(d, flavour, ops.expression(ops.identifierTokens(name), 'phrase')));
  }
  return uses + hits.length;
}

function freeTextAcross(dbs, flavour, words) {
  let n = 0;
  for (const mode of ['phrase', 'all', 'any']) {
    let hits = [];
    for (const d of dbs) hits = hits.concat(ops.ftsQuery(d, flavour, ops.expression(words, mode)));
    hits.sort((a, b) => b.score - a.score);
    n += hits.length;
  }
  return n;
}

/** Busy-waits: a gap between a snapshot's two statements, so a commit can land between them. */
function spin(ms) {
  const until = now() + ms;
  while (now() < until) {
    /* spin */
  }
}

function snapshotOf(d, ids) {
  const stamps = d
    .rows(`SELECT mtime FROM file WHERE id IN (${ids.map(() => '?').join(',')})`, ids)
    .map((r) => String(r[0]));
  return stamps;
}

// ---------- (a) sql.js, one database, whole-file export on publish (today) ----------

const sqljsOne = {
  name: 'sqljs-one',
  label: 'sql.js, one database (today)',
  engine: 'sql.js',
  flavour: 'fts4',
  async load(dir, dump) {
    const clock = new Clock();
    const d = await clock.run(() => openSqlJs());
    const stmts = new Map();
    for (const rec of readDump(dump)) {
      if (rec.t === 'schema')
        await clock.run(() => {
          d.exec('PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN');
          ops.createSchema(d, rec.rows, 'fts4');
        });
      else if (rec.t !== 'tri') await clock.run(() => ops.insertRecord(d, 'fts4', rec, stmts));
    }
    await clock.run(() => {
      for (const s of stmts.values()) s.free();
      d.exec('COMMIT');
      publishFile(dir, 'index.sqlite', d.raw.export());
      d.close();
    });
    return { engineMs: clock.ms, bytes: fileBytes(dir) };
  },
  async openReader(dir) {
    const d = await openSqlJs(fs.readFileSync(path.join(dir, 'index.sqlite')));
    const files = ops.readFiles(d);
    return {
      files,
      identifier: (name) => identifierAcross(d, [d], 'fts4', name),
      freeText: (words) => freeTextAcross([d], 'fts4', words),
      // A snapshot in memory: the transaction flag changes nothing here.
      snapshot: (ids, tx, gapMs = 0) => {
        const generation = ops.getGeneration(d);
        spin(gapMs);
        return { generation, stamps: snapshotOf(d, ids) };
      },
      check: () => ({
        generation: ops.getGeneration(d),
        fingerprint: ops.bigWriteFingerprint(d),
        quickCheck: String(d.rows('PRAGMA quick_check')[0][0]),
      }),
      close: () => d.close(),
    };
  },
  async openWriter(dir) {
    const d = await openSqlJs(fs.readFileSync(path.join(dir, 'index.sqlite')));
    let generation = ops.getGeneration(d);
    const publish = (hook) => publishFile(dir, 'index.sqlite', d.raw.export(), hook);
    return {
      edit(fileId, docs, triText, stampIds) {
        generation++;
        d.exec('BEGIN');
        ops.editFile(d, 'fts4', fileId, docs, null, generation);
        if (stampIds) ops.stampFiles(d, stampIds, generation);
        ops.setGeneration(d, generation);
        d.exec('COMMIT');
        publish();
        return generation;
      },
      bigGeneration(mark) {
        generation++;
        mark('begin');
        d.exec('BEGIN');
        ops.bigWrite(d);
        ops.setGeneration(d, generation);
        d.exec('COMMIT');
        mark('commit');
        publish(mark);
        mark('done');
      },
      close: () => d.close(),
    };
  },
};

// ---------- (b) sql.js split into segments by path hash, each published on its own ----------

const SEGMENT_BASE_TABLES = new Set(['meta', 'name', 'commits']);

function pathShard(p, count) {
  let h = 2166136261;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 16777619) >>> 0;
  return h % count;
}

function readManifest(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
}

/** Writes a manifest (all-or-nothing by rename) and removes segment files neither it nor its predecessor names. */
function publishManifest(dir, manifest, previous) {
  publishFile(dir, 'manifest.json', Buffer.from(JSON.stringify(manifest)));
  const keep = new Set([
    manifest.base,
    ...manifest.segments,
    ...(previous ? [previous.base, ...previous.segments] : []),
  ]);
  for (const f of fs.readdirSync(dir))
    if (f.endsWith('.sqlite') && !keep.has(f)) fs.rmSync(path.join(dir, f), { force: true });
}

function segmented(count) {
  return {
    name: 'sqljs-seg',
    label: `sql.js, ${count} segments + base`,
    engine: 'sql.js',
    flavour: 'fts4',
    segments: count,
    async load(dir, dump) {
      const clock = new Clock();
      const base = await clock.run(() => openSqlJs());
      const segs = [];
      for (let i = 0; i < count; i++) segs.push(await clock.run(() => openSqlJs()));
      const stmts = [base, ...segs].map(() => new Map());
      const shardOfFile = new Map();
      for (const rec of readDump(dump)) {
        if (rec.t === 'schema') {
          await clock.run(() => {
            for (const d of [base, ...segs]) {
              d.exec('PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN');
              ops.createSchema(d, rec.rows, 'fts4');
            }
          });
          continue;
        }
        if (rec.t === 'tri') continue;
        if (SEGMENT_BASE_TABLES.has(rec.t)) {
          await clock.run(() => ops.insertRecord(base, 'fts4', rec, stmts[0]));
          continue;
        }
        const fileCol = rec.t === 'file' ? rec.cols.indexOf('id') : rec.t === 'fts' ? 3 : rec.cols.indexOf('file');
        if (rec.t === 'file')
          for (const r of rec.rows) shardOfFile.set(r[fileCol], pathShard(String(r[rec.cols.indexOf('path')]), count));
        const parts = segs.map(() => []);
        for (const r of rec.rows) parts[shardOfFile.get(r[fileCol])].push(r);
        await clock.run(() =>
          parts.forEach((rows, i) => rows.length && ops.insertRecord(segs[i], 'fts4', { ...rec, rows }, stmts[i + 1])),
        );
      }
      await clock.run(() => {
        const manifest = {
          generation: ops.getGeneration(base),
          base: 'base.g0.sqlite',
          segments: segs.map((_, i) => `s${String(i).padStart(3, '0')}.g0.sqlite`),
        };
        [base, ...segs].forEach((d, i) => {
          for (const s of stmts[i].values()) s.free();
          d.exec('COMMIT');
          writeSynced(path.join(dir, i === 0 ? manifest.base : manifest.segments[i - 1]), d.raw.export());
          d.close();
        });
        publishManifest(dir, manifest, null);
      });
      return { engineMs: clock.ms, bytes: fileBytes(dir) };
    },
    async openReader(dir) {
      // Read the manifest once, then the files it names (kept for one more generation).
      const manifest = readManifest(dir);
      const open = async (f) => openSqlJs(fs.readFileSync(path.join(dir, f)));
      const base = await open(manifest.base);
      const segs = [];
      for (const f of manifest.segments) segs.push(await open(f));
      const files = segs.flatMap((d) => ops.readFiles(d));
      return {
        files,
        identifier: (name) => identifierAcross(base, segs, 'fts4', name),
        freeText: (words) => freeTextAcross(segs, 'fts4', words),
        snapshot: (ids, tx, gapMs = 0) => {
          spin(gapMs);
          return { generation: manifest.generation, stamps: segs.flatMap((d) => snapshotOf(d, ids)) };
        },
        check: () => {
          const fp = [0, 0, 0];
          let quick = 'ok';
          for (const d of segs) {
            ops.bigWriteFingerprint(d).forEach((v, i) => {
              fp[i] += v;
            });
            const q = String(d.rows('PRAGMA quick_check')[0][0]);
            if (q !== 'ok') quick = q;
          }
          return { generation: manifest.generation, fingerprint: fp, quickCheck: quick };
        },
        close: () => [base, ...segs].forEach((d) => d.close()),
      };
    },
    async openWriter(dir) {
      let manifest = readManifest(dir);
      const loaded = new Map(); // segment index -> database, loaded when first written
      const segmentOf = async (i) => {
        if (!loaded.has(i)) loaded.set(i, await openSqlJs(fs.readFileSync(path.join(dir, manifest.segments[i]))));
        return loaded.get(i);
      };
      // Which segment holds a file: the shard of its path (one lookup per file, cached).
      const shardCache = new Map();
      const shardOf = async (fileId) => {
        if (!shardCache.has(fileId)) {
          for (let i = 0; i < manifest.segments.length && !shardCache.has(fileId); i++) {
            const d = await segmentOf(i);
            const r = d.rows('SELECT path FROM file WHERE id = ?', [fileId]);
            if (r.length) shardCache.set(fileId, pathShard(String(r[0][0]), manifest.segments.length));
          }
        }
        return shardCache.get(fileId);
      };
      const publish = (changed, generation, mark = () => {}) => {
        const next = { ...manifest, generation, segments: [...manifest.segments] };
        for (const i of changed) {
          const name = `s${String(i).padStart(3, '0')}.g${generation}.sqlite`;
          writeSynced(path.join(dir, name), loaded.get(i).raw.export());
          next.segments[i] = name;
          mark('written');
        }
        publishManifest(dir, next, manifest);
        manifest = next;
      };
      return {
        async prepare(fileIds) {
          for (const id of fileIds) await shardOf(id);
        },
        async edit(fileId, docs, triText, stampIds) {
          const generation = manifest.generation + 1;
          const changed = new Set([await shardOf(fileId)]);
          const e = await segmentOf(await shardOf(fileId));
          e.exec('BEGIN');
          ops.editFile(e, 'fts4', fileId, docs, null, generation);
          e.exec('COMMIT');
          for (const id of stampIds || []) {
            const i = await shardOf(id);
            changed.add(i);
            ops.stampFiles(await segmentOf(i), [id], generation);
          }
          publish([...changed], generation);
          return generation;
        },
        async bigGeneration(mark) {
          const generation = manifest.generation + 1;
          mark('begin');
          for (let i = 0; i < manifest.segments.length; i++) ops.bigWrite(await segmentOf(i));
          mark('commit');
          publish([...loaded.keys()], generation, mark);
          mark('done');
        },
        close: () => {
          for (const d of loaded.values()) d.close();
        },
      };
    },
  };
}

// ---------- (c) node-sqlite3-wasm and (d) better-sqlite3: one database file, FTS5 ----------

function fileEngine({ name, label, engine, open, journal }) {
  const dbFile = (dir) => path.join(dir, 'index.db');
  const configure = (d) => {
    d.exec('PRAGMA busy_timeout = 5000');
  };
  return {
    name,
    label,
    engine,
    flavour: 'fts5',
    journal,
    async load(dir, dump, { trigram = true } = {}) {
      const clock = new Clock();
      const d = await clock.run(() => open(dbFile(dir)));
      // A cold build writes a new file with no journal, then switches it to its reading mode.
      await clock.run(() => d.exec('PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536; BEGIN'));
      const stmts = new Map();
      for (const rec of readDump(dump)) {
        if (rec.t === 'schema') await clock.run(() => ops.createSchema(d, rec.rows, 'fts5'));
        else if (rec.t !== 'tri') await clock.run(() => ops.insertRecord(d, 'fts5', rec, stmts));
      }
      await clock.run(() => {
        for (const s of stmts.values()) s.free();
        stmts.clear();
        d.exec('COMMIT');
      });
      const engineMs = clock.ms;
      const bytesNoTri = fileBytes(dir);
      let triMs = null;
      if (trigram) {
        const tri = new Clock();
        await tri.run(() => {
          d.exec('BEGIN');
          d.exec(ops.TRI_DDL);
        });
        for (const rec of readDump(dump))
          if (rec.t === 'tri') await tri.run(() => ops.insertRecord(d, 'fts5', rec, stmts));
        await tri.run(() => {
          for (const s of stmts.values()) s.free();
          d.exec('COMMIT');
        });
        triMs = tri.ms;
      }
      await clock.run(() => {
        d.exec(`PRAGMA journal_mode=${journal}`);
        d.close();
      });
      return { engineMs, triMs, bytesNoTri, bytes: fileBytes(dir) };
    },
    async openReader(dir) {
      const d = open(dbFile(dir), { readonly: true });
      configure(d);
      const files = ops.readFiles(d);
      const hasTri = d.rows("SELECT count(*) FROM sqlite_master WHERE name = 'tri'")[0][0] > 0;
      return {
        files,
        identifier: (n) => identifierAcross(d, [d], 'fts5', n),
        freeText: (words) => freeTextAcross([d], 'fts5', words),
        trigram: hasTri
          ? (text) => d.rows('SELECT rowid FROM tri WHERE tri MATCH ?', [`"${text.replace(/"/g, '""')}"`]).length
          : undefined,
        snapshot: (ids, tx, gapMs = 0) => {
          if (tx) d.exec('BEGIN');
          try {
            const generation = ops.getGeneration(d);
            spin(gapMs);
            return { generation, stamps: snapshotOf(d, ids) };
          } finally {
            if (tx) d.exec('COMMIT');
          }
        },
        check: () => ({
          generation: ops.getGeneration(d),
          fingerprint: ops.bigWriteFingerprint(d),
          quickCheck: String(d.rows('PRAGMA quick_check')[0][0]),
        }),
        close: () => d.close(),
      };
    },
    async openWriter(dir) {
      const d = open(dbFile(dir));
      configure(d);
      d.exec('PRAGMA synchronous=FULL');
      let generation = ops.getGeneration(d);
      const hasTri = d.rows("SELECT count(*) FROM sqlite_master WHERE name = 'tri'")[0][0] > 0;
      return {
        edit(fileId, docs, triText, stampIds) {
          generation++;
          d.exec('BEGIN IMMEDIATE');
          ops.editFile(d, 'fts5', fileId, docs, hasTri ? triText : null, generation);
          if (stampIds) ops.stampFiles(d, stampIds, generation);
          ops.setGeneration(d, generation);
          d.exec('COMMIT');
          return generation;
        },
        checkpoint: journal === 'WAL' ? () => d.rows('PRAGMA wal_checkpoint(TRUNCATE)') : undefined,
        bigGeneration(mark) {
          generation++;
          mark('begin');
          d.exec('BEGIN IMMEDIATE');
          ops.bigWrite(d);
          ops.setGeneration(d, generation);
          mark('commit');
          d.exec('COMMIT');
          mark('done');
        },
        close: () => d.close(),
      };
    },
  };
}

const wasm = fileEngine({
  name: 'wasm',
  label: 'node-sqlite3-wasm 0.8, FTS5, rollback journal',
  engine: 'node-sqlite3-wasm',
  open: openWasm,
  journal: 'DELETE',
});
const better = fileEngine({
  name: 'better',
  label: 'better-sqlite3 12.11.1, FTS5, WAL',
  engine: 'better-sqlite3',
  open: openBetter,
  journal: 'WAL',
});

function candidates(segmentCount) {
  return [sqljsOne, segmented(segmentCount), wasm, better];
}

module.exports = { candidates, pathShard, now };
