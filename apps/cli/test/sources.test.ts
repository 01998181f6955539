// Origin-scoped evidence end to end (docs/spec/per-source.md): a Markdown design note and a commit
// message describe a behaviour (TTL eviction) the code does not have (it evicts the oldest).
import { execFileSync } from 'node:child_process';
import { HANDLE, makeRepo, type Repo } from './cli';

const FILES = {
  'src/cache.ts': `export class Cache {
  private entries = new Map<string, string>();
  /** Drops the oldest entry when the cache is full. */
  evictOldest(): void {
    const first = this.entries.keys().next();
    if (!first.done) this.entries.delete(first.value);
  }
}
`,
  'src/store.ts':
    'export function storeEntry(cache: Map<string, string>, key: string, value: string): void {\n  cache.set(key, value);\n}\n',
  'docs/design.md':
    '# Cache design\n\nThe cache evicts each entry when its time to live expires (TTL eviction), never the oldest entry.\n',
  'tests/cache.test.ts':
    "import { Cache } from '../src/cache';\ntest('evicts the oldest entry', () => new Cache().evictOldest());\n",
  'config/cache.toml': '# eviction policy\nentry_limit = 100\n',
};

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
}

type Hit = { handle: string; path: string; sources: string[]; snippet?: { text: string } };

