// When an in-process daemon reconciles: real files, real watchers, short real timings.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { serveRoot, type RootDaemonOptions, type RunningDaemon } from '../src/server';
import { sendRequest } from '../src/client';
import type { ReconcileRun } from '../src/scheduler';
import { sleep, tempRoot, waitFor } from './helpers';

const running: RunningDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

/** A reconcile that records when it ran, what it was given, how many ran at once, and takes `ms`. */
function recorder(ms = 0) {
  const calls: { start: number; end?: number; changed?: readonly string[] }[] = [];
  let active = 0;
  let maxActive = 0;
  const reconcile = async (changed?: readonly string[]) => {
    active++;
    maxActive = Math.max(maxActive, active);
    const call: { start: number; end?: number; changed?: readonly string[] } = { start: Date.now(), changed };
    calls.push(call);
    await sleep(ms);
    call.end = Date.now();
    active--;
    return { ok: true, value: { generation: calls.length } };
  };
  return { reconcile, calls, maxActive: () => maxActive };
}

async function start(
  reconcile: (changed?: readonly string[]) => Promise<unknown>,
  extra: Partial<RootDaemonOptions> = {},
  dirs = tempRoot('rec'),
) {
  const out = await serveRoot({
    root: dirs.root,
    cacheDir: dirs.cacheDir,
    reconcile,
    handleSignals: false,
    priority: false,
    log: () => undefined,
    handler: async () => ({ stdout: '', stderr: '', exitCode: 0 }),
    ...extra,
  });
  if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
  running.push(out.daemon);
  return { daemon: out.daemon, ...dirs };
}

test('reconciles at start, and again within a second of a file edit', async () => {
  const r = recorder();
  const { root } = await start(r.reconcile);
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  await sleep(100);
  const edited = Date.now();
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 2;\n');
  await waitFor(() => r.calls.length >= 2, 2_000, 'a reconcile after the edit');
  const latency = r.calls[1].start - edited;
  expect(latency).toBeGreaterThanOrEqual(70); // the 75 ms quiet period (timer granularity aside)
  expect(latency).toBeLessThan(1_000);
});

test('a burst of edits is debounced: quiet period, but never more than maxDebounceMs after the first event', async () => {
  const r = recorder();
  const { root } = await start(r.reconcile, { quietMs: 75, maxDebounceMs: 250 });
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  await sleep(100);
  const burstStart = Date.now();
  let writes = 0;
  while (Date.now() - burstStart < 900) {
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), `export const a = ${writes++};\n`);
    await sleep(20);
  }
  const during = r.calls.filter((c) => c.start >= burstStart && c.start < burstStart + 900).length;
  // Events every 20 ms never leave 75 ms of quiet: only the 250 ms ceiling fires, 3 or so times.
  expect(during).toBeGreaterThanOrEqual(2);
  expect(during).toBeLessThanOrEqual(5);
  expect(writes).toBeGreaterThan(20);
  const first = r.calls.find((c) => c.start >= burstStart);
  expect((first?.start ?? Infinity) - burstStart).toBeLessThan(500);
});

test('events only inside .git, node_modules, target and .trufflepig are ignored; other directories (even build output) count', async () => {
  const r = recorder();
  const dirs = tempRoot('ign');
  for (const d of ['.git', 'node_modules/pkg', 'target/debug', '.trufflepig', 'src/node_modules', 'dist'])
    fs.mkdirSync(path.join(dirs.root, d), { recursive: true });
  await start(r.reconcile, {}, dirs);
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  await sleep(100);
  for (const f of [
    '.git/index',
    'node_modules/pkg/x.js',
    'target/debug/out',
    '.trufflepig/state',
    'src/node_modules/y.js',
    'node_modules/new-dir/z.js',
  ]) {
    fs.mkdirSync(path.dirname(path.join(dirs.root, f)), { recursive: true });
    fs.writeFileSync(path.join(dirs.root, f), 'changed');
  }
  await sleep(600);
  expect(r.calls).toHaveLength(1);
  fs.writeFileSync(path.join(dirs.root, 'dist', 'bundle.js'), 'changed');
  await waitFor(() => r.calls.length >= 2, 2_000, 'a reconcile after an edit in dist/');
});

