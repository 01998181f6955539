import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reconcile } from '@trufflepig/index';
import { closeIdleStaleReaders, openPublished, ReaderPool, releaseReader } from '../src/core/reader-pool';
import { CLIENT_HOST, ROOT_DAEMON_HOST } from '../src/core/host';
import { openWorkspace } from '../src';

describe('reader pool (long-lived processes)', () => {
  it('reuses a loaded index until a new publication replaces it', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-pool-')));
    const root = path.join(base, 'root');
    const cache = path.join(base, 'cache');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.rs'), 'fn alpha() {}\n');
    await reconcile(root, { cacheDir: cache, parallelism: 1 });
    const first = await openPublished(ROOT_DAEMON_HOST, cache, root);
    const again = await openPublished(ROOT_DAEMON_HOST, cache, root);
    if (!first.ok || !again.ok) throw new Error('open failed');
    expect(again.value).toBe(first.value);
    releaseReader(again.value);
    fs.writeFileSync(path.join(root, 'b.rs'), 'fn beta() {}\n');
    await reconcile(root, { cacheDir: cache, parallelism: 1 });
    const fresh = await openPublished(ROOT_DAEMON_HOST, cache, root);
    if (!fresh.ok) throw new Error('open failed');
    expect(fresh.value).not.toBe(first.value);
    expect(fresh.value.generation).toBe(2);
    // The retired reader still answers its user until released.
    expect(first.value.generation).toBe(1);
    expect(first.value.files().length).toBe(1);
    releaseReader(first.value);
    releaseReader(fresh.value);
  });

  it('closes an idle reader of an older generation after a publication, and keeps one in use', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-pool-')));
    const root = path.join(base, 'root');
    const cacheA = path.join(base, 'cache-a');
    const cacheB = path.join(base, 'cache-b');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.rs'), 'fn alpha() {}\n');
    await reconcile(root, { cacheDir: cacheA, parallelism: 1 });
    await reconcile(root, { cacheDir: cacheB, parallelism: 1 });
    const idle = await openPublished(ROOT_DAEMON_HOST, cacheA, root);
    const busy = await openPublished(ROOT_DAEMON_HOST, cacheB, root);
    if (!idle.ok || !busy.ok) throw new Error('open failed');
    releaseReader(idle.value);
    // Nothing newer is published: both stay open.
    closeIdleStaleReaders();
    expect(idle.value.db.open).toBe(true);
    fs.writeFileSync(path.join(root, 'b.rs'), 'fn beta() {}\n');
    await reconcile(root, { cacheDir: cacheA, parallelism: 1 });
    await reconcile(root, { cacheDir: cacheB, parallelism: 1 });
    closeIdleStaleReaders();
    // The idle one held generation 1's snapshot for nobody: closed. The busy one answers its user.
    expect(idle.value.db.open).toBe(false);
    expect(busy.value.db.open).toBe(true);
    expect(busy.value.generation).toBe(1);
    releaseReader(busy.value);
    const fresh = await openPublished(ROOT_DAEMON_HOST, cacheA, root);
    if (!fresh.ok) throw new Error('open failed');
    expect(fresh.value.generation).toBe(2);
    releaseReader(fresh.value);
  });
});

/** Descriptors this process holds open on `file`. */
function openDescriptors(file: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
}

describe('reader pool of a library Workspace', () => {
  async function indexedRoot(): Promise<{ root: string; cache: string }> {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-pool-lib-')));
    const root = path.join(base, 'root');
    const cache = path.join(base, 'cache');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.rs'), 'fn alpha_one() {}\n');
    return { root, cache };
  }

  it('keeps one reader open between searches, sees a new generation, and closes it with the Workspace', async () => {
    const { root, cache } = await indexedRoot();
    const ws = await openWorkspace({ root, cache, noWorkspace: true });
    const [indexed] = (await ws.index()).roots;
    const file = path.join(indexed.cacheDir, 'index.sqlite');
    expect(openDescriptors(file)).toBe(0);
    expect((await ws.search('alpha_one')).hits.map((h) => h.path)).toEqual(['a.rs']);
    const held = openDescriptors(file);
    expect(held).toBeGreaterThan(0);
    await ws.search('alpha_one');
    await ws.search('fn');
    expect(openDescriptors(file)).toBe(held);
    // A new generation is read by the next search (the pooled reader is replaced).
    fs.writeFileSync(path.join(root, 'b.rs'), 'fn beta_two() {}\n');
    await ws.index();
    expect((await ws.search('beta_two')).hits.map((h) => h.path)).toEqual(['b.rs']);
    await ws.close();
    expect(openDescriptors(file)).toBe(0);
  });

  it('closes a reader left unused for its idle time, and opens one again when asked', async () => {
    const { root, cache } = await indexedRoot();
    await reconcile(root, { cacheDir: cache, parallelism: 1 });
    const pool = new ReaderPool(50);
    const host = { ...CLIENT_HOST, readers: pool };
    const first = await openPublished(host, cache, root);
    if (!first.ok) throw new Error('open failed');
    const again = await openPublished(host, cache, root);
    if (!again.ok) throw new Error('open failed');
    expect(again.value).toBe(first.value);
    releaseReader(first.value);
    releaseReader(again.value);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(first.value.db.open).toBe(false);
    const fresh = await openPublished(host, cache, root);
    if (!fresh.ok) throw new Error('open failed');
    expect(fresh.value.db.open).toBe(true);
    expect(fresh.value.files().map((f) => f.path)).toEqual(['a.rs']);
    // One in use is never closed for idleness.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(fresh.value.db.open).toBe(true);
    releaseReader(fresh.value);
    pool.closeAll();
    expect(fresh.value.db.open).toBe(false);
  });
});
