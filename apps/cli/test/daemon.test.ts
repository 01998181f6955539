// The root daemon through the CLI: started by the first read, answering later reads, seeing
// edits on its own, stopped by `stop`. Every daemon a test starts is stopped by that test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, runCli, until, type Repo } from './cli';

describe('the root daemon', () => {
  let repo: Repo;
  const cli = (...args: string[]) =>
    runCli(['--root', repo.root, '--cache', repo.cache, ...args], repo.root, { daemon: true });

  beforeAll(() => {
    repo = makeRepo({ 'src/lib.rs': 'pub fn alpha_beta() {}\n' }, 'daemon');
  });

  afterAll(() => {
    cli('stop');
  });

  it('--no-daemon starts nothing', () => {
    const r = runCli(['--root', repo.root, '--cache', repo.cache, 'search', 'alpha_beta'], repo.root);
    expect(r.json().hits[0].path).toBe('src/lib.rs');
    expect(runCli(['--root', repo.root, '--cache', repo.cache, 'status'], repo.root).json().daemon).toBe('none');
  });

  it('a read starts the daemon, which then answers, reconciles edits by itself, and stops on request', async () => {
    const first = cli('search', 'alpha_beta');
    expect(first.status).toBe(0);
    const status = cli('status').json();
    expect(status.daemon).toMatchObject({ state: 'serving' });
    const pid = status.daemon.pid as number;
    expect(() => process.kill(pid, 0)).not.toThrow();
    // Read-your-own-writes: the first search after a save waits for that save's reconcile.
    repo.write('src/new.rs', 'pub fn gamma_delta() {}\n');
    const seen = cli('search', 'gamma_delta').json();
    expect(seen.hits?.[0]?.path).toBe('src/new.rs');
    expect(seen.coverage.generation).toBeGreaterThanOrEqual(2);
    repo.write('src/lib.rs', 'pub fn alpha_beta() {}\npub fn epsilon_zeta() {}\n');
    expect(cli('search', 'epsilon_zeta').json().hits?.[0]?.path).toBe('src/lib.rs');
    expect(cli('status').json().daemon.pid).toBe(pid);
    // ctx of a definition by name, served: the daemon checks the words as the client does.
    expect(cli('ctx', 'sym:epsilon_zeta', 'file:src/').json().symbol).toMatchObject({
      path: 'src/lib.rs',
      name: 'epsilon_zeta',
    });
    const twoHandles = cli('ctx', 'a:1', 'b:2');
    expect(twoHandles.status).toBe(2);
    expect(twoHandles.stderr).toContain('bad_arguments: ctx takes one HANDLE');
    expect(cli('status').json().daemon.pid).toBe(pid);
    expect(cli('stop').json()).toEqual({ stopped: pid, what: 'root daemon' });
    await until('the daemon to exit', () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    expect(fs.existsSync(path.join(repo.cacheDir, 'daemon.sock'))).toBe(false);
    expect(cli('stop').json()).toEqual({ stopped: null, what: 'root daemon', reason: 'no root daemon runs here' });
    // Asking whether a daemon runs starts none (the default mode, not --no-daemon).
    expect(cli('status').json()).toMatchObject({ state: 'published', daemon: 'none' });
    expect(cli('status').json().daemon).toBe('none');
    expect(fs.existsSync(path.join(repo.cacheDir, 'daemon.sock'))).toBe(false);
  });

  it("an unindexed root's first search waits for the daemon's first index and answers", async () => {
    const fresh = makeRepo(
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/m${i}.rs`, `pub fn item_${i}() {}\n`])),
      'warming',
    );
    const call = (...args: string[]) =>
      runCli(['--root', fresh.root, '--cache', fresh.cache, ...args], fresh.root, { daemon: true });
    try {
      // 300 files take the daemon's first reconcile far longer than its start (~0.1 s): the
      // read waits for it (FIRST_INDEX_WAIT_MS) instead of answering index_warming.
      const first = call('search', 'item_7');
      expect(first.status).toBe(0);
      expect(first.json().hits[0].path).toBe('src/m7.rs');
    } finally {
      call('stop');
    }
  });
});

describe('publication under a daemon that dies', () => {
  it('kill -9 during a reconcile leaves the previous generation readable; the next daemon recovers; handles survive restarts', async () => {
    const { rootDaemonStatus } = require('@trufflepig/workspace') as typeof import('@trufflepig/workspace');
    const files: Record<string, string> = { 'keep/stable.rs': 'pub fn stable_marker() {}\n' };
    for (let i = 0; i < 1500; i++) files[`src/m${i}.rs`] = `pub fn first_${i}() { let x = ${i}; }\n`;
    const r = makeRepo(files, 'kill9');
    const call = (...args: string[]) =>
      runCli(['--root', r.root, '--cache', r.cache, ...args], r.root, { daemon: true });
    const local = (...args: string[]) => runCli(['--root', r.root, '--cache', r.cache, ...args], r.root);
    try {
      call('search', 'stable_marker');
      const before = await until(
        'the first publication',
        () => {
          const page = call('search', 'stable_marker').json();
          return page.hits?.length ? page : undefined;
        },
        60_000,
      );
      const handle = before.hits[0].handle as string;
      for (let i = 0; i < 1500; i++) r.write(`src/m${i}.rs`, `pub fn second_${i}() { let y = ${i}; }\n`);
      const status = await until('a running reconcile', async () => {
        const s = await rootDaemonStatus(r.cacheDir);
        return s !== 'none' && (s.reconcile as { running: boolean }).running ? (s as { pid: number }) : undefined;
      });
      process.kill(status.pid, 'SIGKILL');
      await until('the daemon to die', () => {
        try {
          process.kill(status.pid, 0);
          return undefined;
        } catch {
          return true;
        }
      });
      // The previous generation is still what a reader sees.
      const after = local('status').json();
      expect(after).toMatchObject({ state: 'published', daemon: 'none' });
      expect(after.coverage.generation).toBe(1);
      expect(local('search', 'first_7').json().hits[0].path).toBe('src/m7.rs');
      // The next daemon takes over, recovers and publishes the edits.
      await until(
        'the edits to be published',
        () => (call('search', 'second_7').json().hits?.[0]?.path === 'src/m7.rs' ? true : undefined),
        60_000,
      );
      expect(fs.readdirSync(r.cacheDir).filter((n) => n.includes('.staging-'))).toEqual([]);
      // A handle from before the crash still reads its unchanged file.
      expect(call('show', handle).json().rows[0].text).toBe('pub fn stable_marker() {}');
    } finally {
      call('stop');
    }
  }, 180_000);
});

describe('a cache the daemon cannot create', () => {
  const procfs = fs.existsSync('/proc/self') ? it : it.skip;
  procfs('answers cache_unwritable instead of hanging (recursive mkdir loops under /proc)', () => {
    const r = makeRepo({ 'a.rs': 'fn a() {}\n' }, 'proccache');
    const out = runCli(['--root', r.root, '--cache', '/proc/trufflepig-cannot-exist/cache', 'search', 'a'], r.root, {
      daemon: true,
    });
    expect(out.status).toBe(2);
    expect(out.json().error.code).toBe('cache_unwritable');
  });
});