test('files Git tracks under node_modules and target are watched (the walk indexes them); untracked ones beside them are not', async () => {
  const r = recorder();
  const dirs = tempRoot('tracked-vendor');
  const files = [
    'node_modules/vendored/lib/a.js',
    'target/gen/schema.rs',
    'node_modules/untracked/b.js',
    'target/debug/out',
  ];
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dirs.root, f)), { recursive: true });
    fs.writeFileSync(path.join(dirs.root, f), 'x');
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: dirs.root,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-f', files[0], files[1]);
  await start(r.reconcile, {}, dirs);
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  await sleep(100);
  for (const f of [files[2], files[3]]) fs.writeFileSync(path.join(dirs.root, f), 'changed');
  await sleep(600);
  expect(r.calls).toHaveLength(1);
  fs.writeFileSync(path.join(dirs.root, files[0]), 'changed');
  await waitFor(() => r.calls.length >= 2, 2_000, 'a reconcile after an edit of a tracked file under node_modules/');
  await sleep(300);
  const before = r.calls.length;
  fs.writeFileSync(path.join(dirs.root, files[1]), 'changed');
  await waitFor(() => r.calls.length > before, 2_000, 'a reconcile after an edit of a tracked file under target/');
});

test('a directory created after start is watched too', async () => {
  const r = recorder();
  const { root } = await start(r.reconcile);
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  fs.mkdirSync(path.join(root, 'lib', 'deep'), { recursive: true });
  await waitFor(() => r.calls.length >= 2, 2_000, 'a reconcile after mkdir');
  await sleep(200);
  const before = r.calls.length;
  fs.writeFileSync(path.join(root, 'lib', 'deep', 'new.ts'), 'export {}\n');
  await waitFor(() => r.calls.length > before, 2_000, 'a reconcile after a write in the new directory');
});

test('never two reconciles at once: events during a run become exactly one follow-up run', async () => {
  const r = recorder(400);
  const { root } = await start(r.reconcile, { quietMs: 20, maxDebounceMs: 50 });
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  // Several separate bursts while the start reconcile runs (each flushes after ~20 ms).
  for (let i = 0; i < 4; i++) {
    fs.writeFileSync(path.join(root, 'src', `f${i}.ts`), `${i}`);
    await sleep(60);
  }
  await waitFor(() => r.calls.length >= 2 && r.calls.every((c) => c.end), 3_000, 'the follow-up run');
  await sleep(300);
  expect(r.calls).toHaveLength(2);
  expect(r.maxActive()).toBe(1);
  expect(r.calls[1].start).toBeGreaterThanOrEqual(r.calls[0].end as number);
});

test('without a watcher it reconciles on the short periodic schedule, and status says so', async () => {
  const r = recorder();
  const { daemon } = await start(r.reconcile, {
    watch: false,
    periodicWithoutWatcherMs: 150,
    periodicWithWatcherMs: 60_000,
  });
  await sleep(800);
  expect(r.calls.length).toBeGreaterThanOrEqual(4);
  expect(r.calls.length).toBeLessThanOrEqual(7);
  expect(daemon.status()).toMatchObject({ watcher: { state: 'off' }, periodicMs: 150 });
});

test('with a watcher the long periodic schedule applies', async () => {
  const r = recorder();
  const { daemon } = await start(r.reconcile, { periodicWithWatcherMs: 200, periodicWithoutWatcherMs: 50 });
  await sleep(700);
  expect(r.calls.length).toBeGreaterThanOrEqual(3);
  expect(r.calls.length).toBeLessThanOrEqual(5);
  expect(daemon.status()).toMatchObject({ watcher: { state: 'watching' }, periodicMs: 200 });
});

test('a watcher that fails later (too many directories) triggers a full reconcile and the periodic fallback', async () => {
  const r = recorder();
  const runs: ReconcileRun[] = [];
  const { root, daemon } = await start(r.reconcile, {
    maxWatchedDirectories: 3,
    periodicWithWatcherMs: 60_000,
    periodicWithoutWatcherMs: 150,
    onReconciled: (run) => runs.push(run),
  });
  await waitFor(() => runs.length >= 1, 2_000, 'the start reconcile');
  expect(daemon.status().watcher).toMatchObject({ state: 'watching', directories: 2 });
  fs.mkdirSync(path.join(root, 'x', 'y', 'z'), { recursive: true });
  await waitFor(() => runs.some((run) => run.reason === 'watcher_failed'), 2_000, 'the watcher_failed reconcile');
  expect(daemon.status()).toMatchObject({
    watcher: { state: 'failed', reason: expect.stringContaining('more than 3 directories') },
    periodicMs: 150,
  });
  const n = runs.length;
  await sleep(500);
  expect(runs.length - n).toBeGreaterThanOrEqual(2); // periodic every 150 ms now
});

test('a root with too many directories starts without a watcher, on the short schedule', async () => {
  const dirs = tempRoot('many');
  for (let i = 0; i < 5; i++) fs.mkdirSync(path.join(dirs.root, `d${i}`));
  const { daemon } = await start(
    recorder().reconcile,
    { maxWatchedDirectories: 3, periodicWithoutWatcherMs: 1_000 },
    dirs,
  );
  expect(daemon.status()).toMatchObject({ watcher: { state: 'failed' }, periodicMs: 1_000 });
});

