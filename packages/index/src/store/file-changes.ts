// Which file rows each generation changed, so that a reader of a new generation can start
// from the file table of a reader of an earlier one instead of reading every row again
// (78,000 rows of the kernel: 270–400 ms, paid by the first search after every edit).
//
// A database file carries a random `index_id` (a new one whenever a file is built from
// nothing, seeded or rebuilt), `file_changes_since` and `file_changes_through`: for every
// generation after the first up to the second, `file_change` holds the id of every file
// row added, removed or updated in place by that generation. A reader may derive its file
// table from an earlier reader's only when both read the same `index_id`, the earlier
// generation is not older than `file_changes_since`, and the journal runs through the
// reader's own generation (a release that does not journal, writing the same cache,
// publishes generations the journal does not cover; the next journaling writer starts it
// over).
import { randomUUID } from 'node:crypto';
import { FILE_CHANGES_JOURNALED_MAX, FILE_CHANGE_GENERATIONS_KEPT } from '../limits';
import { getMeta, setMeta } from './schema';
import { allRows, runStatement, type Database } from './sql';

const INDEX_ID_KEY = 'index_id';
const SINCE_KEY = 'file_changes_since';
const THROUGH_KEY = 'file_changes_through';

// Created by the first publication that journals (an index of schema 9 built before it
// has no table, and its readers read every row).
const FILE_CHANGE_DDL =
  'CREATE TABLE IF NOT EXISTS file_change(generation INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY(generation, id)) WITHOUT ROWID';

/**
 * Record, inside the publishing transaction, that `generation` (the published one plus
 * one) changed the file rows `ids`. `fresh`: the database file was built from nothing (or seeded) by this
 * reconcile, so no earlier reader shares its rows. A change of more than
 * FILE_CHANGES_JOURNALED_MAX rows starts the journal over: reading them one by one
 * would cost a reader more than reading the table.
 */
export function recordFileChanges(db: Database, generation: number, ids: ReadonlySet<number>, fresh: boolean): void {
  db.exec(FILE_CHANGE_DDL);
  const since = getMeta(db, SINCE_KEY);
  const unbroken = getMeta(db, THROUGH_KEY) === String(generation - 1);
  setMeta(db, THROUGH_KEY, String(generation));
  if (fresh || getMeta(db, INDEX_ID_KEY) === undefined) setMeta(db, INDEX_ID_KEY, randomUUID());
  if (fresh || since === undefined || !unbroken || ids.size > FILE_CHANGES_JOURNALED_MAX) {
    runStatement(db, 'DELETE FROM file_change');
    setMeta(db, SINCE_KEY, String(generation));
    return;
  }
  const insert = db.prepare('INSERT OR IGNORE INTO file_change(generation, id) VALUES (?, ?)');
  for (const id of ids) insert.run(generation, id);
  const floor = generation - FILE_CHANGE_GENERATIONS_KEPT;
  if (floor > Number(since)) {
    runStatement(db, 'DELETE FROM file_change WHERE generation <= ?', [floor]);
    setMeta(db, SINCE_KEY, String(floor));
  }
}

/** The identity of the database file a reader reads (undefined before the journal). */
export function indexIdOf(db: Database): string | undefined {
  return getMeta(db, INDEX_ID_KEY);
}

/**
 * Ids of the file rows changed after generation `from` up to `to`, the generation this
 * reader's snapshot holds, when the journal of database `indexId` covers them all and
 * they are few enough to read one by one; undefined otherwise (read the whole table).
 */
export function fileChangesSince(db: Database, indexId: string, from: number, to: number): number[] | undefined {
  if (from > to || indexIdOf(db) !== indexId || getMeta(db, THROUGH_KEY) !== String(to)) return undefined;
  const since = getMeta(db, SINCE_KEY);
  if (since === undefined || from < Number(since)) return undefined;
  const rows = allRows(db, 'SELECT DISTINCT id FROM file_change WHERE generation > ? LIMIT ?', [
    from,
    FILE_CHANGES_JOURNALED_MAX + 1,
  ]);
  return rows.length > FILE_CHANGES_JOURNALED_MAX ? undefined : rows.map((r) => Number(r[0]));
}
