// The exclusive startup lock of a root's daemon: `daemon.lock`, a lock file naming its
// holder (`@trufflepig/base`'s pid lock). Only the holder may remove and re-create the
// socket, so a stale socket file never lets a second daemon in.
import { acquirePidLock, pidLockState, processAlive, readLockPid, type PidLock } from '@trufflepig/base/pid-lock';
import { lockPathFor } from './paths';

export { processAlive, readLockPid };

export type DaemonLock = PidLock;

export type DaemonLockState = { readonly state: 'free' } | { readonly state: 'held' | 'stale'; readonly pid: number };

/** Tries when the lock changes hands under us (many clients starting one daemon at once). */
const DAEMON_LOCK_ATTEMPTS = 20;

/** Whether `daemon.lock` of a cache directory is free, held by a live process, or left by a dead one (taken over by the next daemon). */
export function daemonLockState(cacheDir: string): DaemonLockState {
  const s = pidLockState(lockPathFor(cacheDir));
  return s.state === 'free' ? s : { state: s.state, pid: s.pid };
}

/**
 * Take the daemon lock of `cacheDir` (which must exist). Answers the lock, or the pid of
 * the live process holding it (-1 when the lock stayed contended through every attempt).
 */
export function acquireDaemonLock(cacheDir: string): { ok: true; lock: DaemonLock } | { ok: false; heldBy: number } {
  const lock = acquirePidLock(lockPathFor(cacheDir), { attempts: DAEMON_LOCK_ATTEMPTS });
  return 'release' in lock ? { ok: true, lock } : { ok: false, heldBy: lock.heldBy };
}
