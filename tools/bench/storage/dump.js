'use strict';
// Reads the real indexer's sql.js database and writes its rows to one dump file, so every
// candidate loads exactly the same content (each in its own process, timed on its own).
//
// The FTS tables are contentless (their text lives in the files), so the FTS documents are
// rebuilt the way the index's rebuildFts does: each live region's bytes, plus
// identifierExpansions() of them, from the production build in packages/index/dist.
// Dump format: records of [u32 length][v8.serialize({ t, rows })].
const fs = require('fs');
const path = require('path');
const v8 = require('v8');
const { openSqlJs } = require('./engines');
const { REPO_ROOT } = require('../../lib/proc');

const BATCH_ROWS = 2000;
/** Tables copied row by row (the FTS tables and their shadow tables are rebuilt instead). */
const TABLES = ['meta', 'name', 'file', 'def', 'use', 'imports', 'region', 'commits'];

function productionHelpers() {
  const dist = path.join(REPO_ROOT, 'packages', 'index', 'dist');
  const { identifierExpansions } = require(path.join(dist, 'extract', 'extract.js'));
  const { percentDecode } = require(path.join(dist, 'paths.js'));
  return { identifierExpansions, percentDecode };
}

class DumpWriter {
  constructor(file) {
    this.fd = fs.openSync(file, 'w');
    this.bytes = 0;
  }
  write(record) {
    const body = v8.serialize(record);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(body.length);
    fs.writeSync(this.fd, head);
    fs.writeSync(this.fd, body);
    this.bytes += 4 + body.length;
  }
  close() {
    fs.closeSync(this.fd);
  }
}

/** Yields the dump's records in order. */
function* readDump(file) {
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(4);
  try {
    for (;;) {
      if (fs.readSync(fd, head, 0, 4, null) < 4) return;
      const len = head.readUInt32LE(0);
      const body = Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) got += fs.readSync(fd, body, got, len - got, null);
      yield v8.deserialize(body);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes the dump of `indexFile` (built for `root`) to `out`; returns counts.
 * Records: {t:'schema', rows:[[type,name,sql]]}, then each table's rows ({t, cols, rows}),
 * then {t:'fts', rows:[[docid, body, idents, fileId]]} and {t:'tri', rows:[[fileId, text]]}.
 */
async function writeDump(indexFile, root, out) {
  const { identifierExpansions, percentDecode } = productionHelpers();
  const db = await openSqlJs(fs.readFileSync(indexFile));
  const w = new DumpWriter(out);
  const counts = {};
  w.write({ t: 'schema', rows: db.rows('SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL') });
  for (const t of TABLES) {
    const cols = db.rows(`PRAGMA table_info(${t})`).map((r) => String(r[1]));
    const stmt = db.raw.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM "${t}"`);
    let batch = [];
    counts[t] = 0;
    while (stmt.step()) {
      batch.push(stmt.get());
      if (batch.length >= BATCH_ROWS) {
        w.write({ t, cols, rows: batch });
        counts[t] += batch.length;
        batch = [];
      }
    }
    stmt.free();
    if (batch.length) w.write({ t, cols, rows: batch });
    counts[t] += batch.length;
  }
  const regions = new Map();
  for (const [id, file, start, end, symbol] of db.rows(
    'SELECT id, file, start, end, symbol FROM region ORDER BY file, id',
  )) {
    if (!regions.has(file)) regions.set(file, []);
    regions.get(file).push([id, start, end, symbol]);
  }
  let fts = [];
  let tri = [];
  let ftsBytes = 0;
  let triBytes = 0;
  counts.fts = 0;
  counts.tri = 0;
  for (const [fileId, p] of db.rows('SELECT id, path FROM file WHERE excluded IS NULL ORDER BY id')) {
    let bytes;
    try {
      // Stored paths are percent-encoded bytes: decode to a Buffer path, as the index reads them.
      bytes = fs.readFileSync(Buffer.concat([Buffer.from(`${root}/`), percentDecode(String(p))]));
    } catch {
      continue;
    }
    for (const [id, start, end, symbol] of regions.get(fileId) || []) {
      const body = bytes.subarray(Number(start), Number(end)).toString('utf8');
      fts.push([id, body, identifierExpansions(body, symbol == null ? null : String(symbol)), fileId]);
      ftsBytes += body.length;
      if (fts.length >= BATCH_ROWS / 4) {
        w.write({ t: 'fts', rows: fts });
        counts.fts += fts.length;
        fts = [];
      }
    }
    tri.push([fileId, bytes.toString('utf8')]);
    triBytes += bytes.length;
    if (tri.length >= 200) {
      w.write({ t: 'tri', rows: tri });
      counts.tri += tri.length;
      tri = [];
    }
  }
  if (fts.length) w.write({ t: 'fts', rows: fts });
  if (tri.length) w.write({ t: 'tri', rows: tri });
  counts.fts += fts.length;
  counts.tri += tri.length;
  w.close();
  db.close();
  return { counts, ftsBytes, triBytes, dumpBytes: w.bytes };
}

module.exports = { writeDump, readDump, TABLES };
