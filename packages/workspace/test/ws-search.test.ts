import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheDirForRoot } from '@trufflepig/member-root';
import { countTokens } from '@trufflepig/render';
import { ctxCommand, indexCommand, moreCommand, refsCommand, searchCommand, showCommand } from '../src';
import { errorCode, json, makeRepo, makeSpace, opts, type Space } from './ws-helpers';

describe('workspace search: selection, widening, fusion by rank', () => {
  let space: Space;

  beforeAll(async () => {
    space = makeSpace('search', '[output]\nbudget = 900\n');
    const out = await indexCommand(opts(space, space.base));
    expect(out.exitCode).toBe(0);
    expect(Object.keys(json(out).members)).toEqual(['app', 'lib']);
  });

  it('searches the home member only, and every hit names its member', async () => {
    const page = json(await searchCommand(['refill', 'tokens'], opts(space, path.join(space.app, 'src'))));
    expect(page.coverage.scope).toBe('home');
    expect(Object.keys(page.coverage.members)).toEqual(['app']);
    expect(page.hits.length).toBeGreaterThan(0);
    expect(page.hits.every((h: { member: string }) => h.member === 'app')).toBe(true);
    expect(page.members).toEqual({ app: space.app });
    expect(page.hits[0].uri).toBe(`file://${space.app}/src/bucket.rs`);
  });

  it('widens a home without hits to all members, and says so', async () => {
    const page = json(await searchCommand(['StoryTeller'], opts(space, space.app)));
    expect(page.coverage.scope).toBe('home_widened');
    expect(page.coverage.members.app).toMatchObject({ state: 'complete', hits: 0 });
    expect(page.hits[0]).toMatchObject({ member: 'lib', path: 'src/story.ts', name: 'StoryTeller' });
  });

  it('explicit selectors never widen', async () => {
    const inApp = json(await searchCommand(['in:app', 'StoryTeller'], opts(space, space.lib)));
    expect(inApp.hits).toEqual([]);
    expect(Object.keys(inApp.coverage.members)).toEqual(['app']);
    const home = json(await searchCommand(['ws:home', 'StoryTeller'], opts(space, space.app)));
    expect(home.hits).toEqual([]);
    expect(home.coverage.scope).toBe('home');
    const member = json(await searchCommand(['StoryTeller'], opts(space, space.app, { member: 'app' })));
    expect(member.hits).toEqual([]);
  });

  it('outside every member and with ws:all it searches all members, fused by rank', async () => {
    for (const page of [
      json(await searchCommand(['tokens'], opts(space, space.base))),
      json(await searchCommand(['ws:all', 'tokens'], opts(space, space.app))),
    ]) {
      expect(page.coverage.scope).toBe('all');
      expect(Object.keys(page.coverage.members).sort()).toEqual(['app', 'lib']);
    }
    // Each member's first hit comes before any member's second.
    const page = json(await searchCommand(['ws:all', 'chapter', 'tokens'], opts(space, space.app)));
    const firstTwo = page.hits
      .slice(0, 2)
      .map((h: { member: string }) => h.member)
      .sort();
    expect(firstTwo).toEqual(['app', 'lib']);
  });

  it('keeps the captured order across pages and routes show from any member', async () => {
    const first = json(await searchCommand(['ws:all', 'tokens', 'chapter'], opts(space, space.app, { limit: 1 })));
    expect(first.next).toBeDefined();
    const second = json(await moreCommand(first.next, opts(space, space.lib, { limit: 5 })));
    expect(second.hits[0].handle).toMatch(/:2$/);
    const libHit = [...first.hits, ...second.hits].find((h: { member: string }) => h.member === 'lib');
    const shown = json(await showCommand(libHit.handle, opts(space, space.app)));
    expect(shown.member).toBe('lib');
    expect(shown.uri).toContain(space.lib);
  });

  it('applies [output].budget by default and -b over it, provenance included', async () => {
    const dflt = await searchCommand(['ws:all', 'tokens'], opts(space, space.app));
    expect(countTokens(dflt.stdout)).toBeLessThanOrEqual(900);
    const small = await searchCommand(['ws:all', 'tokens'], opts(space, space.app, { budget: 200 }));
    expect(countTokens(small.stdout)).toBeLessThanOrEqual(200);
    const lines = await searchCommand(['ws:all', 'tokens'], opts(space, space.app, { budget: 200, format: 'lines' }));
    expect(countTokens(lines.stdout)).toBeLessThanOrEqual(200);
    expect(lines.stdout).toMatch(/^coverage: .*app complete.*lib complete/m);
  });

  it('rejects unknown members and ws:home outside every member', async () => {
    expect(errorCode(await searchCommand(['in:nope', 'x'], opts(space, space.app)))).toBe('unknown_member');
    expect(errorCode(await searchCommand(['ws:home', 'x'], opts(space, space.base)))).toBe('no_home');
    expect(errorCode(await searchCommand(['x'], opts(space, space.app, { member: 'nope' })))).toBe('unknown_member');
  });

  it('--no-workspace searches the root alone; selectors then need a workspace', async () => {
    const page = json(await searchCommand(['StoryTeller'], opts(space, space.app, { noWorkspace: true })));
    expect(page.hits).toEqual([]);
    expect(page.coverage.members).toBeUndefined();
    expect(errorCode(await searchCommand(['in:lib', 'x'], opts(space, space.app, { noWorkspace: true })))).toBe(
      'no_workspace',
    );
    expect(
      errorCode(await searchCommand(['x'], opts(space, space.app, { noWorkspace: true, workspace: space.config }))),
    ).toBe('workspace_conflicting_flags');
  });

  it('--root: a member root activates the workspace, a subtree searches alone, a non-member root with --workspace fails', async () => {
    const member = json(await searchCommand(['chapter'], opts(space, space.base, { root: space.lib })));
    expect(member.coverage.scope).toBe('home');
    expect(Object.keys(member.coverage.members)).toEqual(['lib']);
    const subtree = json(
      await searchCommand(
        ['refill'],
        opts(space, space.base, { root: path.join(space.app, 'src'), cache: path.join(space.base, 'subcache') }),
      ),
    );
    expect(subtree.coverage.members).toBeUndefined();
    expect(subtree.hits[0].path).toBe('bucket.rs');
    const outside = await searchCommand(
      ['x'],
      opts(space, space.base, { root: path.join(space.app, 'src'), workspace: space.config }),
    );
    expect(errorCode(outside)).toBe('root_not_member');
  });

  it('a member subdirectory searches the whole member', async () => {
    const page = json(await searchCommand(['A', 'token', 'bucket'], opts(space, path.join(space.app, 'src'))));
    expect(page.hits.map((h: { path: string }) => h.path)).toContain('README.md');
  });

  it('an unrelated repository nested inside a member stays part of that member', async () => {
    const nested = makeRepo(path.join(space.app, 'vendor', 'inner'), { 'inner.rs': 'fn nested_marker() {}\n' });
    try {
      await indexCommand(opts(space, nested, { member: 'app' }));
      const page = json(await searchCommand(['nested_marker'], opts(space, nested)));
      expect(page.coverage.scope).toBe('home');
      expect(Object.keys(page.coverage.members)).toEqual(['app']);
      expect(page.hits[0]).toMatchObject({ member: 'app', path: 'vendor/inner/inner.rs' });
    } finally {
      fs.rmSync(path.join(space.app, 'vendor'), { recursive: true, force: true });
    }
  });
});

