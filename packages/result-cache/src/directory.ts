import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeDirectories } from '@trufflepig/base';
import { SET_ID_MAX_CHARS, SET_ID_MIN_CHARS, SET_ID_TRIES_PER_LENGTH } from './limits';
import { isLegacySetId, normalizeSetId, randomSetId } from './set-id';

// File-system layer of the store. One directory holds:
//   <id>.set.json   one result set, written once via temp file + rename (no fsync: a cache)
//   ids/<id>        the reservation of a set id, created with O_EXCL before the set is
//                   written and kept for a day, so no process reissues the id meanwhile
//   .ids-pruned     when reservations were last pruned (its mtime)
//   .tmp-*          a writer's temp file (only renamed into place once complete)
// Set files are never rewritten in place, so a reader sees a complete file or none.
// The mtime of a set file and of a reservation is the set's creation time on the store's
// clock (set explicitly), so listing and classifying never open a file.

const SET_SUFFIX = '.set.json';
const TEMP_PREFIX = '.tmp-';
const RESERVATIONS_DIR = 'ids';
const PRUNE_MARKER = '.ids-pruned';
/** Files of the 32-hex era: old set files and eviction tombstones, removed on sight. */
const LEGACY_SUFFIXES = [SET_SUFFIX, '.evicted'];

export function setFilePath(dir: string, setId: string): string {
  return path.join(dir, setId + SET_SUFFIX);
}

function reservationPath(dir: string, setId: string): string {
  return path.join(dir, RESERVATIONS_DIR, setId);
}

function setTimes(fd: number, createdAtMs: number): void {
  const seconds = createdAtMs / 1000;
  fs.futimesSync(fd, seconds, seconds);
}

export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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

/** Writes `finalName` atomically; its mtime is set to `createdAtMs` (the store's clock). */
export function writeFileAtomic(dir: string, finalName: string, text: string, createdAtMs: number): void {
  const temp = path.join(dir, `${TEMP_PREFIX}${finalName}-${process.pid}-${randomBytes(6).toString('hex')}`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', 0o600);
    // No fsync: a result set is a ten-minute cache entry, and the fsync was a fifth of a
    // warm daemon search. A crash can at worst leave a set unreadable, which answers
    // result_store_error ("run the search again"); every entry still names its revision,
    // so no handle can ever read other bytes.
    fs.writeFileSync(fd, text);
    setTimes(fd, createdAtMs);
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

/**
 * Reserves a fresh set id: a random id of SET_ID_MIN_CHARS characters whose reservation
 * file is created with O_EXCL, so of any number of processes exactly one gets it; a taken
 * id is drawn again, one character longer after SET_ID_TRIES_PER_LENGTH collisions.
 */
export function reserveSetId(dir: string, createdAtMs: number, draw: (length: number) => string = randomSetId): string {
  const reservations = path.join(dir, RESERVATIONS_DIR);
  makeDirectories(reservations);
  for (let length = SET_ID_MIN_CHARS; length <= SET_ID_MAX_CHARS; length++) {
    for (let attempt = 0; attempt < SET_ID_TRIES_PER_LENGTH; attempt++) {
      const id = draw(length);
      // A drawn id that is not a valid id would be a broken source; never reserve it.
      if (normalizeSetId(id) !== id || id.length !== length)
        throw new RangeError(`set id source returned ${JSON.stringify(id)} for length ${length}`);
      let fd: number;
      try {
        fd = fs.openSync(path.join(reservations, id), 'wx', 0o600);
      } catch (err) {
        if (errnoCode(err) === 'EEXIST') continue;
        throw err;
      }
      try {
        setTimes(fd, createdAtMs);
      } finally {
        fs.closeSync(fd);
      }
      return id;
    }
  }
  throw new Error(
    `no free set id in ${reservations} after ${(SET_ID_MAX_CHARS - SET_ID_MIN_CHARS + 1) * SET_ID_TRIES_PER_LENGTH} tries`,
  );
}

/** Creation time (store clock) of a reserved id, or undefined when it was never reserved here. */
export function reservedAt(dir: string, setId: string): number | undefined {
  return statIfPresent(reservationPath(dir, setId))?.mtimeMs;
}

/**
 * Removes reservations created at least `maxAgeMs` ago. It lists the reservations at most
 * once per `intervalMs` (a marker file's mtime records the last time, on the store clock).
 */
export function pruneReservations(dir: string, nowMs: number, maxAgeMs: number, intervalMs: number): void {
  const marker = path.join(dir, PRUNE_MARKER);
  const last = statIfPresent(marker)?.mtimeMs;
  if (last !== undefined && nowMs - last >= 0 && nowMs - last < intervalMs) return;
  const seconds = nowMs / 1000;
  fs.closeSync(fs.openSync(marker, 'a', 0o600));
  fs.utimesSync(marker, seconds, seconds);
  const reservations = path.join(dir, RESERVATIONS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(reservations);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return;
    throw err;
  }
  for (const name of names) {
    const file = path.join(reservations, name);
    const stat = statIfPresent(file);
    if (stat && nowMs - stat.mtimeMs >= maxAgeMs) removeIfPresent(file);
  }
}

export interface StoreListing {
  /** Set files, oldest first (by creation time, the file's mtime). */
  sets: { id: string; bytes: number; createdAt: number }[];
  /** Files of the 32-hex era (old sets and tombstones): nothing can name them any more. */
  legacyFiles: string[];
  tempFiles: { file: string; modifiedMs: number }[];
}

/** Lists the store; files removed concurrently while listing are skipped. */
export function listStore(dir: string): StoreListing {
  const listing: StoreListing = { sets: [], legacyFiles: [], tempFiles: [] };
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
    } else if (
      LEGACY_SUFFIXES.some((suffix) => name.endsWith(suffix) && isLegacySetId(name.slice(0, -suffix.length)))
    ) {
      listing.legacyFiles.push(file);
    } else if (name.endsWith(SET_SUFFIX)) {
      const id = normalizeSetId(name.slice(0, -SET_SUFFIX.length));
      const stat = id === name.slice(0, -SET_SUFFIX.length) ? statIfPresent(file) : undefined;
      if (id && stat) listing.sets.push({ id, bytes: stat.size, createdAt: stat.mtimeMs });
    }
  }
  listing.sets.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
