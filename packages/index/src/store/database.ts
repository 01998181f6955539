import * as fs from 'node:fs';
import { identifierExpansions } from '../extract/extract';
import { FILE_MAX_BYTES } from '../limits';
import { percentDecode } from '../paths';
import { readInsideRoot } from '../read/inside-root';
import { createSchema, FTS_DDL, schemaMatches, setMeta } from './schema';
import { allRows, sqlEngine, type Database } from './sql';

/** Open a published database file; undefined when missing, unreadable or of another schema. */
export async function loadDatabase(file: string): Promise<Database | undefined> {
  const SQL = await sqlEngine();
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    const db = new SQL.Database(bytes);
    if (!schemaMatches(db)) {
      db.close();
      return undefined;
    }
    return db;
  } catch {
    return undefined;
  }
}

/** A fresh database with the current schema. */
export async function emptyDatabase(): Promise<Database> {
  const SQL = await sqlEngine();
  const db = new SQL.Database();
  createSchema(db);
  return db;
}

/** Rebuild the contentless FTS table from the live regions' bytes, dropping dead documents. */
export function rebuildFts(db: Database, root: string): void {
  db.exec('BEGIN; DROP TABLE fts;');
  db.exec(FTS_DDL);
  const insert = db.prepare('INSERT INTO fts(docid, body, idents) VALUES (?,?,?)');
  let docs = 0;
  for (const [fileId, p] of allRows(db, 'SELECT id, path FROM file WHERE excluded IS NULL')) {
    const read = readInsideRoot(root, percentDecode(String(p)), FILE_MAX_BYTES);
    if (!read.ok) continue;
    const bytes = read.bytes;
    for (const [id, start, end, symbol] of allRows(db, 'SELECT id, start, end, symbol FROM region WHERE file = ?', [Number(fileId)])) {
      const body = bytes.subarray(Number(start), Number(end)).toString('utf8');
      insert.run([Number(id), body, identifierExpansions(body, symbol == null ? null : String(symbol))]);
      docs++;
    }
  }
  insert.free();
  setMeta(db, 'fts_docs', String(docs));
  db.exec('COMMIT');
}

