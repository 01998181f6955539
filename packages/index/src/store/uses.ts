// The use tables' one writer. `use` holds, per (name id, file), the aggregated occurrences
// of one name in one file: how many, their roles, and the representative occurrence
// (start, length, line). Readers look uses up by name only (query/lanes.ts, reader.ts).
//
// A writer also removes and copies a file's uses, which needs the names a file uses: they
// are `use_names`, one row per file holding its name ids as one id list (store/id-list.ts),
// instead of an index on `use(file)`. On the kernel (9.8 million uses) that index was
// 122 MB; the lists are 13 MB (docs/storage.md, "Schema 10").
import type { NameUse } from '../extract/facts';
import { decodeIdList, encodeIdList } from './id-list';
import { allRows, type Database } from './sql';

export const USE_DDL = `
CREATE TABLE use(
  name INTEGER NOT NULL, file INTEGER NOT NULL, count INTEGER NOT NULL, roles INTEGER NOT NULL,
  start INTEGER NOT NULL, len INTEGER NOT NULL, line INTEGER NOT NULL, PRIMARY KEY(name, file)) WITHOUT ROWID;
CREATE TABLE use_names(file INTEGER PRIMARY KEY, ids BLOB NOT NULL);
`;

/** Writes, copies and removes files' uses inside a writer's transaction. */
export class UseWriter {
  private readonly insertUse;
  private readonly insertNames;
  private readonly copyUse;
  private readonly deleteUse;

  constructor(private readonly db: Database) {
    this.insertUse = db.prepare(
      'INSERT OR REPLACE INTO use(name, file, count, roles, start, len, line) VALUES (?,?,?,?,?,?,?)',
    );
    this.insertNames = db.prepare('INSERT OR REPLACE INTO use_names(file, ids) VALUES (?, ?)');
    this.copyUse = db.prepare(
      'INSERT OR REPLACE INTO use(name, file, count, roles, start, len, line) SELECT name, ?, count, roles, start, len, line FROM use WHERE name = ? AND file = ?',
    );
    this.deleteUse = db.prepare('DELETE FROM use WHERE name = ? AND file = ?');
  }

  /** Store a file's uses; `nameId` gives each name its id in the name table. */
  add(file: number, uses: readonly NameUse[], nameId: (name: string) => number): void {
    if (uses.length === 0) return;
    const ids: number[] = [];
    for (const u of uses) {
      const id = nameId(u.name);
      ids.push(id);
      this.insertUse.run(id, file, u.count, u.roles, u.start, u.end - u.start, u.line);
    }
    this.insertNames.run(file, encodeIdList(ids));
  }

  private namesOf(file: number): { ids: number[]; list: Buffer } | undefined {
    const row = allRows(this.db, 'SELECT ids FROM use_names WHERE file = ?', [file])[0];
    if (!row) return undefined;
    const list = row[0] as Buffer;
    return { ids: decodeIdList(list), list };
  }

  /** Store a copy of every use of `from` as a use of `to` (a file with the same revision). */
  copy(from: number, to: number): void {
    const names = this.namesOf(from);
    if (!names) return;
    for (const id of names.ids) this.copyUse.run(to, id, from);
    this.insertNames.run(to, names.list);
  }

  /** Remove the uses of the files listed in the temp table `table` (column `id`). */
  removeFilesIn(table: string): void {
    for (const [file, list] of allRows(
      this.db,
      `SELECT file, ids FROM use_names WHERE file IN (SELECT id FROM ${table})`,
    )) {
      for (const id of decodeIdList(list as Buffer)) this.deleteUse.run(id, Number(file));
    }
    this.db.exec(`DELETE FROM use_names WHERE file IN (SELECT id FROM ${table})`);
  }
}
