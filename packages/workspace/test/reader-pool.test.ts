import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reconcile } from '@trufflepig/index';
import { closeIdleStaleReaders, openPublished, releaseReader } from '../src/core/reader-pool';
import { ROOT_DAEMON_HOST } from '../src/core/host';

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