test('a reconcile that throws is recorded in status and the daemon goes on', async () => {
  let n = 0;
  const { root, daemon } = await start(async () => {
    if (++n === 1) throw new Error('disk on fire');
    return { ok: true, value: { generation: 7 } };
  });
  await waitFor(() => daemon.status().reconcile.runs >= 1, 2_000, 'the failing start reconcile');
  expect(daemon.status().reconcile.last).toMatchObject({ ok: false, error: 'disk on fire' });
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'again');
  await waitFor(() => daemon.status().generation === 7, 2_000, 'the next reconcile');
  expect(daemon.status().reconcile.last).toMatchObject({ ok: true });
});

test('index_locked is retried; a handler can ask for a reconcile through the daemon', async () => {
  let n = 0;
  const calls: number[] = [];
  const dirs = tempRoot('lockd');
  const { daemon } = await start(
    async () => {
      calls.push(Date.now());
      return ++n === 1
        ? { ok: false, error: { code: 'index_locked', message: 'held' } }
        : { ok: true, value: { generation: n } };
    },
    {
      handler: async (_req, ctx) => {
        const run = await ctx.reconcileNow();
        return { stdout: JSON.stringify(run.result), stderr: '', exitCode: 0 };
      },
    },
    dirs,
  );
  await waitFor(() => calls.length >= 2, 3_000, 'the locked retry');
  expect(calls[1] - calls[0]).toBeGreaterThanOrEqual(900);
  const reply = await sendRequest(dirs.cacheDir, { verb: 'index' });
  expect(reply.ok && JSON.parse(reply.reply.stdout)).toEqual({ ok: true, value: { generation: 3 } });
  expect(daemon.status().generation).toBe(3);
});

test('watch events name what changed: the reconcile is given those paths; the start reconcile is given none', async () => {
  const r = recorder();
  const { root } = await start(r.reconcile, { quietMs: 75, maxDebounceMs: 1_000 });
  await waitFor(() => r.calls.length >= 1, 2_000, 'the start reconcile');
  expect(r.calls[0].changed).toBeUndefined();
  await sleep(100);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 2;\n');
  fs.mkdirSync(path.join(root, 'lib'));
  fs.writeFileSync(path.join(root, 'src', 'b.ts'), 'export const b = 1;\n');
  await waitFor(() => r.calls.length >= 2, 2_000, 'a reconcile after the edits');
  await sleep(300);
  const named = new Set(r.calls.slice(1).flatMap((c) => c.changed ?? ['(whole root)']));
  expect([...named].sort()).toEqual(['lib', 'src/a.ts', 'src/b.ts']);
});

test('a failed run leaves what it was given unsettled: the next run reconciles the whole root', async () => {
  const calls: (readonly string[] | undefined)[] = [];
  const { root, daemon } = await start(async (changed) => {
    calls.push(changed);
    return calls.length === 2
      ? { ok: false, error: { code: 'cache_unwritable', message: 'full' } }
      : { ok: true, value: { generation: calls.length } };
  });
  await waitFor(() => calls.length >= 1, 2_000, 'the start reconcile');
  await sleep(100);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 2;\n');
  await waitFor(() => calls.length >= 2, 2_000, 'the failing watch reconcile');
  expect(calls[1]).toEqual(['src/a.ts']);
  await sleep(100);
  fs.writeFileSync(path.join(root, 'src', 'c.ts'), 'export const c = 3;\n');
  await waitFor(() => calls.length >= 3, 2_000, 'the next reconcile');
  expect(calls[2]).toBeUndefined();
  expect(daemon.status().reconcile.last).toMatchObject({ ok: true });
});

test('a request during a run makes the follow-up reconcile the whole root, events or not', async () => {
  const calls: (readonly string[] | undefined)[] = [];
  const dirs = tempRoot('req-follow');
  let release: () => void = () => undefined;
  await start(
    async (changed) => {
      calls.push(changed);
      if (calls.length === 2) await new Promise<void>((resolve) => (release = resolve));
      return { ok: true, value: { generation: calls.length } };
    },
    {
      handler: async (_req, ctx) => {
        await ctx.reconcileNow();
        return { stdout: '', stderr: '', exitCode: 0 };
      },
    },
    dirs,
  );
  await waitFor(() => calls.length >= 1, 2_000, 'the start reconcile');
  await sleep(100);
  fs.writeFileSync(path.join(dirs.root, 'src', 'a.ts'), 'export const a = 2;\n');
  await waitFor(() => calls.length >= 2, 2_000, 'the watch reconcile');
  expect(calls[1]).toEqual(['src/a.ts']);
  fs.writeFileSync(path.join(dirs.root, 'src', 'd.ts'), 'export const d = 4;\n');
  await sleep(200);
  const requested = sendRequest(dirs.cacheDir, { verb: 'index' });
  await sleep(100);
  release();
  await requested;
  await waitFor(() => calls.length >= 3, 2_000, 'the follow-up run');
  expect(calls[2]).toBeUndefined();
});

