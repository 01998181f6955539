// The typed library API (README "Library API"), through the package's public entry only,
// on real Git repositories in temp directories: search -> show with verified bytes, more,
// a workspace of two members, typed error codes, refs/map/ctx on a TypeScript repository.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ERROR_CODES,
  ERROR_TABLE,
  isTrufflepigError,
  moreCommand,
  openWorkspace,
  searchCommand,
  showCommand,
  TrufflepigError,
  type CommandOptions,
  type ErrorCode,
  type MapPage,
  type RefsPage,
  type Workspace,
} from '../src';
import { makeRepo, makeSpace, type Space } from './ws-helpers';

const TS_FILES = {
  'src/bucket.ts': [
    '/** A token bucket. */',
    'export class TokenBucket {',
    '  private tokens = 0;',
    '',
    '  refill(n: number): void {',
    '    this.tokens += n;',
    '  }',
    '',
    '  tryAcquire(): boolean {',
    '    this.refill(1);',
    '    return this.tokens > 0;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/use.ts':
    "import { TokenBucket } from './bucket';\n\nexport function drain(b: TokenBucket): void {\n  b.refill(2);\n}\n",
  'README.md': '# Bucket\n\nA token bucket that refills tokens over time.\n',
};

/** 24 files that each match `refill tokens`, so a search has several pages. */
function manyFiles(): Record<string, string> {
  const out: Record<string, string> = { ...TS_FILES };
  for (let i = 0; i < 24; i++) {
    const n = String(i).padStart(2, '0');
    out[`src/gen/refill${n}.ts`] =
      `// refill tokens, variant ${n}\nexport function refillTokens${n}(tokens: number): number {\n  return tokens + ${i};\n}\n`;
  }
  return out;
}

interface TempRepo {
  readonly root: string;
  readonly cache: string;
  readonly env: NodeJS.ProcessEnv;
  /** The same root through the CLI's command functions. */
  readonly cli: (more?: Partial<CommandOptions>) => CommandOptions;
}

function tempRepo(prefix: string, files: Record<string, string>): TempRepo {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const root = makeRepo(path.join(base, 'repo'), files);
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(base, '.cache'),
    XDG_CONFIG_HOME: path.join(base, '.config'),
  };
  const cache = path.join(base, 'cache');
  return {
    root,
    cache,
    env,
    cli: (more = {}) => ({ cwd: root, env, noDaemon: true, noWorkspace: true, cache, ...more }),
  };
}

function open(repo: TempRepo): Promise<Workspace> {
  return openWorkspace({ root: repo.root, cache: repo.cache, noWorkspace: true, env: repo.env, cwd: repo.root });
}

/** The code a rejected call failed with (and that it is a TrufflepigError). */
async function codeOf(call: Promise<unknown>): Promise<ErrorCode> {
  try {
    await call;
  } catch (err) {
    if (!isTrufflepigError(err)) throw err;
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('TrufflepigError');
    return err.code;
  }
  throw new Error('the call succeeded; an error was expected');
}

/** Lines startLine..endLine of a file, as a read's text joins them. */
function fileLines(root: string, rel: string, startLine: number, endLine: number): string {
  return fs
    .readFileSync(path.join(root, rel), 'utf8')
    .split('\n')
    .slice(startLine - 1, endLine)
    .join('\n');
}

