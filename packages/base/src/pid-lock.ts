// Exclusive lock files that name their holder: a cache directory's index writer
// (`index.lock`), a root's daemon (`daemon.lock`) and a history build (`build.lock`) each
// hold one. A file holds `<pid> <ISO start time> <thread id>`; a lock whose holder died (or,
// with `staleAfterMs`, that is older than that) is taken over, so a crash never wedges anything.
//
// The holder is a thread, not a process: a daemon writes its index in a worker thread
// (workspace's reconcile-worker.ts) while its main thread reads the lock and may want it
// too, and module state (`heldInProcess` below) is per thread. So a lock naming this pid:
// - and this thread is held when this thread's `heldInProcess` has it, else stale (a
//   leftover of an earlier process that had this pid, as is a line from before the
//   thread id was written, `<pid> <ISO start time>`);
// - and another thread is held: this process lives, and whoever started that thread
//   removes its lock when the thread ends without releasing it (a worker killed or
//   crashing skips its finally blocks): removeThreadLock.
//
// Two races decide the design:
// - A lock file is never seen empty: the holder's line is written to a private draft and
//   linked into place (link fails with EEXIST like O_EXCL), so no rival ever mistakes a
//   lock being created for a dead one and removes it.
// - A stale lock is renamed aside before it is removed, and read again there: when a rival
//   replaced it with its own live lock in the meantime, what was renamed is that live lock
//   and it is linked back.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * This thread's id, read when a lock is taken or tested, not at load: the CLI's fast path
 * reads daemon locks (readLockPid) and loading node:worker_threads cost it ~1.4 ms a call.
 */
function ownThreadId(): number {
  return (require('node:worker_threads') as typeof import('node:worker_threads')).threadId;
}

/** A held lock. */
export interface PidLock {
  readonly path: string;
  /** True while the lock file still names this holder (someone may have removed the directory). */
  stillHeld(): boolean;
  /** Remove the lock if it is still this holder's; idempotent. */
  release(): void;
}

/** The state of a lock file. */
export type PidLockState =
  | { readonly state: 'free' }
  | { readonly state: 'held'; readonly pid: number; readonly since: string }
  | { readonly state: 'stale'; readonly pid: number };

export interface PidLockOptions {
  /** A lock held longer than this counts as stale even while its holder lives (a hung build). */
  readonly staleAfterMs?: number;
  /** Tries when the lock changes hands under us; contention past them answers `heldBy: -1`. */
  readonly attempts?: number;
}

const DEFAULT_ATTEMPTS = 5;

/** Private files beside a lock, each followed by the pid of the process that made it. */
const DRAFT_SUFFIX = '.new-';
const ASIDE_SUFFIX = '.stale-';

/** Lock files callers in this thread hold (module state is per thread): the line alone cannot tell two holders in one thread apart. */
const heldInProcess = new Set<string>();

/** Whether a pid names a live process (EPERM: alive, someone else's). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Holder {
  readonly text: string;
  readonly pid: number;
  readonly since: string;
  /** The holder's thread (0: a process's main thread); undefined in a line from before it was written. */
  readonly thread: number | undefined;
}

function readHolder(file: string): Holder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pidText = '', since = '', threadText] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  const thread = threadText === undefined ? undefined : Number(threadText);
  return {
    text,
    pid: Number.isInteger(pid) && pid > 0 ? pid : 0,
    since,
    thread: thread !== undefined && Number.isInteger(thread) && thread >= 0 ? thread : undefined,
  };
}

/** The pid a lock file names: undefined when there is no file, 0 when it names none. */
export function readLockPid(file: string): number | undefined {
  return readHolder(file)?.pid;
}

function isStale(file: string, h: Holder, staleAfterMs: number | undefined): boolean {
  if (h.pid === process.pid) {
    // Another thread of this process: held until that thread releases it, or its starter
    // removes it once the thread has ended (removeThreadLock).
    if (h.thread !== undefined && h.thread !== ownThreadId()) return false;
    // This thread without a holder in it, or no thread named (this process always names
    // one): left by an earlier process that had this pid.
    return !heldInProcess.has(path.resolve(file));
  }
  if (!processAlive(h.pid)) return true;
  if (staleAfterMs === undefined) return false;
  const age = Date.now() - Date.parse(h.since);
  return !(age < staleAfterMs);
}

/**
 * Who holds the lock `file`, if anyone. A lock another thread of this process holds is
 * 'held' with this process's pid; one naming this pid and this thread that this thread
 * does not hold is 'stale'.
 */
