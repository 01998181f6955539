import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';

let engine: Promise<SqlJsStatic> | undefined;

/** The sql.js engine, initialised once per process. */
export function sqlEngine(): Promise<SqlJsStatic> {
  engine ??= initSqlJs();
  return engine;
}

export type { Database };
export type SqlValue = number | string | Uint8Array | null;

/** Rows of a query as arrays (the cheapest shape sql.js returns). */
export function allRows(db: Database, sql: string, params: SqlValue[] = []): SqlValue[][] {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const rows: SqlValue[][] = [];
    while (stmt.step()) rows.push(stmt.get() as SqlValue[]);
    return rows;
  } finally {
    stmt.free();
  }
}

export function oneValue(db: Database, sql: string, params: SqlValue[] = []): SqlValue | undefined {
  const rows = allRows(db, sql, params);
  return rows.length > 0 ? rows[0][0] : undefined;
}
