// The definition tables' one owner: how a definition is stored, written, copied, removed
// and read back. Every other module asks here; none names a column of `def`.
//
// A row is stored compact (docs/storage.md, "Definitions"): its kind as a code of
// `def_kind`, its end, last line and name as offsets from its start (small varints, a 0
// costs no byte at all), and its normalized key (identifierKey: `token_bucket` and
// `TokenBucket` → `tokenbucket`) in `def_key`, whose primary key is the only index the
// name lookups need. The kernel's 4.8 million definitions stored the key twice (a column
// and its index) and the kind as text: 399 + 148 MB (`def`, `def_norm`), now 257 + 149.
import { identifierKey } from '@trufflepig/rank';
import type { Definition } from '../extract/facts';
import { allRows, oneValue, type Database, type SqlValue } from './sql';

export const DEFINITION_DDL = `
CREATE TABLE def(
  id INTEGER PRIMARY KEY, file INTEGER NOT NULL, name TEXT NOT NULL, kind INTEGER NOT NULL, container TEXT,
  start INTEGER NOT NULL, len INTEGER NOT NULL, sl INTEGER NOT NULL, lines INTEGER NOT NULL,
  name_at INTEGER NOT NULL, name_len INTEGER NOT NULL);
CREATE TABLE def_key(key TEXT NOT NULL, def INTEGER NOT NULL, PRIMARY KEY(key, def)) WITHOUT ROWID;
CREATE TABLE def_kind(code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
`;

/** A file's definitions (a hit's enclosing definition, map, ctx, removing a file). */
export const DEFINITION_INDEXES: readonly [string, string][] = [['def_file', 'def(file)']];

/** A stored definition: the extracted fact and the id of its file. */
export interface StoredDefinition extends Definition {
  readonly file: number;
}

// Columns in StoredDefinition's order, absolute coordinates recomputed from the offsets.
const COLUMNS =
  'd.file, d.name, k.name, d.container, d.start, d.start + d.len, d.sl, d.sl + d.lines, d.start + d.name_at, d.start + d.name_at + d.name_len';
const FROM = 'FROM def d JOIN def_kind k ON k.code = d.kind';

function definitionOf(r: SqlValue[]): StoredDefinition {
  return {
    file: Number(r[0]),
    name: String(r[1]),
    kind: String(r[2]),
    container: r[3] == null ? null : String(r[3]),
    start: Number(r[4]),
    end: Number(r[5]),
    startLine: Number(r[6]),
    endLine: Number(r[7]),
    nameStart: Number(r[8]),
    nameEnd: Number(r[9]),
  };
}

function rows(db: Database, where: string, params: readonly (string | number)[]): StoredDefinition[] {
  return allRows(db, `SELECT ${COLUMNS} ${FROM} WHERE ${where}`, params).map(definitionOf);
}

const BY_KEY = 'd.id IN (SELECT def FROM def_key WHERE key = ?)';

/**
 * Definitions whose normalized key is `key`, in the order they were stored (a file's in
 * source order). Exact spellings are a subset: one index answers both.
 */
export function definitionsByKey(db: Database, key: string): StoredDefinition[] {
  return rows(db, `${BY_KEY} ORDER BY d.id`, [key]);
}

/** Definitions named exactly `name` (case-sensitive), optionally owned by `container`, by file and start. */
export function definitionsNamed(db: Database, name: string, container?: string): StoredDefinition[] {
  return container === undefined
    ? rows(db, `${BY_KEY} AND d.name = ? ORDER BY d.file, d.start, d.id`, [identifierKey(name), name])
    : rows(db, `${BY_KEY} AND d.name = ? AND d.container = ? ORDER BY d.file, d.start, d.id`, [
        identifierKey(name),
        name,
        container,
      ]);
}

/**
 * Definitions a qualified name spells (`A::B::c`: `c` owned by `B`). A definition stores its
 * immediate owner only; a qualifier further out narrows to the ones some definition named
 * like it encloses in the same file (Java's `ArrayList::Itr::remove` inside `class
 * ArrayList`, not AbstractList's `Itr::remove`; C++'s out-of-line `Class::method` inside
 * `namespace ns`). When none is enclosed (a Rust module that is a file, a namespace the tree
 * never opens), the immediate owner alone decides, as for `B::c`.
 */
export function definitionsQualified(db: Database, parts: readonly string[]): StoredDefinition[] {
  const name = parts[parts.length - 1];
  const owned = definitionsNamed(db, name, parts.length > 1 ? parts[parts.length - 2] : undefined);
  if (parts.length < 3 || owned.length === 0) return owned;
  const outer = definitionsNamed(db, parts[parts.length - 3]);
  const enclosed = owned.filter((d) => outer.some((o) => o.file === d.file && o.start <= d.start && d.end <= o.end));
  return enclosed.length > 0 ? enclosed : owned;
}

/** Whether some definition is named exactly `name`. */
export function isDefinedName(db: Database, name: string): boolean {
  return (
    oneValue(db, 'SELECT 1 FROM def_key k JOIN def d ON d.id = k.def WHERE k.key = ? AND d.name = ? LIMIT 1', [
      identifierKey(name),
      name,
    ]) !== undefined
  );
}

/** One file's definitions in source order. */
export function definitionsOfFile(db: Database, file: number): StoredDefinition[] {
  return rows(db, 'd.file = ? ORDER BY d.start, d.id', [file]);
}

/** One file's definitions whose lines overlap [fromLine, toLine]: the only ones that can enclose a match there. */
export function definitionsOverlapping(
  db: Database,
  file: number,
  fromLine: number,
  toLine: number,
): StoredDefinition[] {
  return rows(db, 'd.file = ? AND d.sl <= ? AND d.sl + d.lines >= ?', [file, toLine, fromLine]);
}