export function pidLockState(file: string, options: Pick<PidLockOptions, 'staleAfterMs'> = {}): PidLockState {
  const h = readHolder(file);
  if (!h) return { state: 'free' };
  return isStale(file, h, options.staleAfterMs)
    ? { state: 'stale', pid: h.pid }
    : { state: 'held', pid: h.pid, since: h.since };
}

/** `<pid>-<thread>-`: whose private file this is, after its suffix (removeDeadLockDrafts, removeThreadLock). */
function ownerPart(thread: number): string {
  return `${process.pid}-${thread}-`;
}

function privatePath(file: string, suffix: string): string {
  return `${file}${suffix}${ownerPart(ownThreadId())}${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Create `file` holding this thread's line, returned, or throw EEXIST. */
function createLockFile(file: string): string {
  const draft = privatePath(file, DRAFT_SUFFIX);
  const line = `${process.pid} ${new Date().toISOString()} ${ownThreadId()}\n`;
  fs.writeFileSync(draft, line, { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } finally {
    fs.rmSync(draft, { force: true });
  }
  return line;
}

/** Remove a stale lock whose text was `staleText`, never a live one that replaced it. */
function removeStale(file: string, staleText: string): void {
  const aside = privatePath(file, ASIDE_SUFFIX);
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // removed already by a rival
  }
  try {
    if (readHolder(aside)?.text === staleText) return;
    try {
      fs.linkSync(aside, file);
    } catch {
      /* yet another rival's lock stands */
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/**
 * Take the lock `file` (its directory must exist): the lock, or the pid of the live
 * process holding it (this process's own pid when another caller in this thread or
 * another thread of this process holds it; -1 when it changed hands through every
 * attempt). Errors other than EEXIST (no permission, no directory) are thrown.
 */
export function acquirePidLock(file: string, options: PidLockOptions = {}): PidLock | { heldBy: number } {
  const key = path.resolve(file);
  if (heldInProcess.has(key)) return { heldBy: process.pid };
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  for (let attempt = 0; attempt < attempts; attempt++) {
    let line: string;
    try {
      line = createLockFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const h = readHolder(file);
      if (h === undefined) continue; // released between the attempt and the read
      if (!isStale(file, h, options.staleAfterMs)) return { heldBy: h.pid };
      removeStale(file, h.text);
      continue;
    }
    heldInProcess.add(key);
    let released = false;
    const mine = () => readHolder(file)?.text === line;
    return {
      path: file,
      stillHeld: () => !released && mine(),
      release: () => {
        if (released) return;
        released = true;
        heldInProcess.delete(key);
        try {
          if (mine()) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      },
    };
  }
  return { heldBy: -1 };
}

/**
 * Remove the lock `file` when it names this process and `thread`, a thread of it that has
 * ended (a worker that was killed or crashed skips its releases), with the drafts and
 * renamed-aside copies that thread left beside it. Answers whether the lock was removed.
 * This thread's own lock is removed only when no caller in this thread holds it.
 */
export function removeThreadLock(file: string, thread: number): boolean {
  removePrivateFiles(file, (owner) => owner.startsWith(ownerPart(thread)));
  const h = readHolder(file);
  if (!h || h.pid !== process.pid || h.thread !== thread) return false;
  if (thread === ownThreadId() && heldInProcess.has(path.resolve(file))) return false;
  removeStale(file, h.text);
  return readHolder(file)?.text !== h.text;
}

/**
 * Remove the drafts and renamed-aside copies that processes now dead left beside the lock
 * `file` (killed between two steps of an attempt). A live process's are left alone.
 */
export function removeDeadLockDrafts(file: string): void {
  removePrivateFiles(file, (owner) => {
    const pid = Number.parseInt(owner, 10);
    return pid !== process.pid && !processAlive(pid);
  });
}

/**
 * Remove the drafts and renamed-aside copies beside the lock `file` whose owner part (what
 * follows the suffix: ownerPart, then a time and a random tail) `remove` picks.
 */
function removePrivateFiles(file: string, remove: (owner: string) => boolean): void {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // no directory: nothing beside the lock either
  }
  for (const name of names) {
    const suffix = [DRAFT_SUFFIX, ASIDE_SUFFIX].find((s) => name.startsWith(base + s));
    if (suffix !== undefined && remove(name.slice(base.length + suffix.length)))
      fs.rmSync(path.join(dir, name), { force: true });
  }
}
