// The storage engine's one door: better-sqlite3 (native SQLite 3.53, docs/storage.md). Every
// other module of the store and the query lanes reads and writes through these helpers, so
// the engine's API (statements, value types, pragmas) is written down once.
import type BetterSqlite3 from 'better-sqlite3';
import { fail, ok, type Outcome } from '../errors';
import { BUSY_TIMEOUT_MS, READER_CACHE_KIB, STATEMENTS_CACHED_MAX, WRITER_CACHE_KIB } from '../limits';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
/** What a column holds: integers arrive as numbers, BLOBs (matchinfo) as Buffers. */
export type SqlValue = number | string | Buffer | bigint | null;
export type SqlParam = number | string | Buffer | bigint | null;

// JavaScript numbers are bound as REAL: columns of INTEGER affinity convert them back, but an
// FTS4 docid does not (a REAL docid is a constraint failure), so docids are bound through
// `CAST(? AS INTEGER)`.

/** Prepared statements per connection, by SQL text: a search runs the same few dozen again and again. */
const statements = new WeakMap<Database, Map<string, Statement>>();

/** The prepared statement for `sql` on `db`, prepared on first use. */
export function statement(db: Database, sql: string): Statement {
  let byText = statements.get(db);
  if (!byText) {
    byText = new Map();
    statements.set(db, byText);
  }
  let stmt = byText.get(sql);
  if (!stmt) {
    if (byText.size >= STATEMENTS_CACHED_MAX) byText.clear();
    stmt = db.prepare(sql);
    byText.set(sql, stmt);
  }
  return stmt;
}

/** Rows of a query as arrays of column values (the cheapest shape the engine returns). */
export function allRows(db: Database, sql: string, params: readonly SqlParam[] = []): SqlValue[][] {
  return statement(db, sql)
    .raw(true)
    .all(...params) as SqlValue[][];
}

/** The first column of the first row, undefined when there is no row. */
export function oneValue(db: Database, sql: string, params: readonly SqlParam[] = []): SqlValue | undefined {
  const row = statement(db, sql)
    .raw(true)
    .get(...params) as SqlValue[] | undefined;
  return row === undefined ? undefined : row[0];
}

/** Run a statement that returns no rows. */
export function runStatement(db: Database, sql: string, params: readonly SqlParam[] = []): void {
  statement(db, sql).run(...params);
}

export interface OpenMode {
  /** Readers never write; a writer publishes generations in WAL transactions. */
  readonly access: 'read' | 'write';
}

type Engine = typeof BetterSqlite3;
let engineLoad: Outcome<Engine> | undefined;

/**
 * The engine, loaded once per process. Its native addon is compiled by `npm ci`; when that
 * build was skipped or broke, every index operation answers `storage_unavailable` with the
 * command that repairs it, instead of a crash or an "unreadable index".
 */
export function storageEngine(): Outcome<Engine> {
  if (!engineLoad) {
    try {
      const engine = require('better-sqlite3') as Engine;
      // The addon itself loads on the first connection.
      new engine(':memory:').close();
      engineLoad = ok(engine);
    } catch (err) {
      const reason = String((err as Error).message ?? err).split('\n')[0];
      engineLoad = fail(
        'storage_unavailable',
        `the SQLite engine (better-sqlite3's native addon) cannot be loaded: ${reason}; run \`npm rebuild better-sqlite3\` where trufflepig is installed (it needs g++, make and python3)`,
      );
    }
  }
  return engineLoad;
}

function engine(): Engine {
  const loaded = storageEngine();
  if (!loaded.ok) throw Object.assign(new Error(loaded.error.message), { code: loaded.error.code });
  return loaded.value;
}

/** Open a database file (it must exist). Throws the engine's error: callers decide what it means. */
export function openFile(file: string, mode: OpenMode): Database {
  const db = new (engine())(file, { readonly: mode.access === 'read', fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma(`cache_size = -${mode.access === 'read' ? READER_CACHE_KIB : WRITER_CACHE_KIB}`);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Create a new database file (it must not exist) for a writer that builds a whole generation before anyone reads it. */
export function createFile(file: string): Database {
  const db = new (engine())(file);
  // Nobody reads a staging file and a crash discards it: no journal, no syncs until it is published.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
  return db;
}

/** The engine's error code (`SQLITE_FULL`, `SQLITE_READONLY`, ...), when the error is the engine's. */
export function engineErrorCode(err: unknown): string | undefined {
  const loaded = engineLoad?.ok ? engineLoad.value : undefined;
  return loaded && err instanceof loaded.SqliteError ? err.code : undefined;
}
