// `--cache DIR` is a cache base (docs/spec/retrieval.md §3, issue 11 finding 2): one base serves
// any number of roots, each in `<base>/<root-hash>/`, and an index never answers for a
// root it was not built for.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, rootCacheDir, runCli, tempDir, type Run } from './cli';

const A_FILES = {
  'src/alpha_one.rs': 'pub fn alpha_marker() {}\n',
  'src/alpha_two.rs': 'pub fn alpha_second() { alpha_marker(); }\n',
  'src/alpha_three.rs': 'pub fn alpha_third() {}\n',
};
const B_FILES = { 'lib/beta_only.py': 'def beta_marker():\n    return 1\n' };

function refused(r: Run, code: string): void {
  expect({ status: r.status, stderr: r.stderr.split('\n')[0].split(':').slice(0, 2).join(':') }).toEqual({
    status: 2,
    stderr: `trufflepig: ${code}`,
  });
}

/** Nothing of root A's index (its paths) reaches B's output. */
function noneOfA(r: Run): void {
  for (const name of ['alpha_one', 'alpha_two', 'alpha_three']) {
    expect(r.stdout).not.toContain(name);
    expect(r.stderr).not.toContain(name);
  }
}

describe('one --cache base for several roots', () => {
  const base = path.join(tempDir('shared-base'), 'cache');
  const a = makeRepo(A_FILES, 'share-a');
  const b = makeRepo(B_FILES, 'share-b');
  const onA = (...args: string[]) => runCli(['--root', a.root, '--cache', base, '--format', 'json', ...args]);
  const onB = (...args: string[]) => runCli(['--root', b.root, '--cache', base, '--format', 'json', ...args]);

  beforeAll(() => {
    expect(onA('index').status).toBe(0);
    expect(onB('index').status).toBe(0);
  });

  it('gives each root its own directory under the base', () => {
    const dirA = rootCacheDir(a.root, base);
    const dirB = rootCacheDir(b.root, base);
    expect(dirA).not.toBe(dirB);
    expect(path.dirname(dirA)).toBe(base);
    expect(path.dirname(dirB)).toBe(base);
    expect(fs.existsSync(path.join(dirA, 'index.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(dirB, 'index.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(base, 'index.sqlite'))).toBe(false);
    expect(onB('index').json()).toMatchObject({ root: b.root, cache: dirB });
  });

  it('search answers each root from its own index', () => {
    expect(onA('search', 'sym:alpha_marker').json().hits[0].path).toBe('src/alpha_one.rs');
    expect(onB('search', 'sym:beta_marker').json().hits[0].path).toBe('lib/beta_only.py');
    const crossed = onB('search', 'alpha_marker');
    expect(crossed.status).toBe(0);
    expect(crossed.json().hits).toEqual([]);
    noneOfA(crossed);
  });

  it("status counts each root's own files", () => {
    expect(onA('status').json()).toMatchObject({ root: a.root, state: 'published', coverage: { indexed_files: 3 } });
    expect(onB('status').json()).toMatchObject({ root: b.root, state: 'published', coverage: { indexed_files: 1 } });
  });

  it("show reads each root's own files", () => {
    const own = onB('show', 'path:lib/beta_only.py');
    expect({ status: own.status, text: own.stdout.includes('def beta_marker') }).toEqual({ status: 0, text: true });
    // A's file is not B's: B's index does not list it, whatever A's index holds.
    const missing = onB('show', 'path:src/alpha_one.rs');
    expect(missing.status).toBe(2);
    expect(missing.stdout).not.toContain('pub fn alpha_marker');
    const onOwn = onA('show', 'path:src/alpha_one.rs');
    expect({ status: onOwn.status, text: onOwn.stdout.includes('pub fn alpha_marker') }).toEqual({
      status: 0,
      text: true,
    });
  });
});

describe("a cache directory holding another root's index", () => {
  const a = makeRepo(A_FILES, 'owner-a');
  const b = makeRepo(B_FILES, 'owner-b');
  const base = path.join(tempDir('foreign-base'), 'cache');
  const dirB = rootCacheDir(b.root, base);
  const onB = (...args: string[]) => runCli(['--root', b.root, '--cache', base, '--format', 'json', ...args]);

  beforeAll(() => {
    expect(a.cli('index').status).toBe(0);
    // By hand, as a user copying caches around would: A's index where B's belongs.
    fs.mkdirSync(dirB, { recursive: true });
    fs.copyFileSync(path.join(a.cacheDir, 'index.sqlite'), path.join(dirB, 'index.sqlite'));
  });

  it("search, status and index answer cache_root_mismatch, naming both roots, never A's files", () => {
    for (const args of [['search', 'alpha_marker'], ['search', 'sym:alpha_marker'], ['status'], ['index']]) {
      const r = onB(...args);
      refused(r, 'cache_root_mismatch');
      expect(r.json().error.message).toContain(a.root);
      expect(r.json().error.message).toContain(b.root);
      expect(r.stderr).toMatch(/--cache/);
      noneOfA(r);
    }
  });

  it('the same refusal in lines format and through a daemon', () => {
    const lines = runCli(['--root', b.root, '--cache', base, 'search', 'alpha_marker']);
    refused(lines, 'cache_root_mismatch');
    noneOfA(lines);
    const served = runCli(['--root', b.root, '--cache', base, '--format', 'json', 'search', 'alpha_marker'], b.root, {
      daemon: true,
    });
    try {
      refused(served, 'cache_root_mismatch');
      noneOfA(served);
    } finally {
      runCli(['--root', b.root, '--cache', base, 'stop'], b.root, { daemon: true });
    }
  });

  it("leaves A's index as it was (index refuses rather than overwrite)", () => {
    expect(
      fs.readFileSync(path.join(dirB, 'index.sqlite')).equals(fs.readFileSync(path.join(a.cacheDir, 'index.sqlite'))),
    ).toBe(true);
    expect(a.cli('--format', 'json', 'search', 'sym:alpha_marker').json().hits[0].path).toBe('src/alpha_one.rs');
  });

  it('deleting the directory, as the message says, cures it', () => {
    fs.rmSync(dirB, { recursive: true, force: true });
    expect(onB('index').status).toBe(0);
    expect(onB('search', 'sym:beta_marker').json().hits[0].path).toBe('lib/beta_only.py');
  });
});

describe('a daemon on a --cache base', () => {
  // The index_warming hint that names the base (`run: trufflepig --root R --cache BASE index`)
  // is now given only after a first index that failed: workspace test/daemon-first-index.test.ts.
  it('answers the first search of a fresh root from its first index, in the base the user passed', async () => {
    const repo = makeRepo(
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/m${i}.rs`, `pub fn item_${i}() {}\n`])),
      'hint',
    );
    const call = (...args: string[]) =>
      runCli(['--root', repo.root, '--cache', repo.cache, '--format', 'json', ...args], repo.root, { daemon: true });
    try {
      // The daemon's first reconcile of 300 files takes far longer than its start: the read waits for it.
      const first = call('search', 'item_7');
      expect(first.status).toBe(0);
      expect(first.json().hits[0].path).toBe('src/m7.rs');
      expect(fs.existsSync(path.join(rootCacheDir(repo.root, repo.cache), 'index.sqlite'))).toBe(true);
    } finally {
      call('stop');
    }
  });
});
