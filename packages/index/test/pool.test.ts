import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createExtractor, parserEnv } from '../src/extract/pool';
import { PARSER_MALLOC_MMAP_THRESHOLD } from '../src/limits';
import { extractFile, reconcile } from '../src';
import { Fixture } from './helpers';

/** ~1.8 MB of generated Rust: far more than a 16 MB parser heap can extract. */
function hugeRust(): string {
  const lines: string[] = [];
  for (let i = 0; i < 34_000; i++) lines.push(`pub fn gen_${i}(a: u32) -> u32 { helper(a) + ${i} }`);
  return `${lines.join('\n')}\nfn helper(v: u32) -> u32 { v }\n`;
}

const TINY_HEAP = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 };

/** Pids of this process's parser processes, read from /proc (Linux). */
function parserPids(): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (ppid === process.pid && cmdline.includes('extract/worker.js')) pids.push(Number(name));
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

const onLinux = fs.existsSync('/proc/self/stat') ? it : it.skip;

describe('parser process pool', () => {
  it('extracts exactly what in-process extraction does', async () => {
    const pool = createExtractor({ parallelism: 2 });
    try {
      const src = Buffer.from('pub struct A { x: u8 }\nimpl A { fn f(&self) { g(); } }\n');
      expect(await pool.extract('rust', src)).toEqual(extractFile('rust', src));
    } finally {
      await pool.close();
    }
  });

  // With parser threads, an out-of-memory stop that caught V8 inside a getter of the
  // tree-sitter addon aborted the whole process ("terminate called after throwing an
  // instance of 'Napi::Error'"); where the stop lands depends on the limit (at 16 MB it
  // aborted two of six CI runs, at 22-26 MB two of nine runs of one extraction).
  // Six parses into a full heap take ~8 s alone and over 30 s beside the C indexing
  // tests on two cores: the bound is generous, this test is about outcomes.
  it('survives running out of memory at any point of a parse: that job fails, the next ones run', async () => {
    for (const maxOldGenerationSizeMb of [12, 16, 20]) {
      const pool = createExtractor({
        parallelism: 2,
        heapLimits: { maxOldGenerationSizeMb, maxYoungGenerationSizeMb: 2 },
      });
      try {
        const huge = Buffer.from(hugeRust());
        const outcomes = await Promise.allSettled([pool.extract('rust', huge), pool.extract('rust', huge)]);
        for (const o of outcomes) {
          expect(o.status).toBe('rejected');
          expect(String((o as PromiseRejectedResult).reason)).toMatch(/ran out of memory \(\d+ MB heap\)/);
        }
        expect((await pool.extract('rust', Buffer.from('fn ok() {}\n'))).definitions.map((d) => d.name)).toEqual([
          'ok',
        ]);
      } finally {
        await pool.close();
      }
    }
  }, 120_000);

  onLinux('a parser process that aborts fails only the job it was running', async () => {
    // Processes of another test's pool still closing are not this pool's.
    const earlier = new Set(parserPids());
    const ours = (): number[] => parserPids().filter((p) => !earlier.has(p));
    const pool = createExtractor({ parallelism: 2 });
    try {
      const small = Buffer.from('fn ok() {}\n');
      // Both processes up and idle, then one busy for seconds with a file it has started.
      await Promise.all([pool.extract('rust', small), pool.extract('rust', small)]);
      const busy = pool.extract('rust', Buffer.from(hugeRust()));
      busy.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const pids = ours();
      expect(pids).toHaveLength(2);
      for (const pid of pids) process.kill(pid, 'SIGABRT');
      await expect(busy).rejects.toThrow(/parser process died \(signal SIGABRT\)/);
      const names = await Promise.all([1, 2, 3, 4].map(() => pool.extract('rust', small)));
      expect(names.map((x) => x.definitions.map((d) => d.name))).toEqual([['ok'], ['ok'], ['ok'], ['ok']]);
      expect(parserPids().filter((p) => pids.includes(p))).toEqual([]);
    } finally {
      await pool.close();
    }
    expect(ours()).toEqual([]);
  });

  it('a parser process that cannot start is replaced a bounded number of times, then its jobs fail', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-dead-parser-'));
    const script = path.join(dir, 'worker.js');
    fs.writeFileSync(script, 'process.stderr.write("cannot start\\n"); process.exit(3);\n');
    const pool = createExtractor({ parallelism: 2, script });
    try {
      await expect(pool.extract('rust', Buffer.from('fn ok() {}\n'))).rejects.toThrow(
        'parser process died (exit code 3): cannot start',
      );
      await expect(pool.extract('rust', Buffer.from('fn ok() {}\n'))).rejects.toThrow(/exit code 3/);
    } finally {
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives parsers glibc settings that return a tree's memory, unless the caller chose", () => {
    const env = parserEnv({ PATH: '/bin' });
    expect(env).toMatchObject({
      PATH: '/bin',
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: String(PARSER_MALLOC_MMAP_THRESHOLD),
    });
    expect(parserEnv({ MALLOC_ARENA_MAX: '8', MALLOC_MMAP_THRESHOLD_: '1' })).toMatchObject({
      MALLOC_ARENA_MAX: '8',
      MALLOC_MMAP_THRESHOLD_: '1',
    });
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

  it('a small reconcile still parses a large file in a heap-limited parser process', async () => {
    const fx = new Fixture('pool-large-alone', { 'src/huge.rs': hugeRust() });
    const out = await reconcile(fx.root, { cacheDir: fx.cache, parserHeapLimits: TINY_HEAP });
    if (!out.ok) throw new Error(out.error.message);
    // In-process extraction has no heap limit and would have succeeded.
    expect(out.value.parseFailures).toBe(1);
    expect(await fx.paths('gen_100')).toEqual(['src/huge.rs']);
  });
});