/**
 * Definitions of one file whose name holds one of `fragments` (ASCII case-insensitive
 * `LIKE`), in source order: a file's few definitions a query's words may name, without
 * reading the thousands a large header holds.
 */
export function definitionsNaming(db: Database, file: number, fragments: readonly string[]): StoredDefinition[] {
  if (fragments.length === 0) return [];
  const like = fragments.map(() => "d.name LIKE ? ESCAPE '\\'").join(' OR ');
  const escaped = fragments.map((f) => `%${f.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return rows(db, `d.file = ? AND (${like}) ORDER BY d.start`, [file, ...escaped]);
}

const KIND_CODES = (kinds: readonly string[]) =>
  `d.kind IN (SELECT code FROM def_kind WHERE name IN (${kinds.map(() => '?').join(',')}))`;

/**
 * Definitions of the given kinds, in the order they were stored; with `keyParts`, only
 * those whose normalized key holds every part (`kind:function open file`), or with
 * `holding: 'any'` at least one of them.
 */
export function definitionsOfKinds(
  db: Database,
  kinds: readonly string[],
  keyParts: readonly string[] = [],
  holding: 'every' | 'any' = 'every',
): StoredDefinition[] {
  if (kinds.length === 0) return [];
  if (keyParts.length === 0) return rows(db, `${KIND_CODES(kinds)} ORDER BY d.id`, kinds);
  const likes = keyParts.map(() => 'key LIKE ?').join(holding === 'every' ? ' AND ' : ' OR ');
  return rows(db, `d.id IN (SELECT def FROM def_key WHERE ${likes}) AND ${KIND_CODES(kinds)} ORDER BY d.id`, [
    ...keyParts.map((p) => `%${p}%`),
    ...kinds,
  ]);
}

/** How many definitions are of `kind`. */
export function definitionCountOfKind(db: Database, kind: string): number {
  return Number(oneValue(db, `SELECT count(*) FROM def d WHERE ${KIND_CODES([kind])}`, [kind]) ?? 0);
}

/** Distinct names whose normalized key is `key`, sorted, at most `limit`. */
export function namesWithKey(db: Database, key: string, limit: number): string[] {
  return allRows(
    db,
    'SELECT DISTINCT d.name FROM def_key k JOIN def d ON d.id = k.def WHERE k.key = ? ORDER BY d.name LIMIT ?',
    [key, limit],
  ).map((r) => String(r[0]));
}

/**
 * Distinct (key, name) pairs whose key starts with `first` and is `minLength` to
 * `maxLength` characters long, in key order, at most `limit` (a range of the key index).
 */
export function namesNearKey(
  db: Database,
  first: string,
  minLength: number,
  maxLength: number,
  limit: number,
): { key: string; name: string }[] {
  const after = String.fromCodePoint(first.codePointAt(0)! + 1);
  return allRows(
    db,
    `SELECT DISTINCT k.key, d.name FROM def_key k JOIN def d ON d.id = k.def
      WHERE k.key >= ? AND k.key < ? AND length(k.key) BETWEEN ? AND ? LIMIT ?`,
    [first, after, minLength, maxLength, limit],
  ).map((r) => ({ key: String(r[0]), name: String(r[1]) }));
}

/**
 * Writes definitions inside a writer's transaction. Ids are assigned here, in insertion
 * order, so a key's rows read back in the order they were stored.
 */
export class DefinitionWriter {
  private readonly insertDef;
  private readonly insertKey;
  private readonly insertKind;
  private readonly deleteKey;
  private readonly kindCodes = new Map<string, number>();
  private nextId: number;
  private nextKindCode: number;

  constructor(private readonly db: Database) {
    this.nextId = Number(oneValue(db, 'SELECT coalesce(max(id), 0) FROM def')) + 1;
    for (const [code, name] of allRows(db, 'SELECT code, name FROM def_kind'))
      this.kindCodes.set(String(name), Number(code));
    this.nextKindCode = Math.max(0, ...this.kindCodes.values()) + 1;
    this.insertDef = db.prepare(
      'INSERT INTO def(id, file, name, kind, container, start, len, sl, lines, name_at, name_len) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
    );
    this.insertKey = db.prepare('INSERT INTO def_key(key, def) VALUES (?, ?)');
    this.insertKind = db.prepare('INSERT INTO def_kind(code, name) VALUES (?, ?)');
    this.deleteKey = db.prepare('DELETE FROM def_key WHERE key = ? AND def = ?');
  }

  private kindCode(kind: string): number {
    let code = this.kindCodes.get(kind);
    if (code === undefined) {
      code = this.nextKindCode++;
      this.insertKind.run(code, kind);
      this.kindCodes.set(kind, code);
    }
    return code;
  }

  add(file: number, d: Definition): void {
    const id = this.nextId++;
    this.insertDef.run(
      id,
      file,
      d.name,
      this.kindCode(d.kind),
      d.container,
      d.start,
      d.end - d.start,
      d.startLine,
      d.endLine - d.startLine,
      d.nameStart - d.start,
      d.nameEnd - d.nameStart,
    );
    this.insertKey.run(identifierKey(d.name), id);
  }

  /** Store a copy of every definition of `from` as a definition of `to` (a file with the same revision). */
  copy(from: number, to: number): void {
    for (const d of definitionsOfFile(this.db, from)) this.add(to, d);
  }

  /** Remove the definitions of the files listed in the temp table `table` (column `id`). */
  removeFilesIn(table: string): void {
    for (const [id, name] of allRows(this.db, `SELECT id, name FROM def WHERE file IN (SELECT id FROM ${table})`))
      this.deleteKey.run(identifierKey(String(name)), Number(id));
    this.db.exec(`DELETE FROM def WHERE file IN (SELECT id FROM ${table})`);
  }
}
