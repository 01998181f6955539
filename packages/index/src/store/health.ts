// What a reader must know about the writer side of a cache directory: whether the last
// reconcile failed (the published generation is then behind the tree, and every answer
// says so) and whether a crashed writer left its lock behind.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pidLockState, processAlive } from '@trufflepig/base';
import { LOCK_FILE_NAME, RECONCILE_FAILURE_FILE_NAME, RECONCILE_FAILURE_MESSAGE_MAX_CHARS } from '../limits';

/** The last reconcile of a cache directory failed; cleared by the next one that succeeds. */
export interface ReconcileFailure {
  /** ISO 8601 time of the failure. */
  readonly at: string;
  readonly code: string;
  /** One line, bounded. */
  readonly message: string;
}

export type WriterLockState =
  | { readonly state: 'free' }
  | { readonly state: 'held'; readonly pid: number }
  /** The owner died (a crash, a kill, a full disk): the next writer takes the lock over. */
  | { readonly state: 'stale'; readonly pid: number };

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= RECONCILE_FAILURE_MESSAGE_MAX_CHARS
    ? line
    : `${line.slice(0, RECONCILE_FAILURE_MESSAGE_MAX_CHARS - 1)}…`;
}

/** Record a failed reconcile beside the published index (temp file + rename: never half-written). Best effort: a full disk may refuse it too. */
export function recordReconcileFailure(cacheDir: string, code: string, message: string, now = new Date()): void {
  const file = path.join(cacheDir, RECONCILE_FAILURE_FILE_NAME);
  const temp = `${file}.${process.pid}`;
  const failure: ReconcileFailure = { at: now.toISOString(), code, message: oneLine(message) };
  try {
    fs.writeFileSync(temp, `${JSON.stringify(failure)}\n`, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    fs.rmSync(temp, { force: true });
  }
}

export function clearReconcileFailure(cacheDir: string): void {
  fs.rmSync(path.join(cacheDir, RECONCILE_FAILURE_FILE_NAME), { force: true });
}

export function readReconcileFailure(cacheDir: string): ReconcileFailure | undefined {
  try {
    const value = JSON.parse(
      fs.readFileSync(path.join(cacheDir, RECONCILE_FAILURE_FILE_NAME), 'utf8'),
    ) as Partial<ReconcileFailure>;
    if (typeof value.at !== 'string' || typeof value.code !== 'string' || typeof value.message !== 'string')
      return undefined;
    return { at: value.at, code: value.code, message: oneLine(value.message) };
  } catch {
    return undefined;
  }
}

/** Whether a pid names a live process (owned by `@trufflepig/base`; re-exported for this package's callers). */
export { processAlive };

/** The state of the writer lock (`index.lock`) of a cache directory. */
export function lockFileState(cacheDir: string): WriterLockState {
  const s = pidLockState(path.join(cacheDir, LOCK_FILE_NAME));
  return s.state === 'held' ? { state: 'held', pid: s.pid } : s;
}