describe('workspace search: unavailable members and caches', () => {
  it('reports a missing member in coverage and fails only when no selected member is available', async () => {
    const space = makeSpace('missing');
    fs.appendFileSync(space.config, '\n[members.gone]\npath = "gone"\n');
    const page = json(await searchCommand(['tokens'], opts(space, space.base)));
    expect(page.coverage.members.gone).toMatchObject({ state: 'unavailable' });
    expect(page.coverage.members.gone.reason.length).toBeLessThanOrEqual(120);
    const lines = await searchCommand(['tokens'], opts(space, space.base, { format: 'lines' }));
    expect(lines.stdout).toMatch(/gone unavailable \(/);
    const only = await searchCommand(['in:gone', 'tokens'], opts(space, space.base));
    expect(errorCode(only)).toBe('workspace_unavailable');
  });

  it('--cache gives an isolated base with member caches under it, and must lie outside every member', async () => {
    const space = makeSpace('cachebase');
    const base = path.join(space.base, 'isolated');
    const out = json(await indexCommand(opts(space, space.base, { cache: base, format: 'json' })));
    // Members follow the single-root rule: <base>/<root-hash>, the same directory a
    // --no-workspace call with this --cache uses for that root.
    expect(out.members.app.cache).toBe(cacheDirForRoot(fs.realpathSync(space.app), { cacheOverride: base }));
    expect(out.members.lib.cache).toBe(cacheDirForRoot(fs.realpathSync(space.lib), { cacheOverride: base }));
    const page = json(await searchCommand(['tokens'], opts(space, space.base, { cache: base, format: 'json' })));
    expect(page.hits.length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(base, 'workspaces')).length).toBe(1);
    const inside = await searchCommand(['tokens'], opts(space, space.base, { cache: path.join(space.app, 'cache') }));
    expect(errorCode(inside)).toBe('cache_inside_root');
  });

  it('configuration errors name the file and line', async () => {
    const space = makeSpace('badconfig');
    fs.writeFileSync(space.config, '[workspace]\nname = "bad name!"\n\n[members.app]\npath = "app"\n');
    const out = await searchCommand(['x'], opts(space, space.app));
    expect(errorCode(out)).toBe('config_invalid_name');
    expect(JSON.parse(out.stdout).error.message).toContain(`${space.config}:2`);
  });

  it('a symlink alias of a member root is a duplicate root', async () => {
    const space = makeSpace('alias');
    fs.symlinkSync(space.app, path.join(space.base, 'app-alias'));
    fs.appendFileSync(space.config, '\n[members.alias]\npath = "app-alias"\n');
    expect(errorCode(await searchCommand(['x'], opts(space, space.base)))).toBe('config_duplicate_root');
  });
});