describe('openWorkspace on one root', () => {
  const repo = tempRepo('tp-api-root-', manyFiles());
  let ws: Workspace;

  beforeAll(async () => {
    ws = await open(repo);
  });
  afterAll(() => ws.close());

  it('opens the root without indexing or starting anything', () => {
    expect(ws.kind).toBe('root');
    expect(ws.root).toBe(repo.root);
    expect(ws.members).toEqual([]);
  });

  it('search -> show: typed hits, then the span read back with bytes verified against the revision', async () => {
    const page = await ws.search('refill tokens', { limit: 10, budget: 600 });
    expect(page.kind).toBe('search');
    expect(page.query).toBe('refill tokens');
    expect(page.offset).toBe(0);
    expect(page.hits.length).toBeGreaterThan(0);
    expect(page.hits.length).toBeLessThanOrEqual(10);
    expect(page.coverage.state).toBe('complete');
    expect(page.coverage.generation).toBeGreaterThanOrEqual(1);
    expect(page.coverage.indexedFiles).toBe(Object.keys(manyFiles()).length);
    expect(page.coverage.summary).toMatch(/^complete; /);
    const hit = page.hits[0];
    expect(hit.handle).toBe(`${page.setId}:1`);
    expect(hit.member).toBeUndefined();
    expect(hit.uri).toBe(`file://${repo.root}/${hit.path}`);
    expect(hit.startLine).toBeGreaterThanOrEqual(1);
    expect(hit.endLine).toBeGreaterThanOrEqual(hit.startLine);
    expect(hit.snippet?.text.toLowerCase()).toContain('refill');

    const read = await ws.show(hit.handle);
    expect(read).toMatchObject({
      handle: hit.handle,
      path: hit.path,
      verified: 'revision',
      startLine: hit.startLine,
      endLine: hit.endLine,
      escaped: false,
    });
    expect(read.text).toBe(fileLines(repo.root, hit.path, hit.startLine, hit.endLine));
    const bytes = fs.readFileSync(path.join(repo.root, hit.path));
    for (const row of read.rows) {
      if ('folded' in row) throw new Error('a handle read never folds');
      expect(bytes.subarray(row.start, row.end).toString('utf8')).toBe(row.text);
    }
    // The same data step as the CLI's show: the JSON rows are these rows.
    const cli = JSON.parse((await showCommand(hit.handle, repo.cli({ format: 'json', budget: 100_000 }))).stdout) as {
      rows: { line: number; text: string }[];
    };
    expect(cli.rows.map((r) => [r.line, r.text])).toEqual(read.rows.map((r) => ('text' in r ? [r.line, r.text] : [])));
  });

  it("the ranking is the CLI search's, and a budget holds the hits the CLI's lines page shows within it", async () => {
    const all = await ws.search('refill tokens', { limit: 10 });
    expect(all.hits).toHaveLength(10);
    const json = JSON.parse(
      (await searchCommand(['refill tokens'], repo.cli({ format: 'json', budget: 100_000, limit: 10 }))).stdout,
    ) as { hits: { path: string; start_line: number }[] };
    expect(all.hits.map((h) => `${h.path}:${h.startLine}`)).toEqual(json.hits.map((h) => `${h.path}:${h.start_line}`));

    const budget = 150;
    const cut = await ws.search('refill tokens', { limit: 10, budget });
    // The same set's lines page: a set id of another search may take another number of
    // tokens, and fit one hit more or less in the budget (a fresh-clone CI run: 5 against 6).
    const lines = (await moreCommand(`${cut.setId}@0`, repo.cli({ format: 'lines', budget, limit: 10 }))).stdout;
    const shown = lines.split('\n').filter((l) => /^[0-9a-z]{6,}:\d+ {2}/.test(l)).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(10);
    expect(cut.hits).toHaveLength(shown);
    expect(cut.cursor).toBe(`${cut.setId}@${shown}`);
    expect(lines).toContain(`next: more `);
    expect(cut.hits.map((h) => h.path)).toEqual(all.hits.slice(0, shown).map((h) => h.path));
    expect(await codeOf(ws.search('refill tokens', { budget: 3 }))).toBe('bad_arguments');
  });

  it('more continues the ranking from the cursor to its end', async () => {
    const first = await ws.search('refill tokens', { limit: 5 });
    expect(first.cursor).toBe(`${first.setId}@5`);
    const seen = first.hits.map((h) => h.handle);
    let cursor = first.cursor;
    let pages = 1;
    while (cursor !== undefined) {
      const page = await ws.more(cursor, { limit: 5 });
      if (page.kind !== 'search') throw new Error(`a search cursor pages a search, not ${page.kind}`);
      expect(page.setId).toBe(first.setId);
      expect(page.offset).toBe(seen.length);
      expect(page.hits[0].handle).toBe(`${first.setId}:${seen.length + 1}`);
      seen.push(...page.hits.map((h) => h.handle));
      cursor = page.cursor;
      pages++;
    }
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(seen).toHaveLength(first.total);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a file edited since the search is stale_source; a bad handle, cursor or set its own code', async () => {
    const page = await ws.search('tryAcquire', { limit: 1 });
    const hit = page.hits[0];
    expect(hit.path).toBe('src/bucket.ts');
    const file = path.join(repo.root, hit.path);
    const before = fs.readFileSync(file);
    fs.appendFileSync(file, '// edited\n');
    try {
      const stale = ws.show(hit.handle);
      await expect(stale).rejects.toBeInstanceOf(TrufflepigError);
      expect(await codeOf(ws.show(hit.handle))).toBe('stale_source');
    } finally {
      fs.writeFileSync(file, before);
    }
    expect((await ws.show(hit.handle)).path).toBe('src/bucket.ts');
    expect(await codeOf(ws.show('not-a-handle'))).toBe('bad_handle');
    expect(await codeOf(ws.show('zzzzzz:1'))).toBe('unknown_result');
    expect(await codeOf(ws.show(`${page.setId}:999`))).toBe('ordinal_out_of_range');
    expect(await codeOf(ws.more('nope'))).toBe('bad_cursor');
    expect(await codeOf(ws.show('path:../outside.ts'))).toBe('path_outside_root');
    expect(await codeOf(ws.search('re:('))).toBe('bad_regex');
    expect(await codeOf(ws.search('x', { context: 11 }))).toBe('bad_arguments');
  });

  it('show path: reads the current file; a budget cuts the rows and next continues them', async () => {
    const read = await ws.show('path:src/bucket.ts:2-7');
    expect(read).toMatchObject({ path: 'src/bucket.ts', verified: 'current file', startLine: 2, endLine: 7 });
    expect(read.handle).toBeUndefined();
    expect(read.text).toBe(fileLines(repo.root, 'src/bucket.ts', 2, 7));
    const cut = await ws.show('path:src/bucket.ts', { budget: 40 });
    expect(cut.rows.length).toBeLessThan(13);
    expect(cut.next).toBe(`path:src/bucket.ts:${cut.endLine + 1}-13`);
    const rest = await ws.show(cut.next!);
    expect(rest.startLine).toBe(cut.endLine + 1);
  });

  it('a per_source search ranks each source on its own: groups with their own cursors', async () => {
    const page = await ws.search('refill tokens', { scopes: 'per_source', limit: 3 });
    expect(page.scope).toEqual([]);
    expect(page.groups?.length).toBeGreaterThanOrEqual(2);
    const docs = page.groups!.find((g) => g.scope.includes('source:docs'))!;
    expect(docs.hits.map((h) => h.path)).toEqual(['README.md']);
    const code = page.groups!.find((g) => g.scope.includes('source:code'))!;
    expect(code.hits).toHaveLength(3);
    expect(code.cursor).toBeDefined();
    const more = await ws.more(code.cursor!, { limit: 2 });
    if (more.kind !== 'search') throw new Error(more.kind);
    expect(more.scope).toEqual(code.scope);
    expect(more.total).toBe(code.total);
    expect(more.hits[0].handle).not.toBe(code.hits[2].handle);
  });

  it('commit documents (source:git-log) are hits with their commit; show reads the message back', async () => {
    const page = await ws.search('source:git-log initial');
    const hit = page.hits.find((h) => h.commit !== undefined);
    expect(hit?.commit?.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(hit?.uri).toContain(`#commit=${hit?.commit?.hash}`);
    const read = await ws.show(hit!.handle);
    expect(read.text).toContain('initial');
  });

  it('index reports the root; close waits for calls in flight and then refuses new ones', async () => {
    const indexed = await ws.index();
    expect(indexed.failed).toEqual([]);
    expect(indexed.roots).toHaveLength(1);
    expect(indexed.roots[0]).toMatchObject({
      root: repo.root,
      cacheDir: expect.stringContaining(repo.cache),
      files: Object.keys(manyFiles()).length,
    });
    const other = await open(repo);
    const pending = other.search('TokenBucket');
    await other.close();
    expect((await pending).hits.length).toBeGreaterThan(0);
    expect(await codeOf(other.search('TokenBucket'))).toBe('workspace_closed');
  });
});

describe('openWorkspace on a workspace of two members', () => {
  let space: Space;
  let ws: Workspace;

  beforeAll(async () => {
    space = makeSpace('api');
    ws = await openWorkspace({ workspace: space.config, cwd: space.base, env: space.env });
  });
  afterAll(() => ws.close());

  it('lists the members, indexes each, and hits carry their member', async () => {
    expect(ws.kind).toBe('workspace');
    expect(ws.name).toBe('space');
    expect(ws.configFile).toBe(space.config);
    expect(ws.root).toBeUndefined();
    expect(ws.members.map((m) => [m.name, m.root, m.available])).toEqual([
      ['app', space.app, true],
      ['lib', space.lib, true],
    ]);
    const indexed = await ws.index();
    expect(indexed.roots.map((r) => [r.member, r.root])).toEqual([
      ['app', space.app],
      ['lib', space.lib],
    ]);

    const page = await ws.search('TokenBucket StoryTeller', { limit: 10 });
    expect(new Set(page.hits.map((h) => h.member))).toEqual(new Set(['app', 'lib']));
    expect(page.coverage.scope).toBe('all');
    expect(Object.keys(page.coverage.members ?? {}).sort()).toEqual(['app', 'lib']);
    expect(page.coverage.members?.app).toMatchObject({ state: 'complete' });
    expect(page.coverage.state).toBe('complete');
    const story = page.hits.find((h) => h.member === 'lib')!;
    expect(story.uri.startsWith(`file://${space.lib}/`)).toBe(true);
    const read = await ws.show(story.handle);
    expect(read.member).toBe('lib');
    expect(read.text).toBe(fileLines(space.lib, story.path, story.startLine, story.endLine));
  });

  it('selects a member with in:NAME, and an unknown member is unknown_member', async () => {
    const page = await ws.search('in:app TokenBucket');
    expect(page.hits.every((h) => h.member === 'app')).toBe(true);
    expect(page.coverage.scope).toBe('members');
    expect(await codeOf(ws.search('in:nope TokenBucket'))).toBe('unknown_member');
    expect(
      await codeOf(openWorkspace({ workspace: space.config, member: 'nope', cwd: space.base, env: space.env })),
    ).toBe('unknown_member');
  });

  it('from inside a member, the member is home', async () => {
    const home = await openWorkspace({ workspace: space.config, cwd: space.lib, env: space.env });
    expect(home.root).toBe(space.lib);
    const page = await home.search('StoryTeller');
    expect(page.coverage.scope).toBe('home');
    expect(page.hits[0].member).toBe('lib');
    await home.close();
  });
});

describe('refs, map and ctx on a TypeScript repository', () => {
  const repo = tempRepo('tp-api-nav-', TS_FILES);
  let ws: Workspace;

  beforeAll(async () => {
    ws = await open(repo);
  });
  afterAll(() => ws.close());

  it('refs lists every site with its role and resolution, and pages with more', async () => {
    const page: RefsPage = await ws.refs('TokenBucket');
    expect(page.kind).toBe('refs');
    const rows = page.hits.map((h) => `${h.path}:${h.startLine} ${h.role} ${h.resolution}`);
    expect(rows).toEqual(
      expect.arrayContaining(['src/bucket.ts:2 declaration resolved', 'src/use.ts:1 import resolved']),
    );
    expect(page.hits.some((h) => h.path === 'src/use.ts' && h.text.includes('TokenBucket'))).toBe(true);
    expect(page.coverage.sites).toBeGreaterThanOrEqual(3);
    expect(page.coverage.files).toBe(2);
    expect(page.coverage.summary).toMatch(/sites? in 2 files/);
    const first = await ws.refs('TokenBucket', { limit: 1 });
    expect(first.hits).toHaveLength(1);
    const next = await ws.more(first.cursor!);
    expect(next.kind).toBe('refs');
    expect(next.offset).toBe(1);
    expect(next.hits[0].handle).toBe(`${first.setId}:2`);
    // Each site's handle reads back, verified.
    const read = await ws.show(page.hits[0].handle);
    expect(read.text).toContain('TokenBucket');
  });

  it('map outlines a file and lists the files under a prefix', async () => {
    const outline: MapPage = await ws.map('src/bucket.ts');
    expect(outline.of).toBe('file');
    expect(outline.hits.map((h) => `${h.kind} ${h.name}`)).toEqual(
      expect.arrayContaining(['class TokenBucket', 'method TokenBucket::refill']),
    );
    const files = await ws.map('src/');
    expect(files.of).toBe('prefix');
    expect(files.hits.map((h) => [h.path, h.kind])).toEqual([
      ['src/bucket.ts', 'file'],
      ['src/use.ts', 'file'],
    ]);
    expect(files.hits[0].names).toContain('TokenBucket');
    expect(await codeOf(ws.map('src/nope.ts'))).toBe('no_indexed_path');
  });

  it('ctx gives the container, siblings and callers of a method', async () => {
    const hit = (await ws.search('sym:TokenBucket::refill')).hits[0];
    const c = await ws.ctx(hit.handle);
    expect(c.symbol).toMatchObject({ name: 'TokenBucket::refill', kind: 'method', path: 'src/bucket.ts' });
    expect(c.container).toMatchObject({ name: 'TokenBucket', kind: 'class' });
    expect(c.membersAre).toBe('siblings');
    expect(c.members.map((m) => m.name)).toContain('TokenBucket::tryAcquire');
    expect(c.callers.map((m) => `${m.path} ${m.within ?? ''}`)).toEqual(
      expect.arrayContaining(['src/bucket.ts TokenBucket::tryAcquire', 'src/use.ts drain']),
    );
    // Every item's handle reads back.
    expect((await ws.show(c.container!.handle)).text).toContain('export class TokenBucket');
    expect(await codeOf(ws.ctx('zzzzzz:1'))).toBe('unknown_result');
  });

  it('show sym: reads the best definition with its typed context, the one the CLI prints as JSON', async () => {
    const read = await ws.show('sym:TokenBucket');
    expect(read).toMatchObject({ path: 'src/bucket.ts', name: 'TokenBucket', kind: 'class', verified: 'revision' });
    // From its doc comment on line 1 (show sym: reads a definition with its doc comment).
    expect(read.extent?.startLine).toBe(1);
    // Three sites: the import in use.ts, drain's parameter type and the declaration.
    expect(read.symbol).toEqual({ also: [], refs: { sites: 3, files: 2, next: 'refs TokenBucket' } });
    const cli = JSON.parse(
      (await showCommand('sym:TokenBucket', repo.cli({ format: 'json', budget: 100_000 }))).stdout,
    ) as Record<string, unknown>;
    expect({ also: cli.also, refs: cli.refs }).toEqual(read.symbol);
  });
});

describe('errors', () => {
  it('a missing root fails at open with root_not_found', async () => {
    const missing = path.join(os.tmpdir(), 'tp-api-no-such-root', 'x');
    expect(await codeOf(openWorkspace({ root: missing, noWorkspace: true }))).toBe('root_not_found');
  });

  it('every code the tree answers is an ErrorCode with a meaning and a next step', () => {
    const packages = path.resolve(__dirname, '..', '..');
    const found = new Set<string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) {
          const text = fs.readFileSync(p, 'utf8');
          for (const m of text.matchAll(/\b(?:fail|failure|configError)(?:<[^>]*>)?\(\s*'([a-z_]+)'/g)) found.add(m[1]);
          for (const m of text.matchAll(/\{ code: '([a-z_]+)', message/g)) found.add(m[1]);
        }
      }
    };
    for (const pkg of ['workspace', 'index', 'config', 'member-root', 'result-cache', 'history', 'runtime', 'render'])
      walk(path.join(packages, pkg, 'src'));
    expect(found.size).toBeGreaterThan(40);
    const codes = new Set<string>(ERROR_CODES);
    expect([...found].filter((c) => !codes.has(c))).toEqual([]);
    for (const code of ERROR_CODES) {
      expect(ERROR_TABLE[code].meaning.length).toBeGreaterThan(10);
      expect(ERROR_TABLE[code].next.length).toBeGreaterThan(3);
    }
    expect(new TrufflepigError('stale_source', 'x').help).toBe(ERROR_TABLE.stale_source);
  });
});
