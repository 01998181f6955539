// A detached daemon with the real @trufflepig/index reconcile on a small git repository.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IndexReader } from '@trufflepig/index';
import { daemonStatus, pingDaemon, stopDaemon } from '../src/client';
import { processAlive } from '../src/lock';
import { startDetachedDaemon } from '../src/start';
import { ENTRY, sleep, tempRoot, waitFor } from './helpers';

let daemonPid = 0;
afterEach(() => {
  if (daemonPid && processAlive(daemonPid)) process.kill(daemonPid, 'SIGKILL');
});

async function generation(cacheDir: string): Promise<number | undefined> {
  const s = await daemonStatus(cacheDir);
  return s.ok ? s.status.generation : undefined;
}

test('an edit is published as a new generation within ~1 s; figures: start, ping round trip, idle RSS', async () => {
  const { root, cacheDir } = tempRoot('real');
  execFileSync('git', ['init', '-q', root]);
  for (let i = 0; i < 20; i++)
    fs.writeFileSync(
      path.join(root, 'src', `m${i}.ts`),
      `export function helper${i}(x: number): number {\n  return x + ${i};\n}\n`,
    );
  const started = await startDetachedDaemon(ENTRY, [root, cacheDir, JSON.stringify({ reconcile: 'real' })], cacheDir, {
    readyTimeoutMs: 20_000,
  });
  if (!started.ok) throw new Error(`${started.code}: ${started.message}`);
  daemonPid = started.pid;
  await waitFor(async () => (await generation(cacheDir)) === 1, 30_000, 'the first publication');

  fs.writeFileSync(
    path.join(root, 'src', 'm3.ts'),
    'export function renamedHelper(x: number): number {\n  return x * 3;\n}\n',
  );
  const edited = Date.now();
  await waitFor(async () => ((await generation(cacheDir)) ?? 0) >= 2, 10_000, 'the generation after the edit');
  const editToPublished = Date.now() - edited;
  expect(editToPublished).toBeLessThan(3_000); // ~1 s expected; slack for a loaded 2-core machine

  const reader = await IndexReader.open(cacheDir, root);
  if (!reader.ok) throw new Error(reader.error.message);
  expect(reader.value.generation).toBe(2);
  reader.value.close();

  const rtts: number[] = [];
  for (let i = 0; i < 21; i++) {
    const p = await pingDaemon(cacheDir);
    if (p.ok) rtts.push(p.rttMs);
  }
  rtts.sort((a, b) => a - b);
  await sleep(1_000);
  const idle = await daemonStatus(cacheDir);
  if (!idle.ok) throw new Error(idle.message);
  expect(idle.status.reconcile.last).toMatchObject({ ok: true });
  console.log(
    `runtime figures: ready after ${started.readyMs} ms; edit to published generation ${editToPublished} ms; ping round trip median ${rtts[10].toFixed(2)} ms (max ${rtts[20].toFixed(2)}); idle RSS ${(idle.status.memory.rssBytes / 1048576).toFixed(1)} MiB`,
  );
  expect(await stopDaemon(cacheDir, { waitMs: 10_000 })).toEqual({ ok: true, pid: started.pid });
  await waitFor(() => !processAlive(started.pid), 10_000, 'the daemon to exit');
});