describe('workspace search: per_source scopes across members', () => {
  it('[retrieval] scopes = "per_source" groups fused member hits by source; --scopes shared wins', async () => {
    const space = makeSpace('scopes', '[retrieval]\nscopes = "per_source"\n');
    fs.writeFileSync(path.join(space.lib, 'README.md'), '# lib\n\nThe token bucket story is told elsewhere.\n');
    await indexCommand(opts(space, space.base));
    const grouped = json(await searchCommand(['ws:all', 'token', 'bucket'], opts(space, space.app, { budget: 4000 })));
    // The initial commits changed src/bucket.rs: their documents name it, so git-log has a group too.
    expect(grouped.groups.map((g: { scope: string[] }) => g.scope.join(',')).sort()).toEqual([
      'source:code',
      'source:docs',
      'source:git-log',
    ]);
    const log = grouped.groups.find((g: { scope: string[] }) => g.scope.join(',') === 'source:git-log');
    expect(log.hits[0]).toMatchObject({ member: 'app' });
    expect(log.hits[0].path).toMatch(/^commit:[0-9a-f]{40}$/);
    const docs = grouped.groups.find((g: { scope: string[] }) => g.scope.join(',') === 'source:docs');
    expect(new Set(docs.hits.map((h: { member: string }) => h.member))).toEqual(new Set(['app', 'lib']));
    for (const g of grouped.groups) for (const h of g.hits) expect(h.sources).toContain(g.scope[0]);
    const shared = json(
      await searchCommand(['ws:all', 'token', 'bucket'], opts(space, space.app, { budget: 4000, scopes: 'shared' })),
    );
    expect(shared.groups).toBeUndefined();
    expect(shared.hits.map((h: { handle: string }) => h.handle.split(':')[1])).toEqual(
      grouped.hits.map((h: { handle: string }) => h.handle.split(':')[1]),
    );
  });
});

/** A workspace of the given members (name → files), each a committed repository, indexed. */
async function indexedMembers(label: string, members: Record<string, Record<string, string>>): Promise<Space> {
  const space = makeSpace(label);
  const roots = Object.entries(members).map(([name, files]) => [name, makeRepo(path.join(space.base, name), files)]);
  fs.writeFileSync(
    space.config,
    `[workspace]\nname = "${label}"\n${roots.map(([name, root]) => `\n[members.${name}]\npath = "${root}"\n`).join('')}`,
  );
  expect((await indexCommand(opts(space, space.base))).exitCode).toBe(0);
  return space;
}

