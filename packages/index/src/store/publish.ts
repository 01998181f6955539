import * as fs from 'node:fs';
import * as path from 'node:path';
import { acquirePidLock, processAlive, removeDeadLockDrafts, removeThreadLock, type PidLock } from '@trufflepig/base';
import { INDEX_FILE_NAME, LOCK_FILE_NAME } from '../limits';

const STAGING_PREFIX = `${INDEX_FILE_NAME}.staging-`;

export type WriterLock = PidLock;

/**
 * Exclusive writer lock of a cache directory: `index.lock` naming its holder
 * (`@trufflepig/base`'s pid lock). A lock whose owner is dead is taken over, so a crash
 * never wedges indexing.
 */
export function acquireWriterLock(cacheDir: string): WriterLock | { heldBy: number } {
  return acquirePidLock(path.join(cacheDir, LOCK_FILE_NAME));
}

/**
 * Remove the writer lock of `cacheDir` when a thread of this process that has ended holds
 * it (a worker thread killed or crashing skips its release); another holder's stays.
 * Answers whether it was removed.
 */
export function removeWriterLockOfThread(cacheDir: string, threadId: number): boolean {
  return removeThreadLock(path.join(cacheDir, LOCK_FILE_NAME), threadId);
}

/** Remove staging files (and their SQLite side files) and lock drafts of writers that died at work. */
export function removeAbandonedStaging(cacheDir: string): void {
  removeDeadLockDrafts(path.join(cacheDir, LOCK_FILE_NAME));
  let names: string[];
  try {
    names = fs.readdirSync(cacheDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number.parseInt(name.slice(STAGING_PREFIX.length), 10);
    if (pid === process.pid || !processAlive(pid)) {
      try {
        fs.unlinkSync(path.join(cacheDir, name));
      } catch {
        /* gone */
      }
    }
  }
}

/** A new staging file's path: the writer's pid first, so removeAbandonedStaging can tell a live writer's from a dead one's. */
export function stagingPath(cacheDir: string): string {
  return path.join(cacheDir, `${STAGING_PREFIX}${process.pid}-${Date.now()}`);
}

/** Files SQLite keeps beside a database file. */
const SIDE_FILE_SUFFIXES = ['-wal', '-shm', '-journal'];

/**
 * Remove a database file and whatever SQLite kept beside it. A missing file is fine; any
 * other failure (a directory in the way, no permission) throws.
 */
export function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', ...SIDE_FILE_SUFFIXES]) fs.rmSync(`${file}${suffix}`, { force: true });
}

function fsyncPath(file: string, flags: string): void {
  const fd = fs.openSync(file, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A complete index on its way into place: a staging file is renamed to it once flushed,
 * before the published index is unlinked, so no moment of a publication lacks a complete
 * index on disk (adoptReadyIndex finishes one a writer died in).
 */
const READY_FILE_NAME = `${INDEX_FILE_NAME}.ready`;

/**
 * Publish a staging database (closed by the caller) as the index of `cacheDir`: flushed,
 * renamed to the ready name, then into place, all or nothing. An index it replaces (a
 * rebuild, a compaction) is unlinked first with its WAL and shared-memory files: SQLite
 * finds those by name, and the new file must never meet the old one's WAL. Readers that
 * still hold the old file keep reading their generation; a reader that opens in between
 * finds no index (index_warming). A writer killed at any step leaves the old index in
 * place or the new one ready, which the next writer publishes (adoptReadyIndex).
 */
export function publishStaging(cacheDir: string, stagingFile: string): void {
  const ready = path.join(cacheDir, READY_FILE_NAME);
  try {
    fsyncPath(stagingFile, 'r+');
    fs.renameSync(stagingFile, ready);
  } catch (err) {
    removeDatabaseFiles(stagingFile);
    throw err;
  }
  fsyncDirectory(cacheDir);
  adoptReadyIndex(cacheDir);
}

/**
 * Put a ready index in the published one's place: publishStaging's last step, and how a
 * writer finishes a publication whose writer died between its steps (a ready index is
 * complete and newer than any published one). Only a writer holding the lock calls this.
 * Answers whether there was one.
 */
export function adoptReadyIndex(cacheDir: string): boolean {
  const ready = path.join(cacheDir, READY_FILE_NAME);
  if (!fs.existsSync(ready)) return false;
  removeDatabaseFiles(path.join(cacheDir, INDEX_FILE_NAME));
  fs.renameSync(ready, path.join(cacheDir, INDEX_FILE_NAME));
  fsyncDirectory(cacheDir);
  return true;
}

function fsyncDirectory(dir: string): void {
  try {
    fsyncPath(dir, 'r');
  } catch {
    /* directory fsync is best effort */
  }
}

export function indexPath(cacheDir: string): string {
  return path.join(cacheDir, INDEX_FILE_NAME);
}