test('settleNoted: a read after an edit is answered from the reconcile of that edit, started at once instead of after the quiet period', async () => {
  const r = recorder(150);
  const finishedWhenAnswered: number[] = [];
  const { root, cacheDir } = await start(r.reconcile, {
    quietMs: 5_000,
    maxDebounceMs: 10_000,
    handler: async (_req, ctx) => {
      await ctx.settleNoted();
      finishedWhenAnswered.push(r.calls.filter((c) => c.end !== undefined).length);
      return { stdout: '', stderr: '', exitCode: 0 };
    },
  });
  await waitFor(() => r.calls[0]?.end, 2_000, 'the start reconcile');
  // Nothing noted since: answered at once, and no reconcile is started for it.
  expect((await sendRequest(cacheDir, { verb: 'search' })).ok).toBe(true);
  expect(r.calls).toHaveLength(1);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 2;\n');
  await sleep(50);
  const asked = Date.now();
  expect((await sendRequest(cacheDir, { verb: 'search' })).ok).toBe(true);
  expect(Date.now() - asked).toBeLessThan(2_000); // not the 5 s quiet period
  expect(r.calls).toHaveLength(2);
  expect(r.calls[1].changed).toEqual(['src/a.ts']);
  // The second answer came after the edit's reconcile had finished.
  expect(finishedWhenAnswered).toEqual([1, 2]);
});

test('settleNoted waits for noted events at most freshReadWaitMs; with 0 it does not wait', async () => {
  const settling = {
    handler: async (_req: unknown, ctx: { settleNoted(): Promise<void> }) => {
      await ctx.settleNoted();
      return { stdout: '', stderr: '', exitCode: 0 };
    },
  };
  const calls: { start: number; end?: number }[] = [];
  const reconcile = async () => {
    const call: { start: number; end?: number } = { start: Date.now() };
    calls.push(call);
    if (calls.length > 1) await sleep(1_500);
    call.end = Date.now();
    return { ok: true, value: { generation: calls.length } };
  };
  const capped = await start(reconcile, { quietMs: 5_000, maxDebounceMs: 10_000, freshReadWaitMs: 300, ...settling });
  await waitFor(() => calls[0]?.end, 2_000, 'the start reconcile');
  fs.writeFileSync(path.join(capped.root, 'src', 'a.ts'), 'export const a = 2;\n');
  await sleep(50);
  let asked = Date.now();
  expect((await sendRequest(capped.cacheDir, { verb: 'search' })).ok).toBe(true);
  const waited = Date.now() - asked;
  expect(waited).toBeGreaterThanOrEqual(250);
  expect(waited).toBeLessThan(1_200);
  expect(calls).toHaveLength(2);
  expect(calls[1].end).toBeUndefined(); // answered while the slow reconcile still ran

  const r = recorder();
  const unwaited = await start(r.reconcile, { quietMs: 5_000, maxDebounceMs: 10_000, freshReadWaitMs: 0, ...settling });
  await waitFor(() => r.calls[0]?.end, 2_000, 'the start reconcile');
  fs.writeFileSync(path.join(unwaited.root, 'src', 'a.ts'), 'export const a = 3;\n');
  await sleep(50);
  asked = Date.now();
  expect((await sendRequest(unwaited.cacheDir, { verb: 'search' })).ok).toBe(true);
  expect(Date.now() - asked).toBeLessThan(1_000);
  expect(r.calls).toHaveLength(1); // the quiet period still runs its course
});

test('firstReconcileWithin: false while the start reconcile runs past the wait, true once it has ended', async () => {
  const r = recorder(400);
  const answers: boolean[] = [];
  const { cacheDir } = await start(r.reconcile, {
    handler: async (_req, ctx) => {
      answers.push(await ctx.firstReconcileWithin(50));
      answers.push(await ctx.firstReconcileWithin(2_000));
      answers.push(await ctx.firstReconcileWithin(0));
      return { stdout: '', stderr: '', exitCode: 0 };
    },
  });
  await sendRequest(cacheDir, { verb: 'search' });
  expect(answers).toEqual([false, true, true]);
  expect(r.calls[0].end).toBeDefined();
});
