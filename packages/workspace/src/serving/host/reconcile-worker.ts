// A daemon's reconcile in a worker thread. A reconcile's peak (file buffers, parse results,
// the writer's page cache) is not returned to the system by the allocator of a long-lived
// thread; a worker's memory is returned when it exits.
//
// Except a reconcile of a few changed files (an editor's save): its peak is that of a few
// files, and a fresh worker (start, module load, a cold parser) was 150–250 ms of the
// 330–510 ms one such reconcile took on the kernel, so it runs in the daemon's thread.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { reconcile, removeWriterLockOfThread, type ReconcileOptions, type ReconcileReport } from '@trufflepig/index';
import type { Outcome } from '../../core/errors';
import { IN_THREAD_RECONCILE_MAX_PATHS } from '../../core/limits';

const SCRIPT = path.join(__dirname, 'reconcile-worker.js');

type ReconcileOutcome = { ok: true; value: ReconcileReport } | { ok: false; error: { code: string; message: string } };

/**
 * Whether a reconcile of `changed` runs in this thread: a few paths, none of them a
 * directory (which may hold any number of files).
 */
function smallChange(root: string, changed: readonly string[] | undefined): boolean {
  if (!changed || changed.length > IN_THREAD_RECONCILE_MAX_PATHS) return false;
  return changed.every((p) => {
    try {
      return !fs.lstatSync(path.join(root, p), { throwIfNoEntry: false })?.isDirectory();
    } catch {
      return false;
    }
  });
}

/**
 * Reconcile `root` (or only its `changed` paths, ReconcileOptions.changed) in a fresh worker
 * thread; in this thread when the change is a few files, or when running from sources.
 * A worker that dies holding the writer lock (killed, or crashing past its releases) would
 * leave it held for this process's lifetime, another thread's lock: it is removed when the
 * worker exits, before a failure is answered, so a retry finds the lock free.
 */
export function reconcileInWorker(
  root: string,
  cacheDir: string,
  seedFrom?: string,
  changed?: readonly string[],
): Promise<ReconcileOutcome> {
  const options = { cacheDir, ...(seedFrom ? { seedFrom } : {}), ...(changed ? { changed } : {}) };
  // A compaction (reconcile.ts compactWhenFree: seconds on a large index) waits for a
  // reconcile in a worker: in this thread it would hold every request up.
  if (smallChange(root, changed)) return reconcile(root, { ...options, compact: false });
  if (!fs.existsSync(SCRIPT)) return reconcile(root, options);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: ReconcileOutcome) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const worker = new Worker(SCRIPT, { workerData: { root, options } });
    // worker.threadId reads -1 once the worker has exited.
    const threadId = worker.threadId;
    let crashed: ReconcileOutcome | undefined;
    worker.once('message', (m: ReconcileOutcome) => settle(m));
    worker.once('error', (err) => {
      crashed = {
        ok: false,
        error: {
          code: 'cache_unwritable',
          message: `indexing failed, the previous generation stays published: ${err.message}`,
        },
      };
    });
    worker.once('exit', (code) => {
      try {
        removeWriterLockOfThread(cacheDir, threadId);
      } catch {
        /* the cache directory is unreadable: the next reconcile reports it */
      }
      settle(
        crashed ?? {
          ok: false,
          error: {
            code: 'cache_unwritable',
            message: `the indexing thread exited with code ${code}; the previous generation stays published`,
          },
        },
      );
    });
  });
}

if (parentPort && workerData && typeof (workerData as { root?: unknown }).root === 'string') {
  const { root, options } = workerData as { root: string; options: ReconcileOptions };
  void reconcile(root, options).then(
    (r: Outcome<ReconcileReport> | ReconcileOutcome) => parentPort!.postMessage(r),
    (err: unknown) =>
      parentPort!.postMessage({
        ok: false,
        error: { code: 'cache_unwritable', message: String((err as Error).message ?? err) },
      }),
  );
}
