// A daemon's reconcile in a worker thread (dist/serving/host/reconcile-worker.js, a real
// worker) holds the index writer lock: while it does, this process's main thread sees the
// lock held by this process (status never calls it stale) and cannot take it (a small-change
// reconcile in the main thread answers index_locked instead of writing beside the worker).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { LOCK_FILE_NAME, lockFileState, reconcile } from '@trufflepig/index';

// The compiled module: its worker script (dist/.../reconcile-worker.js) exists beside it.
const { reconcileInWorker } =
  require('../dist/serving/host/reconcile-worker') as typeof import('../src/serving/host/reconcile-worker');

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

test("the worker thread's writer lock is held for the main thread, which does not take it", async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-reconcile-worker-'));
  const root = path.join(base, 'root');
  const cacheDir = path.join(base, 'cache');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  // Enough files that the worker holds the lock for a while after it appears.
  for (let i = 0; i < 1500; i++)
    fs.writeFileSync(
      path.join(root, 'src', `m${i}.ts`),
      `export function helper${i}(x: number): number {\n  return x + ${i};\n}\n`,
    );
  const lockPath = path.join(cacheDir, LOCK_FILE_NAME);
  let settled = false;
  const run = reconcileInWorker(root, cacheDir).finally(() => (settled = true));
  await until('the worker to take the writer lock', () => settled || fs.existsSync(lockPath), 60_000);
  expect(settled).toBe(false);
  const line = fs.readFileSync(lockPath, 'utf8').trim().split(' ');
  const state = lockFileState(cacheDir);
  const inMain = await reconcile(root, { cacheDir, parallelism: 1 });
  expect(settled).toBe(false);
  expect(line[0]).toBe(String(process.pid));
  expect(line[2]).not.toBe(String(threadId));
  expect(state).toEqual({ state: 'held', pid: process.pid });
  expect(inMain.ok ? 'ok' : inMain.error.code).toBe('index_locked');
  const out = await run;
  expect(out.ok ? out.value.generation : out.error).toBe(1);
  expect(fs.existsSync(lockPath)).toBe(false);
  expect(lockFileState(cacheDir)).toEqual({ state: 'free' });
}, 120_000);
