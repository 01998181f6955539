// index then search through the real CLI: JSON shape, ranking, lines format, limits, order.
import * as fs from 'node:fs';
import { byteOf, CURSOR, HANDLE, makeRepo, type Repo } from './cli';

const LIB_RS = `//! Rate limiting.

/// A token bucket that refills over time.
pub struct TokenBucket {
    tokens: u32,
    capacity: u32,
}

impl TokenBucket {
    pub fn refill_tokens(&mut self, n: u32) {
        self.tokens = (self.tokens + n).min(self.capacity);
    }
}
`;

const CALLER_RS = `use crate::lib::TokenBucket;

fn tick(bucket: &mut TokenBucket) {
    // refill_tokens is called once per tick
    bucket.refill_tokens(1);
}
`;

const CLIENT_TS = `import { refillTokens } from './bucket';

export function scheduleRefill(every: number): void {
  setInterval(() => refillTokens(every), every);
}
`;

function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'src/lib.rs': LIB_RS,
    'src/caller.rs': CALLER_RS,
    'web/client.ts': CLIENT_TS,
  };
  for (let i = 0; i < 8; i++)
    files[`src/user_${i}.rs`] = `fn use_${i}(b: &mut TokenBucket) {\n    b.refill_tokens(${i});\n}\n`;
  return files;
}

describe('index then search', () => {
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo(manyFiles(), 'search');
    const idx = repo.cli('index');
    expect(idx.status).toBe(0);
    const rep = idx.json();
    expect(rep).toMatchObject({ root: repo.root, cache: repo.cacheDir, published: true, files: 11, parsed: 11 });
  });

  it('returns hits with the documented JSON shape and real byte spans', () => {
    const r = repo.cli('search', 'refill_tokens');
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith('}\n')).toBe(true);
    const out = r.json();
    expect(out.query).toBe('refill_tokens');
    expect(out.set).toMatch(/^[0-9a-z]{6}$/);
    expect(out.hits.length).toBeGreaterThanOrEqual(2);
    out.hits.forEach((h: any, i: number) => {
      expect(h.handle).toMatch(HANDLE);
      expect(h.handle).toBe(`${out.set}:${i + 1}`);
      expect(h.uri).toBe(`file://${repo.root}/${h.path}`);
      expect(Number.isInteger(h.start_line) && h.start_line >= 1).toBe(true);
      expect(h.end_line).toBeGreaterThanOrEqual(h.start_line);
      expect(h.end).toBeGreaterThan(h.start);
      expect(Array.isArray(h.sources)).toBe(true);
      const bytes = fs.readFileSync(repo.abs(h.path));
      expect(h.end).toBeLessThanOrEqual(bytes.length);
      // start_line is the line holding byte `start`
      expect(bytes.subarray(0, h.start).toString('latin1').split('\n').length).toBe(h.start_line);
    });
    // file-first: one representative per file
    const paths = out.hits.map((h: any) => h.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(out.coverage).toMatchObject({ state: 'complete', indexed_files: 11 });
  });

  it('ranks the definition first for an identifier query, with name and snippet', () => {
    // a roomy budget keeps snippets (docs/spec/retrieval.md §4: they are dropped when fewer than eight hits fit)
    const out = repo.cli('-b', '5000', 'search', 'refill_tokens').json();
    const first = out.hits[0];
    expect(first.path).toBe('src/lib.rs');
    expect(first.name).toMatch(/refill_tokens$/);
    const bytes = fs.readFileSync(repo.abs('src/lib.rs'));
    const fnAt = byteOf(bytes, 'pub fn refill_tokens');
    expect(first.start).toBeLessThanOrEqual(fnAt);
    expect(first.end).toBeGreaterThan(byteOf(bytes, 'self.capacity);'));
    expect(bytes.subarray(first.start, first.end).toString()).toContain('fn refill_tokens');
    expect(first.snippet.line).toBe(10);
    expect(first.snippet.text).toContain('refill_tokens');
    // a reference hit is named after the definition its span is, not after the name it calls
    const ref = out.hits.find((h: any) => h.path === 'src/caller.rs');
    expect(ref).toMatchObject({ name: 'tick', start_line: 3, end_line: 6 });
    const viaSym = repo.cli('-b', '5000', 'search', 'sym:refill_tokens').json();
    expect(viaSym.hits.find((h: any) => h.path === 'src/caller.rs')).toMatchObject({ name: 'tick' });
    expect(viaSym.hits[0].name).toMatch(/refill_tokens$/);
  });

  it('renders lines (the default) as HANDLE  PATH:A-B[  NAME][  [origin]], evidence rows, coverage and next', () => {
    const r = repo.lines('-n', '2', 'search', 'refill_tokens');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    // code hits carry no origin marker (only [docs], [test], [config], [git-log] do)
    const head = /^([0-9a-z]{6,16}):(\d+) {2}(\S+):(\d+)-(\d+)(?: {2}(\S+))?$/;
    const heads = lines.filter((l) => head.test(l));
    expect(heads).toHaveLength(2);
    const first = head.exec(heads[0])!;
    expect(first[2]).toBe('1');
    expect(first[3]).toBe('src/lib.rs');
    expect(first[6]).toMatch(/refill_tokens$/);
    expect(lines.filter((l) => /^ {2}\d+: .+/.test(l)).length).toBeGreaterThanOrEqual(1);
    const coverage = lines.filter((l) => l.startsWith('coverage: '));
    expect(coverage).toHaveLength(1);
    const next = lines.find((l) => l.startsWith('next: '));
    expect(next).toMatch(new RegExp(`^next: more ${first[1]}@2 \\(2 of \\d+ files; stopped by -n\\)$`));
    // --format lines is the same format
    expect(repo.cli('--format', 'lines', '-n', '2', 'search', 'refill_tokens').stdout.split('\n')[0]).toMatch(head);
    // every line is one of the documented kinds
    for (const l of lines)
      expect(head.test(l) || /^ {2}\d+[:!-] /.test(l) || /^(coverage|next|truncated|matches left): /.test(l)).toBe(
        true,
      );
    // no byte offsets or URIs in lines
    expect(r.stdout).not.toMatch(/file:\/\/|"start"|\bstart=|\bend=/);
  });

  it('honours -n and offers a cursor to the rest', () => {
    const all = repo.cli('-b', '5000', 'search', 'refill_tokens').json();
    expect(all.hits.length).toBeGreaterThan(3);
    const three = repo.cli('-b', '5000', '-n', '3', 'search', 'refill_tokens').json();
    expect(three.hits).toHaveLength(3);
    expect(three.next).toMatch(CURSOR);
    expect(three.next).toBe(`${three.set}@3`);
    expect(three.hits.map((h: any) => h.path)).toEqual(all.hits.slice(0, 3).map((h: any) => h.path));
  });

  it('orders two identical searches identically (new set ids, same hits)', () => {
    const strip = (o: any) => o.hits.map(({ handle, ...rest }: any) => ({ ...rest, ordinal: handle.split(':')[1] }));
    const a = repo.cli('-b', '5000', 'search', 'TokenBucket', 'refill').json();
    const b = repo.cli('-b', '5000', 'search', 'TokenBucket', 'refill').json();
    expect(a.set).not.toBe(b.set);
    expect(a.hits.length).toBeGreaterThan(3);
    expect(strip(b)).toEqual(strip(a));
  });

  it('searches TypeScript too', () => {
    const out = repo.cli('search', 'scheduleRefill').json();
    expect(out.hits[0]).toMatchObject({ path: 'web/client.ts', name: 'scheduleRefill', start_line: 3 });
  });
});
