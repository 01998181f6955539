// A failed reconcile is visible to every reader until one succeeds; a dead writer's lock is reported as stale,
// another thread's of this process as held.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { coverageState, lockFileState, LOCK_FILE_NAME, reconcile, removeWriterLockOfThread } from '../src';
import { Fixture } from './helpers';

test('a failed reconcile makes coverage stale until the next success', async () => {
  const fx = new Fixture('health', { 'a.ts': 'export const alpha = 1;\n' });
  await fx.index();
  const moved = `${fx.root}-away`;
  fs.renameSync(fx.root, moved);
  const failed = await reconcile(fx.root, { cacheDir: fx.cache, parallelism: 1 });
  expect(failed.ok).toBe(false);
  fs.renameSync(moved, fx.root);
  const reader = await fx.open();
  try {
    const cov = reader.coverage();
    expect(coverageState(cov)).toBe('stale');
    expect(cov.reconcile_failed?.code).toBe(failed.ok ? undefined : failed.error.code);
    expect(cov.reconcile_failed?.message.length).toBeLessThanOrEqual(240);
    await fx.index();
    expect(coverageState(reader.coverage())).toBe('complete');
    expect(reader.coverage().reconcile_failed).toBeUndefined();
  } finally {
    reader.close();
  }
});

test('a lock left by a dead process is stale, a live one is held, none is free', () => {
  const fx = new Fixture('locks');
  expect(lockFileState(fx.cache)).toEqual({ state: 'free' });
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  fs.writeFileSync(path.join(fx.cache, LOCK_FILE_NAME), dead.stdout);
  expect(lockFileState(fx.cache)).toEqual({ state: 'stale', pid: Number(dead.stdout) });
  fs.writeFileSync(path.join(fx.cache, LOCK_FILE_NAME), String(process.ppid));
  expect(lockFileState(fx.cache)).toEqual({ state: 'held', pid: process.ppid });
  // This process's own pid, held by no caller of it, is a leftover of an earlier process.
  fs.writeFileSync(path.join(fx.cache, LOCK_FILE_NAME), String(process.pid));
  expect(lockFileState(fx.cache)).toEqual({ state: 'stale', pid: process.pid });
});

test("another thread's lock is held, until removed for that thread once it ended", () => {
  const fx = new Fixture('thread-locks');
  const lockPath = path.join(fx.cache, LOCK_FILE_NAME);
  const other = threadId + 1;
  // What a worker thread of this process writes: pid, time, thread.
  fs.writeFileSync(lockPath, `${process.pid} ${new Date().toISOString()} ${other}\n`);
  expect(lockFileState(fx.cache)).toEqual({ state: 'held', pid: process.pid });
  expect(removeWriterLockOfThread(fx.cache, threadId)).toBe(false);
  expect(lockFileState(fx.cache)).toEqual({ state: 'held', pid: process.pid });
  expect(removeWriterLockOfThread(fx.cache, other)).toBe(true);
  expect(lockFileState(fx.cache)).toEqual({ state: 'free' });
  expect(fs.readdirSync(fx.cache).filter((n) => n.startsWith(LOCK_FILE_NAME))).toEqual([]);
});
