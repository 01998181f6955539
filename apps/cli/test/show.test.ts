// show HANDLE, continuations, more CURSOR, and show path: through the real CLI.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { byteOf, CURSOR, makeRepo, tempDir, type Repo } from './cli';

const LONG_LINES = 260;
const LONG_RS = `pub fn long_pipeline(seed: u64) -> u64 {\n${Array.from(
  { length: LONG_LINES },
  (_, i) => `    let v${i} = seed.wrapping_mul(${i + 3});\n`,
).join('')}    v0\n}\n`;

const SMALL_RS = `pub struct Ledger {\n    entries: Vec<u64>,\n}\n\nimpl Ledger {\n    pub fn settle_account(&mut self) -> u64 {\n        self.entries.iter().sum()\n    }\n}\n`;

function firstHit(repo: Repo, ...query: string[]): any {
  const out = repo.cli('-b', '100000', 'search', ...query).json();
  expect(out.hits.length).toBeGreaterThan(0);
  return out.hits[0];
}

describe('show HANDLE', () => {
  let repo: Repo;
  beforeAll(() => {
    repo = makeRepo({ 'src/ledger.rs': SMALL_RS, 'src/long.rs': LONG_RS }, 'show');
    expect(repo.cli('index').status).toBe(0);
  });

  it('reads a location pasted as a hit line prints it (PATH:A-B, PATH) as show path: does', () => {
    const hit = firstHit(repo, 'settle_account');
    const pasted = repo.cli('--format', 'lines', 'show', `${hit.path}:${hit.start_line}-${hit.end_line}`);
    expect(pasted.status).toBe(0);
    expect(pasted.stdout).toBe(
      repo.cli('--format', 'lines', 'show', `path:${hit.path}:${hit.start_line}-${hit.end_line}`).stdout,
    );
    expect(pasted.stdout.split('\n')[0]).toBe('path:src/ledger.rs:6-8');
    expect(repo.cli('show', 'src/ledger.rs').json().rows).toHaveLength(9);
    // Still a handle when it has a handle's shape; still refused when it leaves the root.
    expect(repo.cli('show', 'zzzzzz:1').stderr).toContain('unknown_result');
    expect(repo.cli('show', '../outside.rs:1-2').status).toBe(2);
  });

  it('prints rows with exact byte offsets of the hit, verified by revision', () => {
    const hit = firstHit(repo, 'settle_account');
    const r = repo.cli('show', hit.handle);
    expect(r.status).toBe(0);
    const out = r.json();
    const bytes = fs.readFileSync(repo.abs('src/ledger.rs'));
    expect(out).toMatchObject({
      handle: hit.handle,
      path: 'src/ledger.rs',
      verified: 'revision',
      start_line: 6,
      end_line: 8,
    });
    expect(out.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(out.rows.map((row: any) => row.line)).toEqual([6, 7, 8]);
    for (const row of out.rows) {
      expect(bytes.subarray(row.start, row.end).toString('utf8')).toBe(row.text);
      expect(bytes[row.end] === 0x0a || row.end === bytes.length).toBe(true);
    }
    expect(out.rows[0].start).toBe(byteOf(bytes, '    pub fn settle_account'));
    expect(out.rows[2].end).toBe(byteOf(bytes, '    }\n}') + 5);
    expect(out.next).toBeUndefined();
  });

  it('renders lines format rows as N<TAB>TEXT', () => {
    const hit = firstHit(repo, 'settle_account');
    const r = repo.cli('--format', 'lines', 'show', hit.handle);
    expect(r.stdout).toBe(
      `${hit.handle}  src/ledger.rs:6-8  Ledger::settle_account\n6\t    pub fn settle_account(&mut self) -> u64 {\n7\t        self.entries.iter().sum()\n8\t    }\n`,
    );
  });

  it('follows a continuation of a > 200-line span to its end without gaps', () => {
    // a definition query spans the whole definition
    const hit = firstHit(repo, 'sym:long_pipeline');
    expect(hit.end_line - hit.start_line + 1).toBe(LONG_LINES + 3);
    const bytes = fs.readFileSync(repo.abs('src/long.rs'));
    const first = repo.cli('-b', '100000', 'show', hit.handle).json();
    expect(first.rows).toHaveLength(200);
    expect(typeof first.next).toBe('string');
    const second = repo.cli('-b', '100000', 'show', first.next).json();
    expect(second.rows[0].line).toBe(201);
    expect(second.rows[0].start).toBe(first.rows[199].end + 1);
    expect(second.next).toBeUndefined();
    const rows = [...first.rows, ...second.rows];
    expect(rows.map((r: any) => r.line)).toEqual(Array.from({ length: LONG_LINES + 3 }, (_, i) => i + 1));
    expect(rows.map((r: any) => r.text).join('\n') + '\n').toBe(bytes.toString('utf8'));
  });

  it('follows a budget-cut continuation (default budget) in lines format', () => {
    const hit = firstHit(repo, 'sym:long_pipeline');
    const seen: number[] = [];
    let target = hit.handle;
    for (let page = 0; page < 20; page++) {
      const r = repo.cli('--format', 'lines', 'show', target);
      expect(r.status).toBe(0);
      for (const m of r.stdout.matchAll(/^(\d+)\t/gm)) seen.push(Number(m[1]));
      const next = /^next: show (\S+)$/m.exec(r.stdout);
      if (!next) break;
      target = next[1];
    }
    expect(seen).toEqual(Array.from({ length: LONG_LINES + 3 }, (_, i) => i + 1));
  });

  it('answers stale_source after the file changed, and an explicit error after deletion', () => {
    const other = makeRepo({ 'a.rs': SMALL_RS }, 'stale');
    const hit = firstHit(other, 'settle_account');
    fs.writeFileSync(other.abs('a.rs'), SMALL_RS.replace('sum()', 'sum::<u64>()'));
    const stale = other.cli('show', hit.handle);
    expect(stale.status).toBe(2);
    expect(stale.json().error.code).toBe('stale_source');
    expect(stale.stderr).toMatch(/^trufflepig: stale_source: .+\n$/);
    fs.rmSync(other.abs('a.rs') as string);
    const gone = other.cli('show', hit.handle);
    expect(gone.status).toBe(2);
    expect(gone.json().error.code).toBe('source_missing');
    expect(gone.json().error.message).toContain('a.rs');
  });

  it('rejects unknown set ids and malformed handles with stable codes', () => {
    // a set id is 6+ random characters of [0-9a-z], reserved when issued: one never issued here is unknown
    const unknown = repo.cli('show', 'never0:1');
    expect(unknown.status).toBe(2);
    expect(unknown.json().error.code).toBe('unknown_result');
    for (const bad of ['not-a-handle', '0123:1', 'never0:0', 'never0', 'never0~12', 'never-:1']) {
      const r = repo.cli('show', bad);
      expect({ bad, status: r.status, code: r.json().error.code }).toEqual({ bad, status: 2, code: 'bad_handle' });
    }
    const hit = firstHit(repo, 'settle_account');
    const past = repo.cli('show', `${hit.handle.split(':')[0]}:999`);
    expect(past.status).toBe(2);
    expect(past.json().error.code).toBe('ordinal_out_of_range');
  });

  it('answers a handle, continuation or cursor in the old 32-hex form with a bad_handle naming the new form', () => {
    const old = '0193a0c2f1e84f6d0c2b9a11e5d07c3a';
    for (const args of [
      ['show', `${old}:1`],
      ['show', `${old}:1~40`],
      ['--json', 'show', `${old}:1`],
      ['ctx', `${old}:2`],
    ]) {
      const r = repo.cli(...args);
      expect({ args, status: r.status }).toEqual({ args, status: 2 });
      expect(r.stderr).toMatch(
        /^trufflepig: bad_handle: .*old 32-hex form.*SET:ORDINAL \(a set id of 6 or more characters of \[0-9a-z\]/,
      );
    }
    const more = repo.cli('more', `${old}@20`);
    expect(more.status).toBe(2);
    expect(more.stderr).toMatch(/^trufflepig: bad_cursor: .*old 32-hex form.*SET@OFFSET/);
  });
});

describe('more CURSOR', () => {
  it('returns the next page in the original order, even after the tree changed', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/f${String(i).padStart(2, '0')}.rs`] = `fn f${i}() { drain_queue(${i}); }\n`;
    files['src/queue.rs'] = 'pub fn drain_queue(n: u32) -> u32 {\n    n\n}\n';
    const repo = makeRepo(files, 'more');
    const all = repo.cli('-b', '100000', 'search', 'drain_queue').json();
    expect(all.hits).toHaveLength(13);
    const page1 = repo.cli('-b', '100000', '-n', '5', 'search', 'drain_queue').json();
    expect(page1.next).toMatch(CURSOR);
    // a new file and a reindex must not leak into the stored set
    fs.writeFileSync(repo.abs('src/zz.rs'), 'fn zz() { drain_queue(99); }\n');
    expect(repo.cli('index').json().published).toBe(true);
    const page2 = repo.cli('-b', '100000', '-n', '5', 'more', page1.next).json();
    expect(page2.set).toBe(page1.set);
    expect(page2.hits.map((h: any) => h.handle)).toEqual([6, 7, 8, 9, 10].map((n) => `${page1.set}:${n}`));
    const page3 = repo.cli('-b', '100000', '-n', '5', 'more', page2.next).json();
    expect(page3.hits).toHaveLength(3);
    expect(page3.next).toBeUndefined();
    const paged = [...page1.hits, ...page2.hits, ...page3.hits].map((h: any) => h.path);
    expect(paged).toEqual(all.hits.map((h: any) => h.path));
    expect(paged).not.toContain('src/zz.rs');
    // handles from more resolve like those of the first page
    const shown = repo.cli('show', page2.hits[0].handle).json();
    expect(shown.path).toBe(page2.hits[0].path);
  });

  it('rejects a handle given to more and a cursor past the end', () => {
    const repo = makeRepo({ 'a.rs': SMALL_RS }, 'morebad');
    const out = repo.cli('search', 'Ledger').json();
    const r = repo.cli('more', out.hits[0].handle);
    expect(r.status).toBe(2);
    expect(r.json().error.code).toMatch(/^bad_cursor$/);
    const past = repo.cli('more', `${out.set}@99`);
    expect(past.status).toBe(2);
    expect(past.json().error.code).toBe('bad_cursor');
  });
});

describe('show path:P[:A-B]', () => {
  let repo: Repo;
  let outside: string;
  beforeAll(() => {
    repo = makeRepo({ 'src/ledger.rs': SMALL_RS, 'notes.txt': 'one\ntwo\nthree\n' }, 'showpath');
    outside = path.join(tempDir('outside'), 'secret.rs');
    fs.writeFileSync(outside, 'pub const SECRET: u32 = 7;\n');
    fs.symlinkSync(outside, path.join(repo.root, 'src', 'escape.rs'));
    fs.symlinkSync(path.dirname(outside), path.join(repo.root, 'outdir'));
    fs.symlinkSync('ledger.rs', path.join(repo.root, 'src', 'alias.rs'));
  });

  it('reads current bytes of a range without claiming indexed freshness', () => {
    const r = repo.cli('show', 'path:src/ledger.rs:6-7');
    expect(r.status).toBe(0);
    const out = r.json();
    const bytes = fs.readFileSync(repo.abs('src/ledger.rs'));
    expect(out).toMatchObject({ path: 'src/ledger.rs', verified: 'current file', start_line: 6, end_line: 7 });
    expect(out.handle).toBeUndefined();
    expect(out.start).toBe(byteOf(bytes, '    pub fn settle'));
    expect(out.end).toBe(byteOf(bytes, '\n    }'));
    for (const row of out.rows) expect(bytes.subarray(row.start, row.end).toString()).toBe(row.text);
    // no index needed, and edits show up at once
    fs.appendFileSync(repo.abs('notes.txt'), 'four\n');
    const notes = repo.cli('show', 'path:notes.txt').json();
    expect(notes.rows.map((x: any) => x.text)).toEqual(['one', 'two', 'three', 'four']);
  });

  it('follows a symlink that stays inside the root', () => {
    const out = repo.cli('show', 'path:src/alias.rs:1').json();
    expect(out.rows[0].text).toBe('pub struct Ledger {');
  });

  it('rejects .. traversal, absolute paths and symlinks leaving the root', () => {
    const rel = path.relative(repo.root, outside);
    for (const spec of [
      `path:${rel}`,
      `path:src/../../${path.basename(path.dirname(outside))}/secret.rs`,
      `path:${outside}`,
      'path:src/escape.rs',
      'path:outdir/secret.rs',
      'path:src/%2E%2E/%2E%2E/x',
    ]) {
      const r = repo.cli('show', spec);
      expect({ spec, status: r.status, code: r.stdout && r.json().error.code }).toEqual({
        spec,
        status: 2,
        code: 'path_outside_root',
      });
      expect(r.stdout).not.toContain('SECRET');
      expect(r.stderr).toMatch(/^trufflepig: path_outside_root: .+\n$/);
    }
  });

  it('reports a missing file and a range past the end', () => {
    expect(repo.cli('show', 'path:src/nope.rs').json().error.code).toBe('source_missing');
    expect(repo.cli('show', 'path:notes.txt:40-50').json().error.code).toBe('bad_range');
  });
});
