'use strict';
// One measurement in its own process (so RSS and timings are that candidate's alone).
// node child.js MODE JSON_ARGS; prints one JSON line (markers for the kill writer).
const fs = require('fs');
const { candidates, now } = require('./candidates');
const ops = require('./ops');

function written() {
  const io = fs.readFileSync('/proc/self/io', 'utf8');
  return Number(/wchar:\s*(\d+)/.exec(io)[1]);
}
const rss = () => process.memoryUsage().rss;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = (o) => fs.writeSync(1, `${JSON.stringify(o)}\n`);

/** The edit fixtures: per file, its region documents keyed by region id, and its text. */
function editFixtures(file) {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  return raw.files.map((f) => ({
    id: f.id,
    docs: new Map(f.docs.map(([id, body, idents]) => [id, [body, idents]])),
    text: f.text,
  }));
}

function errorCode(err) {
  const m = String(err && (err.code || err.message)).match(/SQLITE_\w+|database is locked|ENOENT|busy/i);
  return m ? m[0] : String(err && err.message).slice(0, 60);
}

const modes = {
  async load(a, cand) {
    const t = now();
    const r = await cand.load(a.dir, a.dump, { trigram: a.trigram });
    return { ...r, wallMs: now() - t, peakRss: process.resourceUsage().maxRSS * 1024 };
  },

  async read(a, cand) {
    const base = rss();
    const t = now();
    const reader = await cand.openReader(a.dir);
    const openMs = now() - t;
    const idleRss = rss();
    const ident = [];
    const free = [];
    const hits = [];
    for (const q of a.identifiers) {
      const s = now();
      hits.push(reader.identifier(q));
      ident.push(now() - s);
    }
    for (const q of a.freeText) {
      const s = now();
      hits.push(reader.freeText(q.split(/\s+/).map((w) => w.toLowerCase())));
      free.push(now() - s);
    }
    const tri = [];
    if (reader.trigram) {
      for (const q of a.substrings) {
        const s = now();
        hits.push(reader.trigram(q));
        tri.push(now() - s);
      }
    }
    const afterRss = rss();
    reader.close();
    return {
      openMs,
      files: reader.files.length,
      baseRss: base,
      idleRss,
      afterRss,
      peakRss: process.resourceUsage().maxRSS * 1024,
      ident,
      free,
      tri,
      hits,
    };
  },

  async edit(a, cand) {
    const fixtures = editFixtures(a.fixtures);
    const t = now();
    const w = await cand.openWriter(a.dir);
    if (w.prepare) await w.prepare(fixtures.map((f) => f.id));
    const openMs = now() - t;
    const ms = [];
    const bytes = [];
    const ckMs = [];
    const ckBytes = [];
    const deleteMs = [];
    for (let i = 0; i < a.count; i++) {
      const f = fixtures[i % fixtures.length];
      const b0 = written();
      const s = now();
      const d0 = ops.editFile.deleteMs;
      await w.edit(f.id, f.docs, f.text);
      ms.push(now() - s);
      deleteMs.push(ops.editFile.deleteMs - d0);
      bytes.push(written() - b0);
      if (w.checkpoint) {
        const c0 = written();
        const c = now();
        w.checkpoint();
        ckMs.push(now() - c);
        ckBytes.push(written() - c0);
      }
    }
    w.close();
    return { openMs, ms, bytes, ckMs, ckBytes, deleteMs, peakRss: process.resourceUsage().maxRSS * 1024 };
  },

  /** Publishes generations for a.durationMs (and at least a.minGenerations), each stamping a.stampIds. */
  async mixwriter(a, cand) {
    const fixtures = editFixtures(a.fixtures);
    const w = await cand.openWriter(a.dir);
    if (w.prepare) await w.prepare([...fixtures.map((f) => f.id), ...a.stampIds]);
    let generations = 0;
    const f = fixtures[0];
    await w.edit(f.id, f.docs, f.text, a.stampIds);
    fs.writeFileSync(a.readyFlag, 'ready');
    const t = now();
    while (now() - t < a.durationMs || generations < a.minGenerations) {
      await w.edit(f.id, f.docs, f.text, a.stampIds);
      generations++;
      if (w.checkpoint && generations % 5 === 0) w.checkpoint();
      await sleep(0);
    }
    w.close();
    fs.writeFileSync(a.doneFlag, 'done');
    return { generations, ms: now() - t };
  },

  /** Reads generation + stamps in a loop until the writer is done; counts mixed snapshots. */
  async mixreader(a, cand) {
    while (!fs.existsSync(a.readyFlag)) await sleep(5);
    const counts = {
      tx: { reads: 0, mixed: 0, errors: {} },
      autocommit: { reads: 0, mixed: 0, errors: {} },
      reopened: 0,
    };
    let reader;
    let i = 0;
    while (!fs.existsSync(a.doneFlag)) {
      const mode = a.keepOpen && i % 2 === 1 ? 'autocommit' : 'tx';
      const c = counts[mode];
      i++;
      try {
        // Snapshot files (sql.js) are reopened for each read, as a one-shot process would.
        if (!reader || !a.keepOpen) {
          if (reader) reader.close();
          reader = undefined;
          reader = await cand.openReader(a.dir);
          counts.reopened++;
        }
        const s = reader.snapshot(a.stampIds, mode === 'tx', a.gapMs);
        c.reads++;
        if (s.stamps.length !== a.stampIds.length || s.stamps.some((x) => x !== `g${s.generation}`)) c.mixed++;
      } catch (err) {
        const code = errorCode(err);
        c.errors[code] = (c.errors[code] || 0) + 1;
        if (reader && !a.keepOpen) {
          try {
            reader.close();
          } catch {
            /* */
          }
          reader = undefined;
        }
        await sleep(1);
      }
      await sleep(0);
    }
    if (reader) reader.close();
    return counts;
  },

  /** The kill test's writer: one large generation, markers printed as it goes. */
  async killwriter(a, cand) {
    const w = await cand.openWriter(a.dir);
    const t0 = now();
    out({ marker: 'open' });
    await w.bigGeneration((m) => out({ marker: m, at: now() - t0 }));
    w.close();
    return { ok: true };
  },

  /** Opens the database as a writer would (read-write: SQLite rolls a hot journal back) and closes it. */
  async recover(a, cand) {
    try {
      const w = await cand.openWriter(a.dir);
      w.close();
      return { ok: true };
    } catch (err) {
      return { ok: false, error: errorCode(err) };
    }
  },

  /** Opens a database file with native SQLite (better-sqlite3, read-write) and closes it: its hot-journal rollback. */
  async recoverNative(a) {
    try {
      const Database = require('better-sqlite3');
      const db = new Database(require('path').join(a.dir, 'index.db'));
      const quick = db.prepare('PRAGMA quick_check').pluck().get();
      db.close();
      return { ok: true, quickCheck: quick };
    } catch (err) {
      return { ok: false, error: errorCode(err) };
    }
  },

  async check(a, cand) {
    try {
      const reader = await cand.openReader(a.dir);
      const c = reader.check();
      const hits = reader.identifier(a.identifier);
      reader.close();
      return { ok: true, ...c, hits };
    } catch (err) {
      return { ok: false, error: errorCode(err), message: String(err.message).slice(0, 200) };
    }
  },
};

async function main() {
  const [mode, json] = process.argv.slice(2);
  const a = JSON.parse(json);
  const cand = candidates(a.segments).find((c) => c.name === a.candidate);
  const result = await modes[mode](a, cand);
  out({ result });
}

main().catch((err) => {
  out({ error: String(err && err.stack ? err.stack : err) });
  process.exit(1);
});
