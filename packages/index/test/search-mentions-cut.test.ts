// An identifier's mentions (files spelling it where no extractor read it) rank after every
// file that uses it (identifierTiers). When the uses lane is cut at its cap, a mention must
// not be listed after the cut, where a file that uses the name belongs (query/search.ts).
import { Fixture, indexedReader } from './helpers';
import { parseQuery, searchIndex } from '../src';

const FILES: Record<string, string> = {
  'src/alloc.c': 'void *pool_grab(int n) { return 0; }\n',
  ...Object.fromEntries(
    Array.from({ length: 4 }, (_, i) => [`src/user${i}.c`, `int user${i}(void) { return pool_grab(${i}) != 0; }\n`]),
  ),
  'docs/pools.md': '# Pools\n\nCall pool_grab to take a block from the pool.\n',
};

const reader = indexedReader(new Fixture('mentions-cut', FILES));

function listing(laneFiles: number): { paths: string[]; truncated: boolean } {
  const q = parseQuery('pool_grab');
  if (!q.ok) throw new Error(q.error.message);
  const out = searchIndex(reader(), q.value, { laneFiles });
  return { paths: out.hits.map((h) => h.path), truncated: out.truncated };
}

describe('mentions of an identifier and the uses lane cap', () => {
  it('lists the mention after every file using the name when the lane holds them all', () => {
    const all = listing(100);
    expect(all.truncated).toBe(false);
    expect(all.paths[all.paths.length - 1]).toBe('docs/pools.md');
    expect(all.paths).toHaveLength(6);
  });

  it('lists no mention once the cap cut files that use the name, and says it is truncated', () => {
    const cut = listing(3);
    expect(cut.truncated).toBe(true);
    expect(cut.paths).not.toContain('docs/pools.md');
    // What is listed is the definition and the users the lane kept, nothing of a lower tier.
    expect(cut.paths[0]).toBe('src/alloc.c');
    expect(cut.paths.every((p) => p.startsWith('src/'))).toBe(true);
  });
});
