'use strict';
// The SQL every candidate runs, over the engines.js interface. Two FTS flavours:
// fts4 (sql.js today: contentless FTS4, BM25 from matchinfo in JS, dead documents left
// behind on edits) and fts5 (node-sqlite3-wasm has no FTS4; contentless FTS5 with
// contentless_delete=1, so an edit deletes its old documents; BM25 from bm25()).

const path = require('path');
const { REPO_ROOT } = require('../../lib/proc');

const FTS_SCAN_MAX = 200_000; // LANE_REGION_SCAN_MAX of packages/index/src/limits.ts

const FLAVOURS = {
  fts4: { id: 'docid', score: "matchinfo(fts, 'pcnalx')" },
  fts5: { id: 'rowid', score: 'bm25(fts, 1.0, 0.6)' },
};

const FTS5_DDL = `CREATE VIRTUAL TABLE fts USING fts5(body, idents, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0")`;
const COMMIT_FTS5_DDL = `CREATE VIRTUAL TABLE commit_fts USING fts5(body, idents, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0")`;
/** The regex-candidate table: one document per file, trigram tokens. */
const TRI_DDL = `CREATE VIRTUAL TABLE tri USING fts5(body, content='', contentless_delete=1, tokenize='trigram')`;

const isShadow = (name) => /^(fts|commit_fts)_/.test(name) || name === 'sqlite_sequence';

/** The index's schema from the source's sqlite_master rows; FTS4 tables become FTS5 for `fts5`. */
function createSchema(d, schemaRows, flavour) {
  for (const [type, name, sql] of schemaRows) {
    if (type !== 'table' || isShadow(name)) continue;
    if (flavour === 'fts5' && name === 'fts') d.exec(FTS5_DDL);
    else if (flavour === 'fts5' && name === 'commit_fts') d.exec(COMMIT_FTS5_DDL);
    else d.exec(sql);
  }
  for (const [type, , sql] of schemaRows) if (type === 'index') d.exec(sql);
}

/** Inserts one dump record (table rows or FTS documents); statements are cached in `stmts`. */
function insertRecord(d, flavour, rec, stmts) {
  let key = rec.t;
  let sql;
  let shape = (r) => r;
  if (rec.t === 'fts') {
    sql = `INSERT INTO fts(${FLAVOURS[flavour].id}, body, idents) VALUES (?,?,?)`;
    shape = (r) => [r[0], r[1], r[2]];
  } else if (rec.t === 'tri') {
    sql = 'INSERT INTO tri(rowid, body) VALUES (?,?)';
  } else {
    key = `${rec.t}:${rec.cols.join(',')}`;
    sql = `INSERT INTO "${rec.t}"(${rec.cols.map((c) => `"${c}"`).join(',')}) VALUES (${rec.cols.map(() => '?').join(',')})`;
  }
  let stmt = stmts.get(key);
  if (!stmt) {
    stmt = d.prepare(sql);
    stmts.set(key, stmt);
  }
  for (const r of rec.rows) stmt.run(shape(r));
}

// The index's own BM25 over matchinfo('pcnalx'): the sql.js candidates score as the CLI does.
const { bm25 } = require(path.join(REPO_ROOT, 'packages', 'index', 'dist'));

