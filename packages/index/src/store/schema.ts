import { SCHEMA_VERSION } from '../limits';
import type { Database } from './sql';
import { oneValue, runStatement } from './sql';
import { DEFINITION_DDL, DEFINITION_INDEXES } from './definitions';
import { TRIGRAM_DDL } from './trigrams';
import { USE_DDL } from './uses';

/**
 * One database per root. Paths are percent-encoded; spans are byte offsets of the file at
 * `file.revision`. The FTS table is contentless (the text lives in the files, keeping the
 * index small); a region removed by a later generation leaves a dead FTS document that no
 * `region` row joins, and the FTS table is rebuilt when too many accumulate. Region ids are
 * AUTOINCREMENT so a new region never reuses the docid of a dead document (which would
 * make the removed text match the new region). Definitions are store/definitions.ts's,
 * uses store/uses.ts's.
 */
const DDL = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE file(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, lang TEXT NOT NULL, tags TEXT NOT NULL,
  size INTEGER NOT NULL, mtime TEXT NOT NULL, ino INTEGER NOT NULL, revision TEXT, extractor TEXT,
  excluded TEXT, parse TEXT NOT NULL, fact_limited INTEGER NOT NULL DEFAULT 0, lines INTEGER NOT NULL DEFAULT 0);
CREATE TABLE name(text TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE imports(
  file INTEGER NOT NULL, spelled TEXT NOT NULL, name TEXT, alias TEXT, reexport INTEGER NOT NULL,
  start INTEGER NOT NULL, end INTEGER NOT NULL, line INTEGER NOT NULL);
CREATE TABLE region(
  id INTEGER PRIMARY KEY AUTOINCREMENT, file INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
  sl INTEGER NOT NULL, el INTEGER NOT NULL, symbol TEXT);
CREATE TABLE commits(
  id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL UNIQUE, date TEXT NOT NULL, subject TEXT NOT NULL,
  bytes INTEGER NOT NULL, lines INTEGER NOT NULL, paths TEXT NOT NULL, more_paths INTEGER NOT NULL);
`;

/** Secondary indexes. (Dropping them for a first load and building them after saved no time and cost 150 MB of peak memory.) */
const SECONDARY_INDEXES: readonly [string, string][] = [
  ['file_revision', 'file(revision)'],
  // A file's definitions (a hit's enclosing definition, map, ctx): without it each of those
  // scanned every definition of the root (84 of 139 ms of a served kernel search).
  ...DEFINITION_INDEXES,
  ['region_file', 'region(file)'],
  // Import following reads the imports of one file at a time.
  ['imports_file', 'imports(file)'],
  // Every reconcile reports files, bytes, exclusions and parse failures: a scan of this
  // covering index instead of the file table (63 of ~250 ms of a one-file kernel reconcile).
  ['file_summary', 'file(excluded, parse, size)'],
];

/** Create the secondary indexes an index built by an earlier release may lack (in the writer's transaction). */
export function createSecondaryIndexes(db: Database): void {
  for (const [name, on] of SECONDARY_INDEXES) db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
}

export const FTS_DDL = `CREATE VIRTUAL TABLE fts USING fts4(body, idents, content='', tokenize=unicode61 "remove_diacritics=0")`;

/**
 * Commit messages live in their own contentless FTS table (the text stays in Git): in the
 * files' table they would change every file's BM25 statistics, and with them the shared
 * ranking that docs/spec/per-source.md keeps byte-for-byte. Docids are commit row ids.
 */
export const COMMIT_FTS_DDL = `CREATE VIRTUAL TABLE commit_fts USING fts4(body, idents, content='', tokenize=unicode61 "remove_diacritics=0")`;

export function createSchema(db: Database): void {
  db.exec(DDL);
  db.exec(DEFINITION_DDL);
  db.exec(USE_DDL);
  db.exec(TRIGRAM_DDL);
  createSecondaryIndexes(db);
  db.exec(FTS_DDL);
  db.exec(COMMIT_FTS_DDL);
  setMeta(db, 'schema', String(SCHEMA_VERSION));
  setMeta(db, 'generation', '0');
}

export function getMeta(db: Database, key: string): string | undefined {
  const v = oneValue(db, 'SELECT value FROM meta WHERE key = ?', [key]);
  return v == null ? undefined : String(v);
}

export function setMeta(db: Database, key: string, value: string): void {
  runStatement(db, 'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [
    key,
    value,
  ]);
}
