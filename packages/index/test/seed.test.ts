import * as fs from 'node:fs';
import * as path from 'node:path';
import { IndexReader, parseQuery, reconcile, searchIndex } from '../src';
import { Fixture, tempDir, writeTree } from './helpers';

const LIB = 'pub struct TokenBucket { tokens: u32 }\nimpl TokenBucket { pub fn refill(&mut self) {} }\n';
const MAIN = 'fn main() { let b = TokenBucket::new(); b.refill(); }\n';

async function symPaths(cache: string, root: string, query: string): Promise<string[]> {
  const reader = await IndexReader.open(cache, root);
  if (!reader.ok) throw new Error(reader.error.message);
  try {
    const q = parseQuery(query);
    if (!q.ok) throw new Error(q.error.message);
    return searchIndex(reader.value, q.value).hits.map((h) => h.path);
  } finally {
    reader.value.close();
  }
}

describe('seeding a first index from another root (linked worktrees)', () => {
  it('reuses the donor facts by content, parses only what differs, and publishes generation 1', async () => {
    const member = new Fixture('seed-member', {
      'src/lib.rs': LIB,
      'src/main.rs': MAIN,
      'src/gone.rs': 'fn gone() {}\n',
    });
    await member.index();
    await member.index(); // generation stays 1 with nothing changed; write once more to reach 2
    member.write({ 'src/main.rs': `${MAIN}// more\n` });
    expect((await member.index()).generation).toBe(2);

    const worktree = tempDir('seed-wt');
    const cache = tempDir('seed-wt-cache');
    writeTree(worktree, {
      'src/lib.rs': LIB,
      'src/main.rs': MAIN.replace('b.refill();', 'b.drain();'),
      'src/new.rs': 'fn fresh() {}\n',
    });
    const rep = await reconcile(worktree, { cacheDir: cache, parallelism: 1, seedFrom: member.cache });
    if (!rep.ok) throw new Error(rep.error.message);
    expect(rep.value).toMatchObject({ generation: 1, published: true, files: 3, parsed: 2, removed: 2 });
    expect(rep.value.seed).toEqual({ state: 'seeded', from: member.cache, generation: 2, reused: 1 });
    expect(await symPaths(cache, worktree, 'sym:fresh')).toEqual(['src/new.rs']);
    expect(await symPaths(cache, worktree, 'sym:gone')).toEqual([]);
    expect((await symPaths(cache, worktree, 'sym:TokenBucket'))[0]).toBe('src/lib.rs');
    // The donor is read, never written.
    expect(await symPaths(member.cache, member.root, 'sym:gone')).toEqual(['src/gone.rs']);

    const reader = await IndexReader.open(cache, worktree);
    if (!reader.ok) throw new Error(reader.error.message);
    expect(reader.value.seed()).toEqual(rep.value.seed);
    reader.value.close();
  });

  it('records a missing donor index and indexes from scratch', async () => {
    const worktree = tempDir('seed-none');
    const cache = tempDir('seed-none-cache');
    const donorCache = tempDir('seed-none-donor');
    writeTree(worktree, { 'src/lib.rs': LIB });
    const rep = await reconcile(worktree, { cacheDir: cache, parallelism: 1, seedFrom: donorCache });
    if (!rep.ok) throw new Error(rep.error.message);
    expect(rep.value).toMatchObject({ generation: 1, parsed: 1, seed: { state: 'no_parent_index', from: donorCache } });
  });

  it('ignores the seed once the root has its own index', async () => {
    const member = new Fixture('seed-own', { 'src/lib.rs': LIB });
    await member.index();
    const cache = tempDir('seed-own-cache');
    const root = tempDir('seed-own-root');
    writeTree(root, { 'src/lib.rs': LIB });
    await reconcile(root, { cacheDir: cache, parallelism: 1 });
    fs.appendFileSync(path.join(root, 'src/lib.rs'), 'fn later() {}\n');
    const rep = await reconcile(root, { cacheDir: cache, parallelism: 1, seedFrom: member.cache });
    if (!rep.ok) throw new Error(rep.error.message);
    expect(rep.value.generation).toBe(2);
    expect(rep.value.seed).toBeUndefined();
  });
});
