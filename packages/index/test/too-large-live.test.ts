// A file too large to index (over FILE_MAX_BYTES: no regions, facts or trigrams) is still
// read live by `re:` and `"literal"` searches, as rg reads it. An agent trial on the SQLite
// amalgamation (`sqlite3.c`, 9.5 MB: the whole library in one file) got `0 hits` for every
// pattern rg answered from it, with only `excluded 1 too_large` on the coverage line.
import * as path from 'node:path';
import { FILE_MAX_BYTES, TOO_LARGE_LIVE_BYTES_MAX } from '../src/limits';
import { tooLargeCodeMentioning } from '../src/query/mentions';
import { liveReadBound, prepareRegex, regexScan, type RegexFileScan } from '../src/query/live';
import { readChunks, ScanPool } from '../src/query/scan-pool';
import { Fixture, gitInit } from './helpers';

// The helper thread runs the compiled entry (the package is built before its tests).
const HELPER_SCRIPT = path.join(__dirname, '..', 'dist', 'query', 'scan-worker.js');

/** C source past the index's bound, and the line of the one definition after its first FILE_MAX_BYTES. */
function amalgamation(): { text: string; line: number } {
  const parts: string[] = [];
  let bytes = 0;
  let line = 1;
  for (let i = 0; bytes <= FILE_MAX_BYTES; i++) {
    const f = `static int filler_${i}(int x)\n{\n\treturn x + ${i};\n}\n\n`;
    parts.push(f);
    bytes += f.length;
    line += 5;
  }
  parts.push('int btree_insert(struct cursor *c, const void *key)\n{\n\treturn balance_pages(c);\n}\n');
  return { text: parts.join(''), line };
}

/** Small files beside it: enough chunks (SCAN_CHUNK_FILES) for the helper to take some. */
const SMALL_FILES = 200;

function smallFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < SMALL_FILES; i++)
    out[`ext/m${String(i).padStart(3, '0')}.c`] = `int m${i}(void) { return ${i}; }\n`;
  return out;
}

