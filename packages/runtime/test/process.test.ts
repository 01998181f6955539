// Daemons in their own processes (test/fixtures/daemon-entry.js over the built dist).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { daemonStatus, pingDaemon, sendRequest, stopDaemon } from '../src/client';
import { lockPathFor, socketPathFor } from '../src/paths';
import { startDetachedDaemon } from '../src/start';
import { processAlive, readLockPid } from '../src/lock';
import {
  ENTRY,
  killAll,
  recordedReconciles,
  sleep,
  spawnDaemon,
  tempRoot,
  waitFor,
  type DaemonProcess,
} from './helpers';

const started: DaemonProcess[] = [];
const detached: number[] = [];
afterEach(async () => {
  await killAll(started.splice(0));
  for (const pid of detached.splice(0)) {
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
});

function spawnTracked(root: string, cacheDir: string, options: Record<string, unknown> = {}): DaemonProcess {
  const p = spawnDaemon(root, cacheDir, options);
  started.push(p);
  return p;
}

test('two concurrent startups of one root: exactly one daemon; the other gets daemon_running and can talk to the first', async () => {
  const { root, cacheDir } = tempRoot('race');
  const a = spawnTracked(root, cacheDir);
  const b = spawnTracked(root, cacheDir);
  const loserExit = await Promise.race([
    a.exited.then((code) => ({ p: a, code })),
    b.exited.then((code) => ({ p: b, code })),
  ]);
  expect(loserExit.code).toBe(3);
  expect(loserExit.p.stderr()).toMatch(/daemon_running/);
  const winner = loserExit.p === a ? b : a;
  const ping = await waitFor(
    async () => {
      const r = await pingDaemon(cacheDir);
      return r.ok ? r : undefined;
    },
    10_000,
    'the winner to answer',
  );
  expect(ping.pid).toBe(winner.child.pid);
  expect(readLockPid(lockPathFor(cacheDir))).toBe(winner.child.pid);
  expect(await stopDaemon(cacheDir)).toEqual({ ok: true, pid: winner.child.pid });
  expect(await winner.exited).toBe(0);
});

test('startDetachedDaemon raced from two callers: both get the same daemon', async () => {
  const { root, cacheDir } = tempRoot('detach');
  const args = [root, cacheDir, JSON.stringify({})];
  const [x, y] = await Promise.all([
    startDetachedDaemon(ENTRY, args, cacheDir),
    startDetachedDaemon(ENTRY, args, cacheDir),
  ]);
  if (!x.ok || !y.ok) throw new Error(JSON.stringify([x, y]));
  const spawned = [x.spawnedPid, y.spawnedPid].filter((pid): pid is number => pid !== undefined);
  detached.push(x.pid, ...spawned);
  expect(y.pid).toBe(x.pid);
  expect([x.alreadyRunning, y.alreadyRunning].filter((v) => !v).length).toBeLessThanOrEqual(1);
  // Exactly one daemon: any other process spawned by the race exits on the lock by itself.
  for (const pid of spawned.filter((pid) => pid !== x.pid))
    await waitFor(() => !processAlive(pid), 10_000, `the losing process ${pid} to exit`);
  const again = await startDetachedDaemon(ENTRY, args, cacheDir);
  expect(again).toMatchObject({ ok: true, pid: x.pid, alreadyRunning: true });
  expect(fs.readFileSync(path.join(cacheDir, 'daemon.log'), 'utf8')).toMatch(/daemon_running|serving/);
  expect(await stopDaemon(cacheDir)).toEqual({ ok: true, pid: x.pid });
  await waitFor(() => !processAlive(x.pid), 5_000, 'the detached daemon to exit');
});

test('startDetachedDaemon reports a daemon that cannot start (root missing) as daemon_exited', async () => {
  const { base, cacheDir } = tempRoot('bad');
  const out = await startDetachedDaemon(ENTRY, [path.join(base, 'missing'), cacheDir], cacheDir, {
    readyTimeoutMs: 10_000,
  });
  expect(out).toMatchObject({ ok: false, code: 'daemon_exited', message: expect.stringContaining('root_not_found') });
});

test('a daemon killed with kill -9 leaves socket and lock; the next start takes over and serves', async () => {
  const { root, cacheDir } = tempRoot('stale');
  const first = spawnTracked(root, cacheDir);
  const firstPing = await waitFor(
    async () => {
      const r = await pingDaemon(cacheDir);
      return r.ok ? r : undefined;
    },
    10_000,
    'the first daemon',
  );
  first.child.kill('SIGKILL');
  await first.exited;
  expect(fs.existsSync(socketPathFor(cacheDir))).toBe(true);
  expect(readLockPid(lockPathFor(cacheDir))).toBe(firstPing.pid);
  expect(await sendRequest(cacheDir, { verb: 'echo' })).toMatchObject({ ok: false, code: 'no_daemon' });
  const second = spawnTracked(root, cacheDir);
  const secondPing = await waitFor(
    async () => {
      const r = await pingDaemon(cacheDir);
      return r.ok ? r : undefined;
    },
    10_000,
    'the second daemon',
  );
  expect(secondPing.pid).toBe(second.child.pid);
  expect(readLockPid(lockPathFor(cacheDir))).toBe(second.child.pid);
  await stopDaemon(cacheDir);
  expect(await second.exited).toBe(0);
});

test('a live lock holder without a socket keeps others out: a stale socket never lets a second daemon in', async () => {
  const { root, cacheDir } = tempRoot('holder');
  const first = spawnTracked(root, cacheDir);
  await waitFor(async () => (await pingDaemon(cacheDir)).ok, 10_000, 'the first daemon');
  fs.unlinkSync(socketPathFor(cacheDir)); // the socket file is gone, its daemon is alive
  const second = spawnTracked(root, cacheDir);
  expect(await second.exited).toBe(3);
  expect(second.stderr()).toMatch(/daemon_running.*pid \d+/);
  expect(first.child.exitCode).toBeNull();
});

test('the daemon exits on its own, removing socket and lock, when its root is deleted', async () => {
  const { root, cacheDir } = tempRoot('gone');
  const d = spawnTracked(root, cacheDir, { rootCheckMs: 100 });
  await waitFor(async () => (await pingDaemon(cacheDir)).ok, 10_000, 'the daemon');
  const removed = Date.now();
  fs.rmSync(root, { recursive: true, force: true });
  expect(await d.exited).toBe(0);
  expect(Date.now() - removed).toBeLessThan(3_000);
  expect(d.stderr()).toMatch(/done \(root_gone\)/);
  expect(fs.existsSync(socketPathFor(cacheDir))).toBe(false);
  expect(fs.existsSync(lockPathFor(cacheDir))).toBe(false);
});

test('SIGTERM stops the daemon cleanly', async () => {
  const { root, cacheDir } = tempRoot('term');
  const d = spawnTracked(root, cacheDir);
  await waitFor(async () => (await pingDaemon(cacheDir)).ok, 10_000, 'the daemon');
  d.child.kill('SIGTERM');
  expect(await d.exited).toBe(0);
  expect(fs.existsSync(socketPathFor(cacheDir))).toBe(false);
  expect(fs.existsSync(lockPathFor(cacheDir))).toBe(false);
});

test('a handler exception does not kill the daemon process; status reports pid, start, reconciles and watcher; it runs at nice 10', async () => {
  const { root, cacheDir } = tempRoot('proc');
  const d = spawnTracked(root, cacheDir, { quietMs: 30 });
  await waitFor(async () => (await pingDaemon(cacheDir)).ok, 10_000, 'the daemon');
  const thrown = await sendRequest(cacheDir, { verb: 'throw' });
  expect(thrown).toMatchObject({ ok: true, reply: { exitCode: 2, error: { code: 'handler_failed' } } });
  const echo = await sendRequest(cacheDir, { verb: 'echo', args: ['still here'] });
  expect(echo.ok && JSON.parse(echo.reply.stdout).args).toEqual(['still here']);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'edit');
  await waitFor(() => recordedReconciles(cacheDir).length >= 2, 3_000, 'a reconcile after the edit');
  const status = await waitFor(
    async () => {
      const s = await daemonStatus(cacheDir);
      return s.ok && s.status.reconcile.runs >= 2 ? s : undefined;
    },
    3_000,
    'status to count the finished reconcile',
  );
  expect(status.status).toMatchObject({ pid: d.child.pid, root, watcher: { state: 'watching' }, generation: 1 });
  expect(Date.parse(status.status.startedAt)).toBeLessThanOrEqual(Date.now());
  const nice = Number(fs.readFileSync(`/proc/${d.child.pid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
  expect(nice).toBe(10);
  await stopDaemon(cacheDir);
  expect(await d.exited).toBe(0);
});

test('stop waits for the daemon to release its lock; the cache can then host a new daemon at once', async () => {
  const { root, cacheDir } = tempRoot('restart');
  const first = spawnTracked(root, cacheDir, { reconcileMs: 300 });
  await waitFor(async () => (await pingDaemon(cacheDir)).ok, 10_000, 'the first daemon');
  expect(await stopDaemon(cacheDir)).toMatchObject({ ok: true });
  const second = spawnTracked(root, cacheDir);
  await waitFor(async () => (await pingDaemon(cacheDir)).ok, 10_000, 'the second daemon');
  expect(await first.exited).toBe(0);
  await stopDaemon(cacheDir);
  expect(await second.exited).toBe(0);
  await sleep(10);
});

test('a stale lock (dead pid) raced by four starters: exactly one takes it over and serves', async () => {
  const { root, cacheDir } = tempRoot('takeover');
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const deadPid = Number(dead.stdout.toString());
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(lockPathFor(cacheDir), String(deadPid)); // left by a daemon that died
  fs.writeFileSync(socketPathFor(cacheDir), ''); // and its socket file
  expect(processAlive(deadPid)).toBe(false);
  const racers = [0, 1, 2, 3].map(() => spawnTracked(root, cacheDir));
  const ping = await waitFor(
    async () => {
      const r = await pingDaemon(cacheDir);
      return r.ok ? r : undefined;
    },
    15_000,
    'one racer to serve',
  );
  const codes = await Promise.all(racers.filter((p) => p.child.pid !== ping.pid).map((p) => p.exited));
  expect(codes).toEqual([3, 3, 3]);
  expect(racers.filter((p) => p.child.pid === ping.pid)).toHaveLength(1);
  expect(fs.existsSync(`${lockPathFor(cacheDir)}.takeover`)).toBe(false);
  await stopDaemon(cacheDir);
});
