// Where the history index lives and how it is read and replaced (docs/history.md, "The
// history index"). One directory per Git common directory under the cache base, so every
// linked worktree of a repository reads the same index. The file is only ever replaced
// whole (a temporary file in the same directory, fsynced, renamed over it), so a reader
// sees the old file or the new one, never a part; a build holds `build.lock` (a pid lock of
// `@trufflepig/base`: pid and start time), so two daemons of two worktrees never build at once.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acquirePidLock, pidLockState, removeDeadLockDrafts, type PidLockState } from '@trufflepig/base';
import { HISTORY_INDEX_FILE_BYTES_MAX, HISTORY_INDEX_LOCK_STALE_MS } from './limits';
import { decodeIndex, type Decoded } from './log-index-format';

/** Directory under the cache base that holds every repository's history index. */
export const HISTORY_INDEX_DIR_NAME = 'history';
export const HISTORY_INDEX_FILE_NAME = 'log.idx';
export const HISTORY_INDEX_LOCK_NAME = 'build.lock';
const TEMP_PREFIX = `${HISTORY_INDEX_FILE_NAME}.tmp-`;

/** The index directory of a repository: `<cache base>/history/<first 16 hex of sha256(common dir)>`. */
export function historyIndexDir(cacheBase: string, commonDir: string): string {
  return path.join(
    cacheBase,
    HISTORY_INDEX_DIR_NAME,
    createHash('sha256').update(commonDir, 'utf8').digest('hex').slice(0, 16),
  );
}

export function historyIndexFile(dir: string): string {
  return path.join(dir, HISTORY_INDEX_FILE_NAME);
}

export type IndexRead =
  | { readonly state: 'absent' }
  | { readonly state: 'corrupt'; readonly reason: string; readonly bytes: number }
  | { readonly state: 'foreign'; readonly commonDir: string }
  | (Extract<Decoded, { ok: true }> & { readonly state: 'ok'; readonly bytes: number; readonly raw: Buffer });

/** The index file of `dir`, checked whole, for the repository of `commonDir`. */
export function readIndexFile(dir: string, commonDir: string): IndexRead {
  const file = historyIndexFile(dir);
  let raw: Buffer;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return { state: 'corrupt', reason: 'it is not a regular file', bytes: 0 };
    // A file past the bound was not written by a build (which keeps under it): not read.
    if (st.size > HISTORY_INDEX_FILE_BYTES_MAX + 64 * 1024)
      return {
        state: 'corrupt',
        reason: `it is ${st.size} bytes, past the ${HISTORY_INDEX_FILE_BYTES_MAX}-byte bound`,
        bytes: st.size,
      };
    raw = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    return { state: 'corrupt', reason: `it cannot be read: ${(err as Error).message}`, bytes: 0 };
  }
  const decoded = decodeIndex(raw);
  if (!decoded.ok) return { state: 'corrupt', reason: decoded.reason, bytes: raw.length };
  if (decoded.index.header.common_dir !== commonDir)
    return { state: 'foreign', commonDir: decoded.index.header.common_dir };
  return { ...decoded, state: 'ok', bytes: raw.length, raw };
}

/** Replace the index file with `parts`, atomically: readers see the old bytes or all of the new ones. */
export function writeIndexFile(dir: string, parts: readonly Buffer[]): void {
  const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${Date.now().toString(36)}`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    for (const part of parts) {
      let off = 0;
      while (off < part.length) off += fs.writeSync(fd, part, off, part.length - off);
    }
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, historyIndexFile(dir));
}

/** Temporary files a killed build left behind (only the lock holder calls this). */
export function removeLeftTemps(dir: string): number {
  let removed = 0;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

export type LockState = PidLockState;

/** Who holds the build lock of `dir`, if anyone (a dead or too old holder: stale). */
export function buildLockState(dir: string): LockState {
  return pidLockState(path.join(dir, HISTORY_INDEX_LOCK_NAME), { staleAfterMs: HISTORY_INDEX_LOCK_STALE_MS });
}

/** Take the build lock of `dir`: a release function, or undefined when a live build holds it. */
export function acquireBuildLock(dir: string): (() => void) | undefined {
  const lock = acquirePidLock(path.join(dir, HISTORY_INDEX_LOCK_NAME), { staleAfterMs: HISTORY_INDEX_LOCK_STALE_MS });
  if (!('release' in lock)) return undefined;
  removeDeadLockDrafts(path.join(dir, HISTORY_INDEX_LOCK_NAME));
  return () => lock.release();
}