describe('files too large to index, read live by re: and literal searches', () => {
  const big = amalgamation();
  const fx = new Fixture('too-large-live', {
    ...smallFiles(),
    'src/sqlite3.c': big.text,
    'src/shell.c': 'int main(void)\n{\n\treturn btree_insert(0, 0);\n}\n',
  });
  const pool = new ScanPool({ script: HELPER_SCRIPT, minFiles: 1 });

  beforeAll(async () => {
    gitInit(fx.root);
    const report = await fx.index();
    expect(report.excluded).toEqual({ too_large: 1 });
  });
  afterAll(() => pool.close());

  it('finds a definition past the bound with re:, on its line', async () => {
    const out = await fx.search('re:^int btree_insert\\(');
    expect(out.hits.map((h) => [h.path, h.startLine])).toEqual([['src/sqlite3.c', big.line]]);
    expect(out.hits[0].revision).toMatch(/^[0-9a-f]{64}$/);
  });

  it('finds a literal in it, after nothing and before nothing it should not', async () => {
    const out = await fx.search('"balance_pages"');
    expect(out.hits.map((h) => [h.path, h.startLine])).toEqual([['src/sqlite3.c', big.line + 2]]);
    const both = await fx.search('"btree_insert"');
    expect(both.hits.map((h) => h.path).sort()).toEqual(['src/shell.c', 'src/sqlite3.c']);
  });

  it('answers a compound identifier the index neither defines nor uses from it, ranked first', async () => {
    // SQLite's `SQLITE_DEFAULT_CACHE_SIZE` is defined only in sqlite3.c: `search` put three
    // files of its parts first and sqlite3.c last, as a path with no evidence.
    const out = await fx.search('balance_pages');
    expect(out.hits[0]).toMatchObject({ path: 'src/sqlite3.c', startLine: expect.any(Number), lane: 'spelled' });
    expect(out.hits[0].startLine).toBeLessThanOrEqual(big.line + 2);
    expect(out.hits[0].endLine).toBeGreaterThanOrEqual(big.line + 2);
    // One the index uses (shell.c calls it) keeps its identifier lanes: no too-large read.
    expect((await fx.search('btree_insert')).hits[0]).toMatchObject({ path: 'src/shell.c' });
  });

  it('keeps the file filters: -file: and lang: apply to it as to any file', async () => {
    expect(await fx.paths('re:btree_insert -file:src/sqlite3.c')).toEqual(['src/shell.c']);
    expect(await fx.paths('re:balance_pages lang:rust')).toEqual([]);
    expect(await fx.paths('re:balance_pages lang:c')).toEqual(['src/sqlite3.c']);
  });

  it('gives the same answer with a helper thread, which never reads the large file itself', async () => {
    const reader = await fx.open();
    try {
      const { files } = reader.liveScanFiles({
        fileInclude: [],
        fileExclude: [],
        languages: [],
        sources: [],
        sourceExclude: [],
      });
      expect(files.length).toBe(SMALL_FILES + 2);
      const large = files.findIndex((f) => f.path === 'src/sqlite3.c');
      // The helper's loop skips it (its heap is sized for indexed files)…
      const bounds = files.map(liveReadBound);
      const counters = new Int32Array(new SharedArrayBuffer(6 * Int32Array.BYTES_PER_ELEMENT));
      const seen = new Map<number, RegexFileScan>();
      const paths = files.map((f) => f.path);
      readChunks(counters, reader.root, paths, bounds, prepareRegex('balance_\\w+'), Date.now() + 10_000, {
        record: (i, r) => seen.set(i, r),
        readsLarge: false,
      });
      expect(seen.has(large)).toBe(false);
      expect(seen.size).toBe(files.length - 1);
      // …and the asking thread reads it: the answer is the one thread's.
      const alone = regexScan(reader.root, files, 'balance_\\w+');
      expect(alone.hits.map((h) => h.path)).toEqual(['src/sqlite3.c']);
      let helped = 0;
      for (let attempt = 0; attempt < 40 && helped === 0; attempt++) {
        expect(regexScan(reader.root, files, 'balance_\\w+', undefined, undefined, pool)).toEqual(alone);
        helped = pool.lastScan?.helperFiles ?? 0;
        if (helped === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(helped).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
  });
});

/**
 * Generated headers, each too large to index, whose sizes summed pass TOO_LARGE_LIVE_BYTES_MAX
 * by one file: the Linux kernel's 40 register headers (290 MB) would otherwise be read by
 * every `re:`, `"literal"`, `refs` and `show sym:`. Each ends in the same declaration.
 */
const HEADER_BYTES = 7 * 1024 * 1024;
const HEADERS = Math.floor(TOO_LARGE_LIVE_BYTES_MAX / HEADER_BYTES) + 1;
const HEADER_NAMES = Array.from({ length: HEADERS }, (_, i) => `gen/reg_${String.fromCharCode(97 + i)}.h`);

function header(): string {
  const line = '#define mmREG_FILLER 0x00000000\n';
  return line.repeat(Math.ceil(HEADER_BYTES / line.length)) + 'extern int asic_marker(void);\n';
}

const ALL_FILTERS = { fileInclude: [], fileExclude: [], languages: [], sources: [], sourceExclude: [] };

describe('files too large to index, read live within one bound per query', () => {
  const text = header();
  const fx = new Fixture('too-large-bound', {
    ...Object.fromEntries(HEADER_NAMES.map((p) => [p, text])),
    'src/main.c': 'int main(void) { return 0; }\n',
  });
  const read = HEADER_NAMES.slice(0, -1);
  const last = HEADER_NAMES[HEADER_NAMES.length - 1];

  beforeAll(async () => {
    gitInit(fx.root);
    const report = await fx.index();
    expect(report.excluded).toEqual({ too_large: HEADERS });
    expect(text.length * (HEADERS - 1)).toBeLessThanOrEqual(TOO_LARGE_LIVE_BYTES_MAX);
    expect(text.length * HEADERS).toBeGreaterThan(TOO_LARGE_LIVE_BYTES_MAX);
  });

  it('re: reads them in path order up to the bound and names the one it left', async () => {
    const out = await fx.search('re:^extern int asic_marker\\(');
    expect(out.hits.map((h) => h.path).sort()).toEqual(read);
    expect(out.tooLargeUnsearched).toEqual([last]);
  });

  it('a literal does the same', async () => {
    const out = await fx.search('"asic_marker"');
    expect(out.hits.map((h) => h.path).sort()).toEqual(read);
    expect(out.tooLargeUnsearched).toEqual([last]);
  });

  it('file: naming the left file exactly reads it; a directory prefix does not', async () => {
    const named = await fx.search(`re:asic_marker file:${last}`);
    expect(named.hits.map((h) => h.path)).toEqual([last]);
    expect(named.tooLargeUnsearched).toBeUndefined();
    const both = await fx.search(`"asic_marker" file:${last} file:gen/`);
    // The named file first, then the others in path order while the bound holds.
    expect(both.hits.map((h) => h.path).sort()).toEqual([...read.slice(0, -1), last]);
    expect(both.tooLargeUnsearched).toEqual([read[read.length - 1]]);
    const prefix = await fx.search('re:asic_marker file:gen/');
    expect(prefix.tooLargeUnsearched).toEqual([last]);
  });

  it('the mentions check of refs and show sym: keeps the same bound', async () => {
    const reader = await fx.open();
    try {
      const all = tooLargeCodeMentioning(reader, 'asic_marker', ALL_FILTERS);
      expect(all.mentioning.map((f) => f.path)).toEqual(read);
      expect(all.unread.map((f) => f.path)).toEqual([last]);
      const named = tooLargeCodeMentioning(reader, 'asic_marker', { ...ALL_FILTERS, fileInclude: [last] });
      expect(named.mentioning.map((f) => f.path)).toEqual([last]);
      expect(named.unread).toEqual([]);
    } finally {
      reader.close();
    }
  });
});