describe('source tags, source: filters and per_source scopes', () => {
  let repo: Repo;
  let head: string;
  beforeAll(() => {
    repo = makeRepo(FILES, 'sources');
    git(repo.root, 'add', '-A');
    git(
      repo.root,
      'commit',
      '-q',
      '-m',
      'cache: evict entries when their time to live expires\n\nTTL eviction replaces evicting the oldest entry.',
    );
    head = git(repo.root, 'rev-parse', 'HEAD').trim();
    expect(repo.cli('index').json()).toMatchObject({
      published: true,
      git_log: { state: 'indexed', commits: 1, added: 1 },
    });
  });

  it('shared ranks files as before: no commit hits, no groups, every hit names its sources', () => {
    const out = repo.cli('search', 'evict', 'entry').json();
    expect(Object.keys(out)).toEqual(['query', 'set', 'hits', 'coverage']);
    expect(out.hits.map((h: Hit) => h.path)).not.toContainEqual(expect.stringMatching(/^commit:/));
    for (const h of out.hits as Hit[]) expect(h.sources.length).toBeGreaterThan(0);
    expect(out.coverage.git_log).toBeUndefined();
    const lines = repo
      .cli('--format', 'lines', 'search', 'evict', 'entry')
      .stdout.split('\n')
      .filter((l) => HANDLE.test(l.split('  ')[0]));
    expect(lines.length).toBe(out.hits.length);
    // lines mark non-code origins only: [docs], [test], [config], [git-log]
    lines.forEach((l, i) => {
      const names = (out.hits[i] as Hit).sources.map((t) => t.replace(/^source:/, '')).filter((n) => n !== 'code');
      if (names.length) expect(l.endsWith(`  [${names.join(',')}]`)).toBe(true);
      else expect(l).not.toMatch(/ {2}\[[a-z,-]+\]$/);
    });
  });

  it('source:code answers from code alone', () => {
    const out = repo.cli('search', 'evict', 'entry', 'source:code').json();
    expect(out.hits.length).toBeGreaterThan(0);
    for (const h of out.hits as Hit[]) expect(h.sources).toEqual(['source:code']);
    expect(out.hits[0].path).toBe('src/cache.ts');
  });

  it('per_source shows the global ranking, then code, docs and git-log groups each with its own top hit', () => {
    const shared = repo.cli('-b', '5000', 'search', 'evict', 'entry').json();
    const out = repo.cli('-b', '5000', '--scopes', 'per_source', 'search', 'evict', 'entry').json();
    expect(out.scopes).toBe('per_source');
    expect(out.hits.map((h: Hit) => h.path)).toEqual(shared.hits.map((h: Hit) => h.path));
    const groups = new Map((out.groups as { scope: string[]; hits: Hit[] }[]).map((g) => [g.scope.join(' '), g.hits]));
    expect([...groups.keys()]).toEqual(expect.arrayContaining(['source:code', 'source:docs', 'source:git-log']));
    expect(groups.get('source:code')![0].path).toBe('src/cache.ts');
    expect(groups.get('source:docs')![0].path).toBe('docs/design.md');
    expect(groups.get('source:git-log')![0]).toMatchObject({
      path: `commit:${head}`,
      sources: ['source:git-log'],
      changed: expect.arrayContaining(['src/cache.ts', 'docs/design.md']),
    });
    for (const [scope, hits] of groups) for (const h of hits) expect(h.sources).toContain(scope);
    expect(out.coverage.git_log).toEqual({ state: 'indexed', commits: 1 });
    // Every group's handle reads back; a commit hit prints its message and changed paths.
    const docs = repo.cli('show', groups.get('source:docs')![0].handle);
    expect(docs.status).toBe(0);
    const commit = repo.cli('--format', 'lines', 'show', groups.get('source:git-log')![0].handle);
    expect(commit.status).toBe(0);
    expect(commit.stdout).toContain('TTL eviction replaces evicting the oldest entry.');
    expect(commit.stdout).toContain(`commit: ${head}`);
    expect(commit.stdout).toContain('changed: src/cache.ts');
  });

  it('lines format prints a scope header per group, and more continues one group', () => {
    const out = repo
      .cli('--format', 'lines', '-n', '1', '--scopes', 'per_source', 'search', 'evict', 'entry')
      .stdout.split('\n');
    expect(out.filter((l) => l.startsWith('scope: '))).toEqual(
      expect.arrayContaining(['scope: source:code', 'scope: source:docs', 'scope: source:git-log']),
    );
    const codeAt = out.indexOf('scope: source:code');
    const next = out.slice(codeAt).find((l) => l.startsWith('next: more '));
    expect(next).toBeDefined();
    expect(next).toMatch(/^next: more \S+ \(\d+ of \d+ files; stopped by -n\)$/);
    const more = repo.cli('--format', 'lines', 'more', next!.split(' ')[2]).stdout.split('\n');
    expect(more[0]).toBe('scope: source:code');
    const heads = more.filter((x) => HANDLE.test(x.split('  ')[0]));
    expect(heads.length).toBeGreaterThan(0);
    for (const l of heads) expect(l).not.toMatch(/\[(docs|git-log)\]/);
  });

  it('a tight budget still gives every group its top hit', () => {
    const roomy = repo.cli('-b', '5000', '--scopes', 'per_source', 'search', 'evict', 'entry').json();
    const sections = 1 + roomy.groups.length;
    let checked = 0;
    for (let budget = 500; budget <= 900; budget += 100) {
      const out = repo.cli('-b', String(budget), '--scopes', 'per_source', 'search', 'evict', 'entry').json();
      const shown = out.hits.length + out.groups.reduce((n: number, g: { hits: Hit[] }) => n + g.hits.length, 0);
      if (shown < sections) continue;
      checked++;
      expect(out.hits.length).toBeGreaterThan(0);
      for (const g of out.groups) expect(g.hits.length).toBeGreaterThan(0);
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('commit messages need source:git-log under shared, and a rewritten commit reads as stale_source', () => {
    const out = repo.cli('search', 'time', 'to', 'live', 'source:git-log').json();
    expect(out.hits.map((h: Hit) => h.path)).toEqual([`commit:${head}`]);
    git(repo.root, 'commit', '-q', '--amend', '-m', 'cache: oldest-first eviction');
    git(repo.root, 'reflog', 'expire', '--expire=now', '--all');
    git(repo.root, 'gc', '-q', '--prune=now');
    const stale = repo.cli('show', out.hits[0].handle);
    expect(stale.status).toBe(2);
    expect(stale.json().error.code).toBe('stale_source');
    // The next reconcile sees the rewritten history.
    expect(repo.cli('index').json()).toMatchObject({ published: true, git_log: { state: 'indexed', commits: 1 } });
    expect(repo.cli('search', 'time', 'to', 'live', 'source:git-log').json().hits).toEqual([]);
  });
});

describe('a root without commit history', () => {
  it('has no git-log group and its coverage says why', () => {
    const repo = makeRepo(FILES, 'nohistory');
    const out = repo.cli('--scopes', 'per_source', 'search', 'evict', 'entry').json();
    expect(out.coverage.git_log).toEqual({ state: 'no_commits', commits: 0 });
    expect(out.groups.map((g: { scope: string[] }) => g.scope[0])).not.toContain('source:git-log');
    const lines = repo.cli('--format', 'lines', '--scopes', 'per_source', 'search', 'evict', 'entry').stdout;
    expect(lines).toContain('git-log: no commits yet');
  });
});