/** Live regions matching an FTS expression, scored, best region per file (what an FTS lane does). */
function ftsQuery(d, flavour, expression) {
  const f = FLAVOURS[flavour];
  const rows = d.rows(
    `SELECT r.id, r.file, r.start, r.end, r.sl, r.el, r.symbol, ${f.score} FROM fts JOIN region r ON r.id = fts.${f.id} WHERE fts MATCH ? LIMIT ${FTS_SCAN_MAX}`,
    [expression],
  );
  const best = new Map();
  for (const r of rows) {
    const score = flavour === 'fts4' ? bm25(r[7]) : -Number(r[7]);
    const seen = best.get(r[1]);
    if (!seen || score > seen.score) best.set(r[1], { file: r[1], start: r[2], end: r[3], score });
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

const quote = (w) => `"${w.replace(/"/g, '')}"`;
function expression(words, mode) {
  if (mode === 'phrase') return `"${words.map((w) => w.replace(/"/g, '')).join(' ')}"`;
  return words.map(quote).join(mode === 'all' ? ' ' : ' OR ');
}
const identifierTokens = (text) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Uses of one identifier (lane 2): name id from `nameDb`, use rows from `d`. */
function nameId(nameDb, name) {
  const r = nameDb.rows('SELECT id FROM name WHERE text = ?', [name]);
  return r.length ? r[0][0] : undefined;
}
function useRows(d, id) {
  return id === undefined ? [] : d.rows('SELECT file, count, roles, start, end, line FROM use WHERE name = ?', [id]);
}

/** The file table as IndexReader.files() reads it on a reader's first search. */
function readFiles(d) {
  return d.rows(
    'SELECT id, path, lang, tags, size, mtime, ino, revision, excluded, parse, fact_limited, lines FROM file ORDER BY path',
  );
}

/** Rows of one file, to delete and write back as a one-file edit. */
function fileRows(d, fileId) {
  return {
    regions: d.rows('SELECT id, file, start, end, sl, el, symbol FROM region WHERE file = ? ORDER BY id', [fileId]),
    defs: d.rows('SELECT file, name, norm, kind, container, start, end, sl, el, ns, ne FROM def WHERE file = ?', [
      fileId,
    ]),
    uses: d.rows('SELECT name, file, count, roles, start, end, line FROM use WHERE file = ?', [fileId]),
    imports: d.rows('SELECT file, spelled, name, alias, reexport, start, end, line FROM imports WHERE file = ?', [
      fileId,
    ]),
  };
}

/**
 * A one-file edit as the indexer publishes it: the file's facts and regions replaced (new
 * region ids), its FTS documents written under the new ids (fts5 also deletes the old
 * ones; fts4 leaves them dead, as today), its trigram document replaced, its file row and
 * the generation updated. `docs` maps an old region id to [body, idents]; `triText` is the
 * file's text (or null without a trigram table). Runs inside the caller's transaction.
 */
function editFile(d, flavour, fileId, docs, triText, generation) {
  const old = fileRows(d, fileId);
  const id = FLAVOURS[flavour].id;
  if (flavour === 'fts5') for (const r of old.regions) d.run(`DELETE FROM fts WHERE rowid = ?`, [r[0]]);
  // def and use have no index on `file` (as in production): these deletes scan both tables.
  const t0 = process.hrtime.bigint();
  for (const t of ['region', 'def', 'use', 'imports']) d.run(`DELETE FROM "${t}" WHERE file = ?`, [fileId]);
  editFile.deleteMs += Number(process.hrtime.bigint() - t0) / 1e6;
  let next = Number(d.rows('SELECT coalesce(max(id), 0) FROM region')[0][0]) + 1;
  const remap = [];
  for (const r of old.regions) {
    const newId = next++;
    remap.push([Number(r[0]), newId]);
    d.run('INSERT INTO region(id, file, start, end, sl, el, symbol) VALUES (?,?,?,?,?,?,?)', [newId, ...r.slice(1)]);
    const doc = docs.get(Number(r[0]));
    if (doc) d.run(`INSERT INTO fts(${id}, body, idents) VALUES (?,?,?)`, [newId, doc[0], doc[1]]);
  }
  for (const r of old.defs)
    d.run(
      'INSERT INTO def(file, name, norm, kind, container, start, end, sl, el, ns, ne) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
      r,
    );
  for (const r of old.uses)
    d.run('INSERT INTO use(name, file, count, roles, start, end, line) VALUES (?,?,?,?,?,?,?)', r);
  for (const r of old.imports)
    d.run('INSERT INTO imports(file, spelled, name, alias, reexport, start, end, line) VALUES (?,?,?,?,?,?,?,?)', r);
  if (triText != null) {
    d.run('DELETE FROM tri WHERE rowid = ?', [fileId]);
    d.run('INSERT INTO tri(rowid, body) VALUES (?,?)', [fileId, triText]);
  }
  d.run('UPDATE file SET mtime = ? WHERE id = ?', [`g${generation}`, fileId]);
  // The caller re-keys its documents by the new region ids for the next edit.
  for (const [o, n] of remap)
    if (docs.has(o)) {
      docs.set(n, docs.get(o));
      docs.delete(o);
    }
  return remap.length;
}

editFile.deleteMs = 0;

/** Marks files with a generation (the mix test reads these back with the generation). */
function stampFiles(d, ids, generation) {
  d.run(`UPDATE file SET mtime = ? WHERE id IN (${ids.map(() => '?').join(',')})`, [`g${generation}`, ...ids]);
}

function setGeneration(d, generation) {
  d.run("UPDATE meta SET value = ? WHERE key = 'generation'", [String(generation)]);
}

function getGeneration(d) {
  const r = d.rows("SELECT value FROM meta WHERE key = 'generation'");
  return r.length ? Number(r[0][0]) : NaN;
}

/** The kill test's large write: every definition, use and region row rewritten. */
function bigWrite(d) {
  d.run('UPDATE def SET sl = sl + 1');
  d.run('UPDATE use SET line = line + 1');
  d.run('UPDATE region SET sl = sl + 1');
}

/** A fingerprint of the rows bigWrite changes: equal before and after a write that did not land. */
function bigWriteFingerprint(d) {
  return d
    .rows('SELECT (SELECT sum(sl) FROM def), (SELECT sum(line) FROM use), (SELECT sum(sl) FROM region)')[0]
    .map(Number);
}

module.exports = {
  FLAVOURS,
  TRI_DDL,
  createSchema,
  insertRecord,
  ftsQuery,
  expression,
  identifierTokens,
  nameId,
  useRows,
  readFiles,
  fileRows,
  editFile,
  stampFiles,
  setGeneration,
  getGeneration,
  bigWrite,
  bigWriteFingerprint,
};
