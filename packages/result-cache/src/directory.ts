import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { normalizeSetId } from './set-id';

// File-system layer of the store. One directory holds:
//   <id>.set.json   one result set, written once via temp file + rename (no fsync: a cache)
//   <id>.evicted    empty tombstone: this id was evicted by the caps before it expired
//   .tmp-*          a writer's temp file (only renamed into place once complete)
// Set files are never rewritten in place, so a reader sees a complete file or none.

const SET_SUFFIX = '.set.json';
const TOMBSTONE_SUFFIX = '.evicted';
const TEMP_PREFIX = '.tmp-';

export function setFilePath(dir: string, setId: string): string {
  return path.join(dir, setId + SET_SUFFIX);
}

export function tombstonePath(dir: string, setId: string): string {
  return path.join(dir, setId + TOMBSTONE_SUFFIX);
}

export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Create a directory and its missing parents, one level at a time. Node's recursive
 * mkdir never returns when a parent refuses a child with ENOENT (e.g. under /proc): it
 * retries the parent, gets EEXIST, and tries the child again, forever.
 */
export function makeDirectories(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
}

export function ensureStoreDir(dir: string): void {
  makeDirectories(dir);
}

/** Removes a file; a concurrent process having removed it already is not an error. */
export function removeIfPresent(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
}

export function writeFileAtomic(dir: string, finalName: string, text: string): void {
  const temp = path.join(dir, `${TEMP_PREFIX}${finalName}-${process.pid}-${randomBytes(6).toString('hex')}`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', 0o600);
    // No fsync: a result set is a ten-minute cache entry, and the fsync was a fifth of a
    // warm daemon search. A crash can at worst leave a set unreadable, which answers
    // result_store_error ("run the search again"); every entry still names its revision,
    // so no handle can ever read other bytes.
    fs.writeFileSync(fd, text);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, path.join(dir, finalName));
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    try {
      removeIfPresent(temp);
    } catch {
      // The original failure is the one worth reporting.
    }
    throw err;
  }
}

export function writeTombstone(dir: string, setId: string): void {
  fs.writeFileSync(tombstonePath(dir, setId), '', { mode: 0o600 });
}

export function hasTombstone(dir: string, setId: string): boolean {
  try {
    fs.statSync(tombstonePath(dir, setId));
    return true;
  } catch {
    return false;
  }
}

export interface StoreListing {
  /** Set files, oldest first (ids begin with their creation time). */
  sets: { id: string; bytes: number }[];
  /** Tombstoned ids, oldest first. */
  tombstones: string[];
  tempFiles: { file: string; modifiedMs: number }[];
}

/** Lists the store; files removed concurrently while listing are skipped. */
export function listStore(dir: string): StoreListing {
  const listing: StoreListing = { sets: [], tombstones: [], tempFiles: [] };
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return listing;
    throw err;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    if (name.startsWith(TEMP_PREFIX)) {
      const stat = statIfPresent(file);
      if (stat) listing.tempFiles.push({ file, modifiedMs: stat.mtimeMs });
    } else if (name.endsWith(SET_SUFFIX)) {
      const id = normalizeSetId(name.slice(0, -SET_SUFFIX.length));
      const stat = id === name.slice(0, -SET_SUFFIX.length) ? statIfPresent(file) : undefined;
      if (id && stat) listing.sets.push({ id, bytes: stat.size });
    } else if (name.endsWith(TOMBSTONE_SUFFIX)) {
      const id = normalizeSetId(name.slice(0, -TOMBSTONE_SUFFIX.length));
      if (id === name.slice(0, -TOMBSTONE_SUFFIX.length)) listing.tombstones.push(id);
    }
  }
  listing.sets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  listing.tombstones.sort();
  return listing;
}

function statIfPresent(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}
