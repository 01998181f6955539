import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reconcile } from '@trufflepig/index';
import { enableReaderPool, openPublished, releaseReader } from '../src/reader-pool';

describe('reader pool (long-lived processes)', () => {
  it('reuses a loaded index until a new publication replaces it', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-pool-')));
    const root = path.join(base, 'root');
    const cache = path.join(base, 'cache');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.rs'), 'fn alpha() {}\n');
    await reconcile(root, { cacheDir: cache, parallelism: 1 });
    enableReaderPool();
    const first = await openPublished(cache, root);
    const again = await openPublished(cache, root);
    if (!first.ok || !again.ok) throw new Error('open failed');
    expect(again.value).toBe(first.value);
    releaseReader(again.value);
    fs.writeFileSync(path.join(root, 'b.rs'), 'fn beta() {}\n');
    await reconcile(root, { cacheDir: cache, parallelism: 1 });
    const fresh = await openPublished(cache, root);
    if (!fresh.ok) throw new Error('open failed');
    expect(fresh.value).not.toBe(first.value);
    expect(fresh.value.generation).toBe(2);
    // The retired reader still answers its user until released.
    expect(first.value.generation).toBe(1);
    expect(first.value.files().length).toBe(1);
    releaseReader(first.value);
    releaseReader(fresh.value);
  });
});
