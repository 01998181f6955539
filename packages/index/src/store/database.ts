// Opening, creating and seeding index databases. A published index is one SQLite file in WAL
// mode: readers hold a read transaction (one generation) and never load the file; a writer
// publishes a generation as one write transaction in place. Only a root's first index (or a
// rebuild) is built in a staging file and renamed into place, so nobody ever reads a
// half-built index (docs/storage.md, "Publication").
import * as fs from 'node:fs';
import { identifierExpansions } from '../extract/extract';
import { FILE_MAX_BYTES, SCHEMA_VERSION } from '../limits';
import { percentDecode } from '@trufflepig/base';
import { readInsideRoot } from '../read/inside-root';
import { createSchema, FTS_DDL, getMeta, setMeta } from './schema';
import { allRows, createFile, engineErrorCode, openFile, type Database } from './sql';
import { clearTrigrams, TrigramWriter } from './trigrams';
import { removeDatabaseFiles } from './publish';
import { fileTrigrams } from '../trigram/grams';

/**
 * Open a published database file for reading or for publishing the next generation;
 * undefined when missing, unreadable or of another schema (a reconcile then rebuilds it).
 */
export function openDatabase(file: string, access: 'read' | 'write'): Database | undefined {
  if (!fs.existsSync(file)) return undefined;
  let db: Database | undefined;
  try {
    db = openFile(file, { access });
    // A foreign database fails here with SQLITE_ERROR (no meta table), garbage with SQLITE_NOTADB.
    if (getMeta(db, 'schema') !== String(SCHEMA_VERSION)) {
      db.close();
      return undefined;
    }
    if (access === 'write') {
      db.pragma('journal_mode = WAL');
      // A committed generation survives a power loss, as the renamed-and-synced file did.
      db.pragma('synchronous = FULL');
    }
    return db;
  } catch (err) {
    db?.close();
    // A writer rebuilds only a file that is not a usable index. Any other failure (busy,
    // I/O, permissions) is the reconcile's error: rebuilding would throw the published
    // generations away over a transient fault.
    if (access === 'write' && !UNUSABLE_FILE_CODES.has(engineErrorCode(err) ?? '')) throw err;
    return undefined;
  }
}

/** Engine codes that say a file holds no usable index: a writer rebuilds it. */
const UNUSABLE_FILE_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_ERROR']);

/** A fresh database with the current schema in a new staging file. */
export function emptyDatabase(stagingFile: string): Database {
  const db = createFile(stagingFile);
  createSchema(db);
  return db;
}

/**
 * A staging copy of another root's published index (a linked worktree seeded from its
 * member): one consistent generation of the donor, copied by SQLite, never its WAL as is.
 * Undefined when the donor has no readable index.
 */
export function seededDatabase(donorFile: string, stagingFile: string): Database | undefined {
  const donor = openDatabase(donorFile, 'read');
  if (!donor) return undefined;
  try {
    donor.prepare('VACUUM INTO ?').run(stagingFile);
  } catch {
    fs.rmSync(stagingFile, { force: true });
    return undefined;
  } finally {
    donor.close();
  }
  // A copy of a donor whose schema openDatabase checked.
  return createFile(stagingFile);
}

/**
 * Close a committed staging database (always) and return the file to rename into place, in WAL mode
 * (readers open it so; the mode is recorded in the file's header).
 *
 * With `compact`, SQLite first copies it into `copyFile` (`VACUUM INTO`): every table and
 * index rewritten in key order, without the free pages FTS segment merges leave behind a
 * first index nor the half-filled pages of out-of-order inserts. On the kernel that is
 * 1,620 → 1,366 MB for ~6 s of a 7.5-minute cold index (docs/storage.md, "Compaction of a
 * first index"). A copy that cannot be written (a full disk) is removed and the original
 * is returned: it is complete as it is, and publishing it needs no further space.
 */
