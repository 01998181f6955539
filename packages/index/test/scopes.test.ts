// per_source scopes and commit documents on real Git repositories.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseQuery, reconcile, searchIndex, sourceTags, type SearchOptions, type SearchOutcome } from '../src';
import { Fixture, gitInit, tempDir } from './helpers';

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
}

function commitAll(root: string, message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
  return git(root, 'rev-parse', 'HEAD').trim();
}

async function search(f: Fixture, query: string, options: SearchOptions = {}): Promise<SearchOutcome> {
  const q = parseQuery(query);
  if (!q.ok) throw new Error(q.error.message);
  const reader = await f.open();
  try {
    return searchIndex(reader, q.value, options);
  } finally {
    reader.close();
  }
}

const FILES = {
  'src/cache.rs':
    'pub fn evict_oldest(entries: &mut Vec<u32>) {\n    // drop the oldest entry\n    entries.remove(0);\n}\n',
  'src/store.rs': 'pub fn store_entry(entries: &mut Vec<u32>, e: u32) {\n    entries.push(e);\n}\n',
  'docs/design.md': '# Cache\n\nEntries are evicted when their time to live expires.\n',
  'tests/fixtures/entries.toml': 'oldest = 1\nentries = [1, 2]\n',
  LICENSE: 'entries of this license are free\n',
};

describe('source tags of the spec table', () => {
  it.each([
    ['docs/design.md', ['source:docs']],
    ['src/router.rs', ['source:code']],
    ['tests/fixtures/routes.toml', ['source:config', 'source:test']],
    ['LICENSE', []],
    // Manual pages are prose wherever they live (npm ships man/man1/npm-exec.1).
    ['man/man1/npm-exec.1', ['source:docs']],
    ['tools/power/x86/turbostat/turbostat.8', ['source:docs']],
    ['perl/Digest::SHA.3pm', ['source:docs']],
    ['CMakeLists.txt', ['source:config', 'source:docs']],
    // Code no extractor reads is code all the same (the Neovim runtime's Vim script, the
    // kernel's assembly): `source:code` must not leave it out.
    ['autoload/tohtml.vim', ['source:code']],
    ['arch/x86/entry/entry_64.S', ['source:code']],
    ['runtime/doc/syntax.awk', ['source:code']],
  ])('%s', (p, tags) => expect(sourceTags(p)).toEqual(tags));
});

