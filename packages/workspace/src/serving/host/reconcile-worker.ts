// A daemon's reconcile in a worker thread. A reconcile's peak (file buffers, parse results,
// the writer's page cache) is not returned to the system by the allocator of a long-lived
// thread; a worker's memory is returned when it exits.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { reconcile, type ReconcileReport } from '@trufflepig/index';
import type { Outcome } from '../../core/errors';

const SCRIPT = path.join(__dirname, 'reconcile-worker.js');

type ReconcileOutcome = { ok: true; value: ReconcileReport } | { ok: false; error: { code: string; message: string } };

/** Reconcile `root` in a fresh worker thread (in this thread when running from sources). */
export function reconcileInWorker(root: string, cacheDir: string, seedFrom?: string): Promise<ReconcileOutcome> {
  if (!fs.existsSync(SCRIPT)) return reconcile(root, { cacheDir, ...(seedFrom ? { seedFrom } : {}) });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: ReconcileOutcome) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const worker = new Worker(SCRIPT, { workerData: { root, cacheDir, seedFrom } });
    worker.once('message', (m: ReconcileOutcome) => settle(m));
    worker.once('error', (err) =>
      settle({
        ok: false,
        error: {
          code: 'cache_unwritable',
          message: `indexing failed, the previous generation stays published: ${err.message}`,
        },
      }),
    );
    worker.once('exit', (code) =>
      settle({
        ok: false,
        error: {
          code: 'cache_unwritable',
          message: `the indexing thread exited with code ${code}; the previous generation stays published`,
        },
      }),
    );
  });
}

if (parentPort && workerData && typeof (workerData as { root?: unknown }).root === 'string') {
  const { root, cacheDir, seedFrom } = workerData as { root: string; cacheDir: string; seedFrom?: string };
  void reconcile(root, { cacheDir, ...(seedFrom ? { seedFrom } : {}) }).then(
    (r: Outcome<ReconcileReport> | ReconcileOutcome) => parentPort!.postMessage(r),
    (err: unknown) =>
      parentPort!.postMessage({
        ok: false,
        error: { code: 'cache_unwritable', message: String((err as Error).message ?? err) },
      }),
  );
}
