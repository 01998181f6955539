import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rootHash } from '@trufflepig/member-root';
import { ResultStore } from '@trufflepig/result-cache';
import { countTokens } from '@trufflepig/render';
import {
  indexCommand,
  moreCommand,
  pageHits,
  resolveRoot,
  runSearch,
  searchCommand,
  showCommand,
  showHandle,
  showPath,
  statusCommand,
  type ResolvedRoot,
} from '../src';
import { query, sourceRow } from './ws-helpers';

function tempRepo(): { root: string; cache: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ws-'));
  const root = path.join(base, 'repo');
  fs.mkdirSync(path.join(root, 'src', 'nested'), { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  fs.writeFileSync(
    path.join(root, 'src', 'bucket.rs'),
    'pub struct TokenBucket { tokens: u32 }\n\nimpl TokenBucket {\n    pub fn refill_tokens(&mut self) {\n        self.tokens += 1;\n    }\n}\n',
  );
  fs.writeFileSync(
    path.join(root, 'src', 'nested', 'use.rs'),
    'use crate::TokenBucket;\nfn go(b: &mut TokenBucket) { b.refill_tokens(); }\n',
  );
  fs.writeFileSync(path.join(root, 'README.md'), '# Bucket\n\nThe token bucket refills tokens.\n');
  return { root: fs.realpathSync(root), cache: path.join(base, 'cache') };
}

describe('@trufflepig/workspace facade', () => {
  const repo = tempRepo();
  let r: ResolvedRoot;

  beforeAll(async () => {
    const resolved = resolveRoot({ cwd: path.join(repo.root, 'src', 'nested'), cache: repo.cache });
    if (!resolved.ok) throw new Error(resolved.error.message);
    r = resolved.value;
    const out = await indexCommand({ root: repo.root, cache: repo.cache });
    expect(out.exitCode).toBe(0);
  });

  it('resolves the Git top level from a subdirectory and keeps results beside the index', () => {
    expect(r.root).toBe(repo.root);
    // --cache is a base: this root's directory is <base>/<root-hash>.
    expect(r.cacheDir).toBe(path.join(repo.cache, rootHash(repo.root)));
    expect(r.resultsDir).toBe(path.join(r.cacheDir, 'results'));
  });

  it('a missing root is root_not_found', () => {
    const missing = resolveRoot({ root: path.join(repo.root, 'nope') });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.code).toBe('root_not_found');
  });

  it('runSearch stores the ranked list and pageHits carries handles, URIs and snippets', async () => {
    const store = new ResultStore(r.resultsDir);
    const data = await runSearch(r, query(['TokenBucket']), { indexIfMissing: false, store });
    if (!data.ok) throw new Error(data.error.message);
    expect(data.value.entries[0].path).toBe('src/bucket.rs');
    expect(data.value.entries[0].name).toBe('TokenBucket');
    const hits = pageHits(data.value);
    expect(hits[0].handle).toBe(`${data.value.setId}:1`);
    expect(hits[0].uri).toBe(`file://${repo.root}/src/bucket.rs`);
    expect(hits[0].snippet?.text).toContain('TokenBucket');
    const loaded = store.load(data.value.setId);
    expect(loaded.ok && loaded.value.entries.length).toBe(data.value.entries.length);
  });

  it('showHandle verifies the revision and reports stale_source after an edit', async () => {
    const store = new ResultStore(r.resultsDir);
    const data = await runSearch(r, query(['refill', 'tokens']), { indexIfMissing: false, store });
    if (!data.ok) throw new Error(data.error.message);
    const handle = `${data.value.setId}:1`;
    const shown = showHandle(handle, store);
    if (!shown.ok) throw new Error(shown.error.message);
    const bytes = fs.readFileSync(path.join(repo.root, data.value.entries[0].path));
    for (const row of shown.value.rows.map(sourceRow))
      expect(bytes.subarray(row.start, row.end).toString()).toBe(row.text);
    const file = path.join(repo.root, data.value.entries[0].path);
    fs.appendFileSync(file, '// edited\n');
    const stale = showHandle(handle, store);
    expect(stale.ok ? 'ok' : stale.error.code).toBe('stale_source');
    fs.writeFileSync(file, bytes);
  });

  it('showPath refuses to leave the root', () => {
    const inside = showPath(r, 'src/bucket.rs:1-2');
    expect(inside.ok && inside.value.rows.map((x) => x.line)).toEqual([1, 2]);
    for (const bad of ['../etc/passwd', '/etc/passwd', '%2E%2E/x']) {
      const out = showPath(r, bad);
      expect(out.ok ? 'ok' : out.error.code).toBe('path_outside_root');
    }
  });

  it('issues set ids an agent reads in 2 o200k tokens (the cheapest of several draws)', async () => {
    // Uniform base-36 ids cost about 4 tokens and syllable ids 2 only 38% of the time; the
    // cheapest of 16 draws misses 2 about once in 2,000 ids.
    const costs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const search = await searchCommand(['bucket'], { root: repo.root, cache: repo.cache, limit: 1 });
      costs.push(countTokens((JSON.parse(search.stdout) as { set: string }).set));
    }
    expect(costs.filter((c) => c <= 2).length).toBeGreaterThanOrEqual(5);
  });

  it('commands stay within their budgets and page with more', async () => {
    const search = await searchCommand(['bucket'], { root: repo.root, cache: repo.cache, budget: 250, limit: 1 });
    expect(search.exitCode).toBe(0);
    expect(countTokens(search.stdout)).toBeLessThanOrEqual(250);
    const page = JSON.parse(search.stdout) as { next?: string };
    expect(page.next).toMatch(/^[0-9a-z]{6,16}@1$/);
    const more = await moreCommand(page.next!, { root: repo.root, cache: repo.cache, budget: 250 });
    expect(more.exitCode).toBe(0);
    expect(JSON.parse(more.stdout).hits[0].handle).toMatch(/:2$/);
    const show = await showCommand('path:README.md', { root: repo.root, cache: repo.cache });
    expect(JSON.parse(show.stdout).verified).toBe('current file');
    // A path that is not there names the indexed paths nearest to it (the JDK trial's
    // `show path:java/util/HashMap.java` only said to search).
    const missing = await showCommand('path:bucket.rs:1-2', { root: repo.root, cache: repo.cache, format: 'lines' });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(
      /^trufflepig: source_missing: bucket\.rs does not exist .*; nearest: src\/bucket\.rs\b/,
    );
    const status = await statusCommand({ root: repo.root, cache: repo.cache });
    expect(JSON.parse(status.stdout).coverage.generation).toBe(1);
  });

  it('shows a hit deep inside a minified line from just before the span, with exact offsets', async () => {
    let line = '';
    for (let i = 0; line.length < 60_000; i++) line += `function m${i}(a){return a+${i}};`;
    fs.writeFileSync(path.join(repo.root, 'min.js'), `${line}\n`);
    await indexCommand({ root: repo.root, cache: repo.cache });
    const store = new ResultStore(r.resultsDir);
    const data = await runSearch(r, query(['m1500']), { indexIfMissing: false, store });
    if (!data.ok) throw new Error(data.error.message);
    const shown = showHandle(`${data.value.setId}:1`, store);
    if (!shown.ok) throw new Error(shown.error.message);
    const row = sourceRow(shown.value.rows[0]);
    const bytes = fs.readFileSync(path.join(repo.root, 'min.js'));
    expect(row.start).toBeGreaterThan(0);
    expect(row.start).toBeLessThanOrEqual(data.value.entries[0].start);
    expect(bytes.subarray(row.start, row.end).toString()).toBe(row.text);
    expect(row.text).toContain('function m1500(');
    fs.rmSync(path.join(repo.root, 'min.js'));
    await indexCommand({ root: repo.root, cache: repo.cache });
  });

  it('errors are exit 2 with a JSON error and one stderr line', async () => {
    const out = await searchCommand(['re:('], { root: repo.root, cache: repo.cache });
    expect(out.exitCode).toBe(2);
    expect(JSON.parse(out.stdout).error.code).toBe('bad_regex');
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('@trufflepig/workspace facade: a stale handle', () => {
  it('a stale handle of a definition names the show sym: that reads it as it is now, and that call does', async () => {
    // A repository of its own: the edit below moves its index to a new generation.
    const repo = tempRepo();
    expect((await indexCommand({ root: repo.root, cache: repo.cache })).exitCode).toBe(0);
    const resolved = resolveRoot({ root: repo.root, cache: repo.cache });
    if (!resolved.ok) throw new Error(resolved.error.message);
    const r = resolved.value;
    const store = new ResultStore(r.resultsDir);
    const data = await runSearch(r, query(['sym:TokenBucket::refill_tokens']), { indexIfMissing: false, store });
    if (!data.ok) throw new Error(data.error.message);
    const file = path.join(repo.root, 'src', 'bucket.rs');
    fs.writeFileSync(file, `// moved down a line\n${fs.readFileSync(file, 'utf8')}`);
    try {
      const stale = showHandle(`${data.value.setId}:1`, store);
      if (stale.ok) throw new Error('a handle to edited bytes was shown');
      expect(stale.error.code).toBe('stale_source');
      const next = /; (show (sym:\S+ file:\S+)) reads the definition as it is now, or search again$/.exec(
        stale.error.message,
      );
      expect(next?.[1]).toBe('show sym:TokenBucket::refill_tokens file:src/bucket.rs');
      // A daemon would have caught up with the edit by itself; here the test indexes it.
      expect((await indexCommand({ root: repo.root, cache: repo.cache })).exitCode).toBe(0);
      const now = await showCommand(next![2], { root: repo.root, cache: repo.cache, format: 'lines' });
      expect(now.exitCode).toBe(0);
      expect(now.stdout).toMatch(/^\S+ {2}src\/bucket\.rs:5-7 {2}TokenBucket::refill_tokens$/m);
    } finally {
      fs.rmSync(path.dirname(repo.root), { recursive: true, force: true });
    }
  });
});
