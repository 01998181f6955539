import * as fs from 'node:fs';
import * as path from 'node:path';
import { INDEX_FILE_NAME, LOCK_FILE_NAME } from '../limits';
import { processAlive } from './health';

const STAGING_PREFIX = `${INDEX_FILE_NAME}.staging-`;

export interface WriterLock {
  release(): void;
}

/** Cache directories this process is indexing: the pid in the lock file cannot tell two callers of one process apart. */
const heldInProcess = new Set<string>();

function lockOwner(lockPath: string): number {
  try {
    return Number.parseInt(fs.readFileSync(lockPath, 'utf8') || '0', 10);
  } catch {
    return 0; // released between our create attempt and this read: try again
  }
}

/**
 * Exclusive writer lock of a cache directory: a file created with O_EXCL holding the
 * owner's pid. A lock whose owner is dead is taken over, so a crash never wedges indexing.
 */
export function acquireWriterLock(cacheDir: string): WriterLock | { heldBy: number } {
  const lockPath = path.join(cacheDir, LOCK_FILE_NAME);
  const key = path.resolve(cacheDir);
  if (heldInProcess.has(key)) return { heldBy: process.pid };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      heldInProcess.add(key);
      return {
        release: () => {
          heldInProcess.delete(key);
          try {
            if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = lockOwner(lockPath);
      // Our own pid here is a leftover of an earlier process that had this pid: not held in-process, so stale.
      if (owner > 0 && owner !== process.pid && processAlive(owner)) return { heldBy: owner };
      try {
        fs.unlinkSync(lockPath);
      } catch {
        /* raced with another taker */
      }
    }
  }
  return { heldBy: -1 };
}

/** Remove staging files (and their SQLite side files) of writers that died mid-publication. */
export function removeAbandonedStaging(cacheDir: string): void {
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
 * Publish a staging database (closed by the caller) as the index of `cacheDir`: flushed,
 * then renamed into place, all or nothing. An index it replaces (a rebuild) is unlinked
 * first with its WAL and shared-memory files: SQLite finds those by name, and the new
 * file must never meet the old one's WAL. Readers that still hold the old file keep
 * reading their generation; a reader that opens in between finds no index (index_warming).
 */
export function publishStaging(cacheDir: string, stagingFile: string): void {
  const target = path.join(cacheDir, INDEX_FILE_NAME);
  try {
    fsyncPath(stagingFile, 'r+');
    removeDatabaseFiles(target);
    fs.renameSync(stagingFile, target);
  } catch (err) {
    removeDatabaseFiles(stagingFile);
    throw err;
  }
  try {
    fsyncPath(cacheDir, 'r');
  } catch {
    /* directory fsync is best effort */
  }
}

export function indexPath(cacheDir: string): string {
  return path.join(cacheDir, INDEX_FILE_NAME);
}
