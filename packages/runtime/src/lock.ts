// The exclusive startup lock of a root's daemon: `daemon.lock`, created with O_EXCL and
// holding the owner's pid. Only the holder may remove and re-create the socket, so a
// stale socket file never lets a second daemon in.
import * as fs from 'node:fs';
import { errnoCode } from './errors';
import { lockPathFor } from './paths';

export interface DaemonLock {
  readonly path: string;
  /** True while the lock file still names this process (someone may have removed the cache). */
  stillHeld(): boolean;
  release(): void;
}

/** Cache directories whose lock this process holds: the pid alone cannot tell two holders in one process apart. */
const heldInProcess = new Set<string>();

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}

export type DaemonLockState = { readonly state: 'free' } | { readonly state: 'held' | 'stale'; readonly pid: number };

/** Whether `daemon.lock` of a cache directory is free, held by a live process, or left by a dead one (taken over by the next daemon). */
export function daemonLockState(cacheDir: string): DaemonLockState {
  const pid = readLockPid(lockPathFor(cacheDir));
  if (pid === undefined) return { state: 'free' };
  return processAlive(pid) ? { state: 'held', pid } : { state: 'stale', pid };
}

/** Pid in a lock file; 0 when empty or unreadable, undefined when there is no file. */
export function readLockPid(file: string): number | undefined {
  try {
    return Number.parseInt(fs.readFileSync(file, 'utf8').trim() || '0', 10) || 0;
  } catch (err) {
    return errnoCode(err) === 'ENOENT' ? undefined : 0;
  }
}

function createExclusive(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeSync(fd, String(process.pid));
    } finally {
      fs.closeSync(fd);
    }
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  }
}

function removeIfOwnedBy(file: string, pid: number): void {
  try {
    if (readLockPid(file) === pid) fs.unlinkSync(file);
  } catch {
    // already gone
  }
}

/** A file a dead (or, when empty, long-silent) process left behind. */
function isStale(file: string, pid: number | undefined): boolean {
  if (pid === undefined) return false; // gone: not stale, just free
  if (pid === 0) {
    // Being written right now, or its writer died between create and write.
    try {
      return Date.now() - fs.statSync(file).mtimeMs > 2_000;
    } catch {
      return false;
    }
  }
  // Our own pid without an in-process holder: left by an earlier process that had this pid.
  if (pid === process.pid) return !heldInProcess.has(file);
  return !processAlive(pid);
}

/**
 * Remove a stale lock. Only the process that creates `<lock>.takeover` (O_EXCL) may
 * unlink the lock, and only after re-reading it under that guard: nobody can create a
 * fresh lock while the stale file exists, so the guard holder never removes a live lock.
 */
function takeOverStale(lockPath: string, stalePid: number): void {
  const guard = `${lockPath}.takeover`;
  if (!createExclusive(guard)) {
    const guardPid = readLockPid(guard);
    if (isStale(guard, guardPid) && guardPid !== undefined) removeIfOwnedBy(guard, guardPid);
    return; // someone else is taking over; the caller retries
  }
  try {
    if (readLockPid(lockPath) === stalePid) fs.unlinkSync(lockPath);
  } catch {
    // already removed
  } finally {
    removeIfOwnedBy(guard, process.pid);
  }
}

/**
 * Take the daemon lock of `cacheDir` (which must exist). Answers the lock, or the pid of
 * the live process holding it (-1 when the lock stayed contended through every attempt).
 */
export function acquireDaemonLock(cacheDir: string): { ok: true; lock: DaemonLock } | { ok: false; heldBy: number } {
  const lockPath = lockPathFor(cacheDir);
  if (heldInProcess.has(lockPath)) return { ok: false, heldBy: process.pid };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (createExclusive(lockPath)) {
      heldInProcess.add(lockPath);
      let released = false;
      return {
        ok: true,
        lock: {
          path: lockPath,
          stillHeld: () => !released && readLockPid(lockPath) === process.pid,
          release: () => {
            if (released) return;
            released = true;
            heldInProcess.delete(lockPath);
            removeIfOwnedBy(lockPath, process.pid);
          },
        },
      };
    }
    const owner = readLockPid(lockPath);
    if (owner === undefined) continue; // released meanwhile: try again
    if (!isStale(lockPath, owner)) {
      if (owner > 0) return { ok: false, heldBy: owner };
      sleepSync(25); // its creator is writing the pid
      continue;
    }
    takeOverStale(lockPath, owner);
    sleepSync(5 + Math.floor(Math.random() * 10));
  }
  return { ok: false, heldBy: readLockPid(lockPath) || -1 };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
