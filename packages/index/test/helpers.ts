// Real temp directories, real git repositories and real indexes for the tests.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IndexReader, parseQuery, reconcile, searchIndex, type ReconcileReport, type SearchOutcome } from '../src';

export function tempDir(label: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-index-${label}-`)));
}

/** Write files (relative path → content) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

export function gitInit(root: string): void {
  execFileSync('git', ['init', '-q', root]);
}

/** A root with its own cache directory, indexed in-process (parallelism 1 keeps tests light). */
export class Fixture {
  readonly root: string;
  readonly cache: string;

  constructor(label: string, files: Record<string, string | Buffer> = {}) {
    this.root = tempDir(label);
    this.cache = tempDir(`${label}-cache`);
    writeTree(this.root, files);
  }

  write(files: Record<string, string | Buffer>): void {
    writeTree(this.root, files);
  }

  async index(): Promise<ReconcileReport> {
    const out = await reconcile(this.root, { cacheDir: this.cache, parallelism: 1 });
    if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
    return out.value;
  }

  async open(): Promise<IndexReader> {
    const out = await IndexReader.open(this.cache, this.root);
    if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
    return out.value;
  }

  async search(query: string): Promise<SearchOutcome> {
    const q = parseQuery(query);
    if (!q.ok) throw new Error(`${q.error.code}: ${q.error.message}`);
    const reader = await this.open();
    try {
      return searchIndex(reader, q.value);
    } finally {
      reader.close();
    }
  }

  async paths(query: string): Promise<string[]> {
    return (await this.search(query)).hits.map((h) => h.path);
  }
}

/**
 * Indexes `fx` before the suite and opens a reader of it, closed after the suite; the
 * returned function reads it inside the suite's tests. `clean` also requires that no file
 * failed to parse.
 */
export function indexedReader(fx: Fixture, { clean = false }: { readonly clean?: boolean } = {}): () => IndexReader {
  let reader: IndexReader | undefined;
  beforeAll(async () => {
    const report = await fx.index();
    if (clean) expect(report.parseFailures).toBe(0);
    reader = await fx.open();
  });
  afterAll(() => reader?.close());
  return () => {
    if (!reader) throw new Error('the fixture is not indexed yet: read it inside a test');
    return reader;
  };
}

/** indexedReader, requiring that no file failed to parse. */
export function cleanIndexReader(fx: Fixture): () => IndexReader {
  return indexedReader(fx, { clean: true });
}

/** Every file under `dir`, depth first (the language fixtures' files). */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * A seeded generator of integers below `n` (a linear congruential one): property tests
 * draw the same cases on every run.
 */
export function seededBelow(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}