export function sealStaging(db: Database, stagingFile: string, copyFile: string, compact: boolean): string {
  let sealed = stagingFile;
  try {
    if (compact && vacuumInto(db, copyFile)) sealed = copyFile;
    if (sealed === stagingFile) db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  if (sealed === stagingFile) return sealed;
  removeDatabaseFiles(stagingFile);
  intoWalMode(copyFile);
  return sealed;
}

/** `VACUUM INTO copyFile`: false, the partial copy removed, when it cannot be written (a full disk). */
function vacuumInto(db: Database, copyFile: string): boolean {
  try {
    db.prepare('VACUUM INTO ?').run(copyFile);
    return true;
  } catch {
    removeDatabaseFiles(copyFile);
    return false;
  }
}

/** Set a closed database file to WAL mode (readers open it so); one that cannot be is removed and the error thrown. */
function intoWalMode(file: string): void {
  try {
    const db = openFile(file, { access: 'write' });
    try {
      db.pragma('journal_mode = WAL');
    } finally {
      db.close();
    }
  } catch (err) {
    removeDatabaseFiles(file);
    throw err;
  }
}

/** The share of a database's pages on SQLite's free list (0 for an empty file). */
export function freePageShare(db: Database): number {
  const pages = Number(db.pragma('page_count', { simple: true }));
  const free = Number(db.pragma('freelist_count', { simple: true }));
  return pages > 0 ? free / pages : 0;
}

/**
 * A compact copy of a committed database in `copyFile` (`VACUUM INTO`, then WAL mode, as
 * readers open it), for publishStaging; false, with nothing left behind, when it cannot be
 * written (a full disk): the database it copies stays published as it is.
 */
export function compactCopy(db: Database, copyFile: string): boolean {
  if (!vacuumInto(db, copyFile)) return false;
  try {
    intoWalMode(copyFile);
    return true;
  } catch {
    return false;
  }
}

/**
 * Rebuild the contentless FTS table from the live regions' bytes, dropping dead documents,
 * and the trigram table from the same bytes, dropping stale postings.
 * Runs inside the caller's transaction: readers see the generation with its rebuilt table
 * or the previous one, never a generation half rebuilt.
 */
export function rebuildFts(db: Database, root: string): void {
  db.exec('DROP TABLE fts;');
  db.exec(FTS_DDL);
  // The same pass drops the trigram postings of removed and replaced files (store/trigrams.ts).
  clearTrigrams(db);
  const trigrams = new TrigramWriter(db);
  const insert = db.prepare('INSERT INTO fts(docid, body, idents) VALUES (CAST(? AS INTEGER),?,?)');
  let docs = 0;
  for (const [fileId, p] of allRows(db, 'SELECT id, path FROM file WHERE excluded IS NULL')) {
    const read = readInsideRoot(root, percentDecode(String(p)), FILE_MAX_BYTES);
    if (!read.ok) continue;
    const bytes = read.bytes;
    trigrams.add(Number(fileId), fileTrigrams(bytes));
    for (const [id, start, end, symbol] of allRows(db, 'SELECT id, start, end, symbol FROM region WHERE file = ?', [
      Number(fileId),
    ])) {
      const body = bytes.subarray(Number(start), Number(end)).toString('utf8');
      insert.run(Number(id), body, identifierExpansions(body, symbol == null ? null : String(symbol)));
      docs++;
    }
  }
  trigrams.flush();
  setMeta(db, 'fts_docs', String(docs));
}

/** Readers of the published generation, one per index file, kept to answer publishedStamp cheaply. */
const probes = new Map<string, { readonly ino: number; readonly db: Database }>();

/**
 * Which publication `file` holds now: its inode (a rebuild renames a new file into place)
 * and its generation (a publication in place commits a new one). Undefined when there is
 * no readable index. Costs a stat and one indexed read: a long-lived process asks it
 * before every use of a reader it keeps.
 */
export function publishedStamp(file: string): string | undefined {
  let ino: number;
  try {
    ino = fs.statSync(file).ino;
  } catch {
    return undefined;
  }
  let probe = probes.get(file);
  if (probe && probe.ino !== ino) {
    probe.db.close();
    probes.delete(file);
    probe = undefined;
  }
  if (!probe) {
    const db = openDatabase(file, 'read');
    if (!db) return undefined;
    probe = { ino, db };
    probes.set(file, probe);
  }
  try {
    return `${ino}:${getMeta(probe.db, 'generation') ?? '0'}`;
  } catch {
    probe.db.close();
    probes.delete(file);
    return undefined;
  }
}

/** Close the connection publishedStamp keeps for `file` (a library closing its readers); the next call opens one again. */
export function releaseStampProbe(file: string): void {
  const probe = probes.get(file);
  if (!probe) return;
  probe.db.close();
  probes.delete(file);
}