describe('workspace sym: pages', () => {
  // A workspace trial (flask, werkzeug): flask's import-only app.py, its 2nd file, stood
  // before werkzeug's 2nd `class Request` for `search sym:Request`.
  it("put every member's definitions before any member's files that only import the name", async () => {
    const space = await indexedMembers('symfuse', {
      web: {
        // Paths that sort before the other member's: rank ties break by path.
        'api/__init__.py': '',
        'api/wrappers.py': 'class Request:\n    pass\n',
        'api/app.py': 'from .wrappers import Request\n\nhandler = Request\n',
      },
      core: {
        'core/__init__.py': '',
        'core/wrappers/request.py': 'class Request:\n    pass\n',
        'core/sansio/request.py': 'class Request:\n    pass\n',
      },
    });
    const page = json(await searchCommand(['ws:all', 'sym:Request'], opts(space, space.base)));
    const rows = page.hits.map(
      (h: { member: string; path: string; kind?: string }) => `${h.member}/${h.path} ${h.kind ?? '-'}`,
    );
    expect(rows.slice(0, 3).every((r: string) => r.endsWith(' class'))).toBe(true);
    expect(rows[3]).toBe('web/api/app.py -');
  });
});

describe('workspace pages for a name spelled as code', () => {
  // A workspace trial (requests, urllib3): `search Retry` put three requests files that use
  // or mention the name (`self.max_retries = Retry(0, read=False)`, `class RetryError`, a
  // status code's "retry") before urllib3's `class Retry`, which its own member ranks first.
  it("put a member's definition spelled as the query before other members' files that only use the name", async () => {
    const space = await indexedMembers('spelledfuse', {
      client: {
        'client/adapters.py':
          'from pool.retry import Retry\n\n\nclass Adapter:\n    def __init__(self):\n        self.max_retries = Retry(0, read=False)\n',
        'client/errors.py': 'class RetryError(Exception):\n    """Retry failed: too many retries."""\n',
        'client/codes.py': 'CODES = {449: ("retry_with", "retry")}\n',
        'client/sessions.py':
          'from .adapters import Adapter\n\n# Retry settings come from the adapter.\nsession = Adapter()\n',
      },
      pool: {
        'pool/util/retry.py': [
          'class Retry(object):',
          '    """Retry configuration."""',
          '',
          '    def __init__(self, total=10):',
          '        self.total = total',
          '',
          '    def new(self):',
          '        return Retry(self.total - 1)',
          '',
        ].join('\n'),
        'pool/manager.py': 'from .util.retry import Retry\n\nDEFAULT = Retry(3)\n',
        'pool/response.py': 'class Response:\n    def __init__(self, retries=None):\n        self.retries = retries\n',
      },
    });
    const page = json(await searchCommand(['ws:all', 'Retry'], opts(space, space.base)));
    const rows = page.hits.map((h: { member: string; path: string; name?: string }) => `${h.member}/${h.path}`);
    expect(rows[0]).toBe('pool/pool/util/retry.py');
    expect(page.hits[0].name).toBe('Retry');

    // ctx lists its own member's callers; another member using the name is said, with the
    // refs that reads its sites (the trial read urllib3's proxy_from_url as uncalled).
    const ctx = await ctxCommand('sym:Retry in:pool', { ...opts(space, space.base), format: 'lines' });
    expect(ctx.exitCode).toBe(0);
    expect(ctx.stdout).toContain('elsewhere: client holds the name in 1 file (refs Retry in:client)\n');
    expect(ctx.stdout).not.toContain('unresolved bases');
    const data = json(await ctxCommand('sym:Retry in:pool', { ...opts(space, space.base), format: 'json' }));
    expect(data.elsewhere).toEqual([{ member: 'client', files: 1, refs: 'refs Retry in:client' }]);
    const refs = await refsCommand(['Retry', 'in:client'], { ...opts(space, space.base), format: 'lines' });
    expect(refs.stdout).toContain('client/adapters.py');
  });
});
