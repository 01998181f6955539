// Issue 14 deliverable 5 through the workspace's clients: a real daemon started with a
// doctored version, then a client request. The fast path (askDaemon) never takes its
// answer and never restarts it; serveThroughDaemons replaces an older daemon with a real
// daemon of its own version (dist/daemon-main.js) and answers through it, and leaves a
// newer one alone (undefined: the CLI answers locally). Also the reply's `json` pass-through.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  daemonStatus,
  pingDaemon,
  serveRoot,
  stopDaemon,
  TRUFFLEPIG_VERSION,
  type RunningDaemon,
} from '@trufflepig/runtime';
import { askDaemon } from '../src/serving/launch/fast-client';
import { resolveContext } from '../src/core/context';
import { makeRepo } from './ws-helpers';

// The compiled module: its DAEMON_SCRIPT (dist/daemon-main.js) is the daemon it starts.
const { serveThroughDaemons } =
  require('../dist/serving/launch/daemon-control') as typeof import('../src/serving/launch/daemon-control');

interface Fixture {
  readonly root: string;
  readonly cacheDir: string;
  readonly opts: { root: string; cache: string; cwd: string; env: NodeJS.ProcessEnv };
}

const inProcess: RunningDaemon[] = [];
const cacheDirs: string[] = [];
const spawned: number[] = [];
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
afterEach(async () => {
  // Whatever serves a test's cache now (a daemon it spawned, or a doctored one) is stopped,
  // and a spawned daemon is waited for (it finishes a running reconcile), else killed.
  for (const dir of cacheDirs.splice(0)) await stopDaemon(dir, { timeoutMs: 2_000 });
  await Promise.all(inProcess.splice(0).map((d) => d.stop()));
  for (const pid of spawned.splice(0)) {
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

function fixture(label: string): Fixture {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-version-${label}-`)));
  const root = makeRepo(path.join(base, 'repo'), { 'src/lib.rs': 'pub fn alpha_beta() {}\n' });
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(base, '.cache'),
    XDG_CONFIG_HOME: path.join(base, '.config'),
    HOME: base,
  };
  const opts = { root, cache: path.join(base, 'cache'), cwd: root, env };
  const ctx = resolveContext(opts);
  if (!ctx.ok || ctx.value.kind !== 'single') throw new Error('expected a single root');
  cacheDirs.push(ctx.value.root.cacheDir);
  return { root, cacheDir: ctx.value.root.cacheDir, opts };
}

/** A real daemon on the root's socket claiming `version`; counts the requests its handler gets. */
async function doctoredDaemon(
  f: Fixture,
  version: string,
  json?: string,
): Promise<{ daemon: RunningDaemon; handled: () => number }> {
  let handled = 0;
  const started = await serveRoot({
    root: f.root,
    cacheDir: f.cacheDir,
    version,
    watch: false,
    handleSignals: false,
    priority: false,
    log: () => undefined,
    reconcile: async () => undefined,
    handler: async () => {
      handled++;
      return { stdout: `answered by ${version}\n`, stderr: '', exitCode: 0, ...(json !== undefined ? { json } : {}) };
    },
  });
  if (!started.ok) throw new Error(`${started.code}: ${started.message}`);
  inProcess.push(started.daemon);
  return { daemon: started.daemon, handled: () => handled };
}

const statusOptions = (f: Fixture) => ({ root: f.root, cache: f.opts.cache, format: 'json' });

test('an older daemon: the fast path falls back without restarting it; serveThroughDaemons stops it, starts its own version once and answers', async () => {
  const f = fixture('older');
  const old = await doctoredDaemon(f, '0.0.1');
  // The fast path: no answer taken from the older daemon, and nothing restarted (it stays light).
  expect(await askDaemon(f.cacheDir, 'status', [], statusOptions(f), f.root)).toBeUndefined();
  expect(await pingDaemon(f.cacheDir)).toMatchObject({ ok: true, pid: process.pid, version: '0.0.1' });
  // The full path: the older daemon is stopped through the ordinary stop path ...
  const served = await serveThroughDaemons('status', [], f.opts, statusOptions(f));
  await expect(old.daemon.done).resolves.toBe('stop_request');
  expect(old.handled()).toBe(0);
  // ... and a daemon of this version (dist/daemon-main.js, its own process) answered.
  const status = await daemonStatus(f.cacheDir);
  if (!status.ok) throw new Error(status.message);
  spawned.push(status.status.pid);
  expect(status.status.version).toBe(TRUFFLEPIG_VERSION);
  expect(status.status.pid).not.toBe(process.pid);
  expect(served).toMatchObject({ exitCode: 0 });
  expect(JSON.parse(served?.stdout ?? '{}')).toMatchObject({
    root: f.root,
    daemon: { state: 'serving', pid: status.status.pid },
  });
  // The next fast-path call is answered by the new daemon.
  expect(await askDaemon(f.cacheDir, 'status', [], statusOptions(f), f.root)).toMatchObject({ exitCode: 0 });
}, 60_000);

test('a newer daemon: serveThroughDaemons leaves it running and answers undefined (the CLI answers locally); its handler never runs', async () => {
  const f = fixture('newer');
  const newer = await doctoredDaemon(f, '99.0.0');
  expect(await serveThroughDaemons('status', [], f.opts, statusOptions(f))).toBeUndefined();
  expect(await askDaemon(f.cacheDir, 'status', [], statusOptions(f), f.root)).toBeUndefined();
  expect(await pingDaemon(f.cacheDir)).toMatchObject({ ok: true, pid: process.pid, version: '99.0.0' });
  expect(newer.handled()).toBe(0);
});

test("a daemon's json rendering comes back from askDaemon and serveThroughDaemons; absent, there is no json key", async () => {
  const f = fixture('json');
  const text = JSON.stringify({ hits: [{ path: 'src/lib.rs' }] });
  await doctoredDaemon(f, TRUFFLEPIG_VERSION, text);
  expect(await askDaemon(f.cacheDir, 'search', ['alpha'], {}, f.root)).toEqual({
    stdout: `answered by ${TRUFFLEPIG_VERSION}\n`,
    stderr: '',
    exitCode: 0,
    json: text,
  });
  expect(await serveThroughDaemons('search', ['alpha'], f.opts, {})).toEqual({
    stdout: `answered by ${TRUFFLEPIG_VERSION}\n`,
    stderr: '',
    exitCode: 0,
    json: text,
  });
  const g = fixture('nojson');
  await doctoredDaemon(g, TRUFFLEPIG_VERSION);
  const plain = await askDaemon(g.cacheDir, 'search', ['alpha'], {}, g.root);
  expect(plain && 'json' in plain).toBe(false);
});
