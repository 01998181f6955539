import { createExtractor } from '../src/extract/pool';
import { extractFile, reconcile } from '../src';
import { Fixture } from './helpers';

/** ~1.8 MB of generated Rust: far more than a 16 MB parser heap can extract. */
function hugeRust(): string {
  const lines: string[] = [];
  for (let i = 0; i < 34_000; i++) lines.push(`pub fn gen_${i}(a: u32) -> u32 { helper(a) + ${i} }`);
  return `${lines.join('\n')}\nfn helper(v: u32) -> u32 { v }\n`;
}

const TINY_HEAP = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 };

describe('parser thread pool', () => {
  it('extracts exactly what in-process extraction does', async () => {
    const pool = createExtractor({ parallelism: 2 });
    try {
      const src = Buffer.from('pub struct A { x: u8 }\nimpl A { fn f(&self) { g(); } }\n');
      expect(await pool.extract('rust', src)).toEqual(extractFile('rust', src));
    } finally {
      await pool.close();
    }
  });

  it('survives a thread running out of memory: that job fails, the next ones run', async () => {
    const pool = createExtractor({ parallelism: 2, heapLimits: TINY_HEAP });
    try {
      await expect(pool.extract('rust', Buffer.from(hugeRust()))).rejects.toThrow();
      const small = Buffer.from('fn ok() {}\n');
      for (let i = 0; i < 4; i++)
        expect((await pool.extract('rust', small)).definitions.map((d) => d.name)).toEqual(['ok']);
    } finally {
      await pool.close();
    }
  });

  it('a reconcile keeps the file lexically and counts a parse failure', async () => {
    const files: Record<string, string> = { 'src/huge.rs': hugeRust() };
    for (let i = 0; i < 10; i++) files[`src/m${i}.rs`] = `pub fn m${i}() {}\n`;
    const fx = new Fixture('pool-oom', files);
    const out = await reconcile(fx.root, { cacheDir: fx.cache, parallelism: 2, parserHeapLimits: TINY_HEAP });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.parseFailures).toBe(1);
    expect(out.value.files).toBe(11);
    expect(await fx.paths('gen_33999')).toEqual(['src/huge.rs']);
    expect(await fx.paths('sym:m7')).toEqual(['src/m7.rs']);
  });

  it('a small reconcile still parses a large file in a heap-limited thread', async () => {
    const fx = new Fixture('pool-large-alone', { 'src/huge.rs': hugeRust() });
    const out = await reconcile(fx.root, { cacheDir: fx.cache, parserHeapLimits: TINY_HEAP });
    if (!out.ok) throw new Error(out.error.message);
    // In-process extraction has no heap limit and would have succeeded.
    expect(out.value.parseFailures).toBe(1);
    expect(await fx.paths('gen_100')).toEqual(['src/huge.rs']);
  });
});