describe('per_source scopes', () => {
  let f: Fixture;
  let head: string;
  beforeAll(async () => {
    f = new Fixture('scopes', FILES);
    gitInit(f.root);
    head = commitAll(
      f.root,
      'cache: evict entries whose time to live expired\n\nTTL eviction replaces the oldest-first rule.',
    );
    await f.index();
  });

  it('keeps the shared ranking identical and adds one group per scope with hits', async () => {
    const shared = await search(f, 'entries oldest');
    const per = await search(f, 'entries oldest', { scopes: 'per_source' });
    expect(per.hits).toEqual(shared.hits);
    expect(shared.groups).toBeUndefined();
    expect(shared.gitLog).toBeUndefined();
    expect(per.groups!.map((g) => g.scope)).toEqual([
      ['source:code'],
      ['source:config'],
      ['source:docs'],
      ['source:git-log'],
      ['source:test'],
    ]);
    for (const g of per.groups!) {
      expect(g.hits.length).toBeGreaterThan(0);
      for (const h of g.hits) expect(h.tags).toEqual(expect.arrayContaining(g.scope));
    }
    // The untagged LICENSE belongs to the global scope only.
    expect(per.hits.map((h) => h.path)).toContain('LICENSE');
    expect(per.groups!.flatMap((g) => g.hits.map((h) => h.path))).not.toContain('LICENSE');
  });

  it('ranks a scope on its own: its order is a fusion of its own documents, not a slice of the global order', async () => {
    const per = await search(f, 'entries oldest', { scopes: 'per_source' });
    const code = per.groups!.find((g) => g.scope[0] === 'source:code')!;
    const alone = await search(f, 'entries oldest source:code');
    expect(code.hits.map((h) => h.path)).toEqual(alone.hits.map((h) => h.path));
  });

  it('finds commit messages only in their own group or with source:git-log', async () => {
    const shared = await search(f, 'time to live');
    expect(shared.hits.map((h) => h.path)).toEqual(['docs/design.md']);
    const per = await search(f, 'time to live', { scopes: 'per_source' });
    const log = per.groups!.find((g) => g.scope[0] === 'source:git-log')!;
    expect(log.hits[0]).toMatchObject({
      path: `commit:${head}`,
      revision: head,
      tags: ['source:git-log'],
      name: 'cache: evict entries whose time to live expired',
    });
    expect(log.hits[0].commit!.paths).toEqual([
      'LICENSE',
      'docs/design.md',
      'src/cache.rs',
      'src/store.rs',
      'tests/fixtures/entries.toml',
    ]);
    expect(per.gitLog).toEqual({ state: 'indexed', commits: 1 });
    const only = await search(f, 'time to live source:git-log');
    expect(only.hits.map((h) => h.path)).toEqual([`commit:${head}`]);
    expect(
      (await search(f, 'time to live -source:git-log', { scopes: 'per_source' })).groups!.map((g) => g.scope),
    ).toEqual([['source:docs']]);
    expect((await search(f, 'sym:evict_oldest', { scopes: 'per_source' })).groups!.map((g) => g.scope)).toEqual([
      ['source:code'],
    ]);
  });

  it('applies an explicit scope list in its own order, only to documents carrying its tags', async () => {
    const per = await search(f, 'entries oldest', { scopes: [['source:test'], [], ['source:code']] });
    expect(per.groups!.map((g) => g.scope)).toEqual([['source:test'], ['source:code']]);
  });

  it('adds new commits on the next reconcile, reading only those', async () => {
    fs.writeFileSync(path.join(f.root, 'src/cache.rs'), `${FILES['src/cache.rs']}// lru\n`);
    const next = commitAll(f.root, 'cache: least recently used order');
    const rep = await f.index();
    expect(rep.published).toBe(true);
    expect(rep.gitLog).toEqual({ state: 'indexed', commits: 2, added: 1 });
    const again = await f.index();
    expect(again.published).toBe(false);
    expect(again.gitLog.added).toBe(0);
    const hits = (await search(f, 'recently used source:git-log')).hits;
    expect(hits.map((h) => h.path)).toEqual([`commit:${next}`]);
    // An empty commit changes no file: it still publishes a generation.
    git(f.root, 'commit', '-q', '--allow-empty', '-m', 'release notes mention a quorum');
    const empty = await f.index();
    expect(empty).toMatchObject({ published: true, gitLog: { commits: 3, added: 1 } });
    expect((await search(f, 'quorum source:git-log')).hits).toHaveLength(1);
  });

  it('rebuilds the history when it was rewritten', async () => {
    git(f.root, 'reset', '-q', '--hard', 'HEAD~2');
    const rep = await f.index();
    expect(rep.gitLog).toMatchObject({ state: 'indexed', commits: 1 });
    expect((await search(f, 'recently used source:git-log')).hits).toHaveLength(0);
    expect((await search(f, 'quorum source:git-log')).hits).toHaveLength(0);
  });
});

describe('roots without commit documents', () => {
  it('a non-Git root says so, and has no git-log group', async () => {
    const f = new Fixture('nogit', FILES);
    const rep = await f.index();
    expect(rep.gitLog).toEqual({ state: 'not_git', commits: 0, added: 0 });
    const per = await search(f, 'entries oldest', { scopes: 'per_source' });
    expect(per.gitLog).toEqual({ state: 'not_git', commits: 0 });
    expect(per.groups!.map((g) => g.scope)).not.toContainEqual(['source:git-log']);
  });

  it('a shallow clone says so', async () => {
    const origin = new Fixture('origin', FILES);
    gitInit(origin.root);
    commitAll(origin.root, 'first entries');
    fs.writeFileSync(path.join(origin.root, 'src/store.rs'), `${FILES['src/store.rs']}// more\n`);
    commitAll(origin.root, 'second entries');
    const clone = path.join(tempDir('shallow'), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin.root}`, clone]);
    const cache = tempDir('shallow-cache');
    const rep = await reconcile(clone, { cacheDir: cache, parallelism: 1 });
    expect(rep.ok && rep.value.gitLog).toEqual({ state: 'shallow_clone', commits: 0, added: 0 });
  });
});
