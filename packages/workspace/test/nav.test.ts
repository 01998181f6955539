import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ctxCommand,
  indexCommand,
  mapCommand,
  refsCommand,
  searchCommand,
  showCommand,
  type CommandOptions,
} from '../src';
import {
  errorCode,
  indexedRepo,
  json,
  makeRepo,
  makeSpace,
  opts,
  refsSites,
  type Space,
  type IndexedRepo,
} from './ws-helpers';

const FILES = {
  'Cargo.toml': '[package]\nname = "bucket-lib"\nversion = "0.1.0"\n',
  'src/lib.rs': 'mod bucket;\nmod user;\npub use bucket::TokenBucket;\n',
  'src/bucket.rs': [
    'pub struct TokenBucket {',
    '    tokens: u32,',
    '}',
    '',
    'impl TokenBucket {',
    '    pub fn new() -> Self { TokenBucket { tokens: 0 } }',
    '',
    '    pub fn refill(&mut self) {',
    '        self.tokens += 1;',
    '    }',
    '',
    '    pub fn try_acquire(&mut self) -> bool {',
    '        self.refill();',
    '        self.tokens > 0',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/user.rs':
    'use crate::TokenBucket;\n\npub fn pair() -> (TokenBucket, TokenBucket) {\n    (TokenBucket::new(), TokenBucket::new())\n}\n',
  'tests/it.rs':
    'use bucket_lib::TokenBucket;\n\n#[test]\nfn fills() {\n    let mut b = TokenBucket::new();\n    b.refill();\n}\n',
  'web/src/store.ts': 'export class Store {\n  get(key: string): string {\n    return key;\n  }\n}\n',
  'web/src/index.ts': "export { Store as DataStore } from './store';\n",
  'web/src/app.ts': "import { DataStore } from './index';\n\nexport const store = new DataStore();\n",
  'a/config.rs': 'pub struct Config {}\n',
  'b/config.rs': 'pub struct Config {}\n',
};

describe('navigation in one root: show sym:, refs, map, ctx', () => {
  let root: string;
  let repo: IndexedRepo;
  const at = (cwd: string, more: Partial<CommandOptions> = {}) => repo.at({ cwd, ...more });

  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-', FILES, { format: 'json' });
    root = repo.root;
  });

  it('show sym: reads the best definition, verified, then its other definitions and a count of its references', async () => {
    const out = await showCommand('sym:TokenBucket', at(root));
    const page = json(out);
    expect(page).toMatchObject({
      path: 'src/bucket.rs',
      name: 'TokenBucket',
      kind: 'struct',
      verified: 'revision',
      start_line: 1,
    });
    expect(page.rows[0].text).toBe('pub struct TokenBucket {');
    expect(page.also).toEqual([]);
    // 1 declaration + 3 in bucket.rs, 1 in lib.rs, 4 in user.rs, 2 in tests/it.rs.
    expect(page.refs).toEqual({ sites: 11, files: 4, next: 'refs TokenBucket' });
    expect(page.imports).toBeUndefined();
    // Its handle reads back like any other.
    expect(json(await showCommand(page.handle, at(root))).rows[0].text).toBe('pub struct TokenBucket {');
    const lines = (await showCommand('sym:TokenBucket', at(root, { format: 'lines' }))).stdout;
    expect(lines.trimEnd().split('\n').slice(-1)).toEqual(['refs: 11 sites in 4 files (refs TokenBucket)']);
    expect(lines).not.toMatch(/^(import|definition): /m);
    // A member's count is of its bare name, and says so: `refs A::b` keeps only A's.
    const member = (await showCommand('sym:TokenBucket::refill', at(root, { format: 'lines' }))).stdout;
    expect(member.trimEnd().split('\n').slice(-1)[0]).toMatch(
      /^refs: \d+ sites? of the name refill in \d+ files? \(refs TokenBucket::refill lists TokenBucket's\)$/,
    );
    const config = (await showCommand('sym:Config', at(path.join(root, 'b'), { format: 'lines' }))).stdout;
    expect(config).toMatch(/^also: [0-9a-z]+:2 a\/config\.rs:1 struct Config$/m);
  });

  it('show sym: follows an aliased re-export to the definition, and prefers the nearest directory', async () => {
    const page = json(await showCommand('sym:DataStore', at(root)));
    expect(page).toMatchObject({ path: 'web/src/store.ts', name: 'Store', kind: 'class' });
    expect(page.import.followed).toBeGreaterThanOrEqual(1);
    expect(page.import.via[0]).toContain('DataStore');
    expect(json(await showCommand('sym:Config', at(path.join(root, 'b')))).path).toBe('b/config.rs');
    expect(json(await showCommand('sym:Config', at(path.join(root, 'a')))).path).toBe('a/config.rs');
  });

  it('no_definition names the filters and the best match without them', async () => {
    const out = await showCommand('sym:TokenBucket lang:typescript', at(root));
    expect(errorCode(out)).toBe('no_definition');
    expect(JSON.parse(out.stdout).error.message).toContain(
      'lang:typescript; best without them: src/bucket.rs:1 (struct)',
    );
    expect(errorCode(await showCommand('sym:NoSuchThing', at(root)))).toBe('no_definition');
  });

  it('refs orders code uses, then declaration and imports, then tests; resolves through imports; collapses same-line sites', async () => {
    const page = json(await refsCommand(['TokenBucket'], at(root, { limit: 50, budget: 5000 })));
    const rows = page.hits.map((h: { path: string; role: string }) => `${h.path}:${h.role}`);
    const group = (r: string) => (r.startsWith('tests/') ? 2 : /:(declaration|import)$/.test(r) ? 1 : 0);
    expect(rows.map(group)).toEqual([...rows.map(group)].sort());
    expect(rows[0]).toBe('src/bucket.rs:type');
    expect(rows.filter((r: string) => group(r) === 1)).toEqual([
      'src/bucket.rs:declaration',
      'src/lib.rs:import',
      'src/user.rs:import',
    ]);
    const pair = page.hits.find(
      (h: { path: string; start_line: number; role: string }) => h.path === 'src/user.rs' && h.start_line === 3,
    );
    expect(pair).toMatchObject({ repeats: 2, within: 'pair', text: 'pub fn pair() -> (TokenBucket, TokenBucket) {' });
    expect(page.hits.find((h: { role: string }) => h.role === 'declaration')).toMatchObject({
      text: 'pub struct TokenBucket {',
    });
    expect(
      page.hits.find((h: { path: string; start_line: number }) => h.path === 'src/bucket.rs' && h.start_line === 6),
    ).toMatchObject({ within: 'TokenBucket::new' });
    const testImport = page.hits.find(
      (h: { path: string; role: string }) => h.path === 'tests/it.rs' && h.role === 'import',
    );
    expect(testImport).toMatchObject({ resolution: 'resolved', definition: 'src/bucket.rs:1' });
    expect(page.coverage.reference_files).toBe(4);
    expect(page.coverage.reference_sites).toBe(11);
    expect(page.coverage.reference_sites_truncated).toBeUndefined();
    const filtered = json(await refsCommand(['TokenBucket', '-file:tests'], at(root, { limit: 50, budget: 5000 })));
    expect(filtered.hits.some((h: { path: string }) => h.path.startsWith('tests/'))).toBe(false);
  });

  it('map lists a file in source order with members last, a prefix as file rows, and names the nearest paths', async () => {
    const file = json(await mapCommand(['src/bucket.rs'], at(root, { budget: 3000 })));
    expect(file.hits.map((h: { name: string }) => h.name)).toEqual([
      'TokenBucket',
      'TokenBucket::new',
      'TokenBucket::refill',
      'TokenBucket::try_acquire',
      'TokenBucket::tokens',
    ]);
    const dir = json(await mapCommand(['src/'], at(root, { budget: 3000 })));
    expect(dir.hits.map((h: { path: string; kind: string }) => `${h.path}:${h.kind}`)).toEqual([
      'src/bucket.rs:file',
      'src/lib.rs:file',
      'src/user.rs:file',
    ]);
    expect(dir.hits[2].names).toEqual(['pair']);
    const missing = await mapCommand(['src/bukket.rs'], at(root));
    expect(errorCode(missing)).toBe('no_indexed_path');
    expect(JSON.parse(missing.stdout).error.message).toContain('src/bucket.rs');
  });

  it('ctx gives container, siblings, callers and callees, and refuses a handle from an older generation', async () => {
    const hit = json(await searchCommand(['sym:TokenBucket::refill'], at(root))).hits[0];
    const c = json(await ctxCommand(hit.handle, at(root)));
    expect(c.symbol).toMatchObject({ name: 'TokenBucket::refill', kind: 'method' });
    expect(c.container).toMatchObject({ name: 'TokenBucket', kind: 'struct', path: 'src/bucket.rs' });
    expect(c.siblings.map((s: { name: string }) => s.name)).toContain('TokenBucket::try_acquire');
    expect(c.callers.map((s: { path: string; within: string }) => `${s.path} ${s.within ?? ''}`)).toEqual(
      expect.arrayContaining(['src/bucket.rs TokenBucket::try_acquire', 'tests/it.rs fills']),
    );
    const acquire = json(await searchCommand(['sym:TokenBucket::try_acquire'], at(root))).hits[0];
    expect(json(await ctxCommand(acquire.handle, at(root))).callees.map((s: { name: string }) => s.name)).toContain(
      'TokenBucket::refill',
    );
    fs.appendFileSync(path.join(root, 'src/user.rs'), '\npub fn later() {}\n');
    await indexCommand(at(root));
    expect(errorCode(await ctxCommand(hit.handle, at(root)))).toBe('stale_result');
  });
});

describe('navigation in a workspace keeps member provenance', () => {
  let space: Space;
  beforeAll(async () => {
    space = makeSpace('nav');
    await indexCommand(opts(space, space.base));
  });

  it('show sym: widens from a home without the definition and names the member', async () => {
    const page = json(await showCommand('sym:StoryTeller', opts(space, space.app, { format: 'json' })));
    expect(page).toMatchObject({ member: 'lib', path: 'src/story.ts', kind: 'class' });
    expect(errorCode(await showCommand('sym:StoryTeller in:app', opts(space, space.lib, { format: 'json' })))).toBe(
      'no_definition',
    );
  });

  it('refs and map aggregate members with provenance and never cross-resolve', async () => {
    const refs = json(
      await refsCommand(['ws:all', 'StoryTeller'], opts(space, space.app, { budget: 3000, format: 'json' })),
    );
    expect(new Set(refs.hits.map((h: { member: string }) => h.member))).toEqual(new Set(['lib']));
    expect(refs.members).toEqual({ lib: space.lib });
    const map = json(await mapCommand(['ws:all', 'src/'], opts(space, space.base, { budget: 3000, format: 'json' })));
    expect(map.hits.map((h: { member: string; path: string }) => `${h.member}/${h.path}`).sort()).toEqual([
      'app/src/bucket.rs',
      'app/src/lib.rs',
      'lib/src/index.ts',
      'lib/src/story.ts',
    ]);
  });
});

describe('a workspace path as its pages print it, MEMBER/path, pasted back', () => {
  // An agent trial pasted `express/lib/response.js:275` from a hit line: `member_required`;
  // `map bodyparser/lib/types/` answered no_indexed_path with another member's nearest files.
  let space: Space;
  beforeAll(async () => {
    space = makeSpace('paste');
    await indexCommand(opts(space, space.base, { format: 'lines' }));
  });

  it('show reads it in that member, from outside every member and from another one', async () => {
    for (const cwd of [space.base, space.app]) {
      const out = await showCommand('lib/src/story.ts:2', opts(space, cwd, { format: 'lines' }));
      expect(out.stdout.split('\n').slice(0, 2)).toEqual([
        'path:lib/src/story.ts:2',
        '2\t  tell(chapter: number): string {',
      ]);
    }
    expect((await showCommand('path:lib/src/story.ts:2', opts(space, space.base))).exitCode).toBe(0);
  });

  it("show reads MEMBER/path as the member's own directory named like it when the member has no such path", async () => {
    // A workspace trial: member flask holds the package flask/, whose pages print
    // `flask/flask/app.py`; `show path:flask/app.py` answered source_missing, `map` read it.
    const pkg = makeSpace('paste-pkg');
    const flask = makeRepo(path.join(pkg.base, 'flask'), { 'flask/app.py': 'class Flask:\n    name = "app"\n' });
    fs.writeFileSync(pkg.config, `[workspace]\nname = "pkg"\n\n[members.flask]\npath = "${flask}"\n`);
    await indexCommand(opts(pkg, pkg.base, { format: 'lines' }));
    const out = await showCommand('path:flask/app.py:2', opts(pkg, pkg.base, { format: 'lines' }));
    expect(out.stdout.split('\n').slice(0, 2)).toEqual(['path:flask/flask/app.py:2', '2\t    name = "app"']);
  });

  it('show sym: in a selected member that lacks the name says which member defines it', async () => {
    // A workspace trial: `--member flask show sym:cached_property` said only that no
    // definition is indexed; werkzeug defines it.
    for (const selected of [{ member: 'app' }, {}]) {
      const words = 'member' in selected ? 'sym:StoryTeller' : 'sym:StoryTeller in:app';
      const out = await showCommand(words, opts(space, space.base, { format: 'lines', ...selected }));
      expect(out.exitCode).toBe(2);
      expect(out.stderr).toBe(
        `trufflepig: no_definition: no definition of StoryTeller in app; another member defines it: lib/src/story.ts:1; select it with in:lib${'member' in selected ? ', or drop --member' : ''}\n`,
      );
    }
  });

  it('map lists that member, and file: filters in it', async () => {
    const map = (await mapCommand(['lib/src/'], opts(space, space.base, { format: 'lines' }))).stdout;
    expect(map).toMatch(/^1 lib\/src\/index\.ts /m);
    expect(map).not.toMatch(/app\//);
    const page = (await searchCommand(['tell', 'file:lib/src/story.ts'], opts(space, space.base, { format: 'lines' })))
      .stdout;
    expect(page.split('\n')[0]).toMatch(/^[0-9a-z]{6,}:1 {2}lib\/src\/story\.ts:2-4 {2}StoryTeller::tell$/);
  });

  it("map of a MEMBER/path that member lacks names the member's nearest paths first", async () => {
    // A trial's `map zod/src/v3/nonexist.ts` was offered zod/LICENSE, zod/README.md: the
    // nearest to the path read as typed, which no member's paths share a leading part with.
    const out = await mapCommand(['lib/src/stroy.ts'], opts(space, space.base, { format: 'lines' }));
    expect(errorCode(out)).toBe('no_indexed_path');
    expect(out.stderr).toMatch(/^trufflepig: no_indexed_path: .*; nearest: lib\/src\/story\.ts, lib\/src\/index\.ts/);
  });

  it('an empty filtered search says per member what the filter matched and which paths are nearest', async () => {
    const page = (await searchCommand(['tell', 'file:src/stroy.ts'], opts(space, space.base, { format: 'lines' })))
      .stdout;
    expect(page).toContain('lib complete 0 hits (filters: file:src/stroy.ts matched 0 (nearest: lib/src/story.ts');
  });

  it('show sym: and refs read file:MEMBER/path as search does', async () => {
    // An MCP trial's `show sym:X file:MEMBER/path` answered no_definition.
    const shown = await showCommand(
      'sym:StoryTeller file:lib/src/story.ts',
      opts(space, space.base, { format: 'lines' }),
    );
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout.split('\n')[0]).toMatch(/ {2}lib\/src\/story\.ts:1-\d+ {2}StoryTeller$/);
    const refs = json(
      await refsCommand(['StoryTeller', 'file:lib/src/'], opts(space, space.base, { budget: 3000, format: 'json' })),
    );
    expect(refs.coverage.reference_sites).toBeGreaterThan(0);
    expect(new Set(refs.hits.map((h: { member: string }) => h.member))).toEqual(new Set(['lib']));
  });

  it('refs names its definition with the member prefix', async () => {
    const out = (await refsCommand(['StoryTeller'], opts(space, space.lib, { format: 'lines' }))).stdout;
    expect(out.split('\n')[0]).toMatch(/^refs StoryTeller → lib\/src\/story\.ts:1 {2}/);
  });
});

describe('partially parsed files', () => {
  it('never resolve a reference as certain; a definition that parsed whole is', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-partial-')));
    const root = makeRepo(path.join(base, 'repo'), {
      'src/lib.rs': 'pub fn helper() -> u32 { 1 }\n\npub fn broken( {\n    helper()\n}\n',
    });
    const at = {
      cwd: root,
      noDaemon: true,
      noWorkspace: true,
      cache: path.join(base, 'cache'),
      format: 'json' as const,
    };
    await indexCommand(at);
    const page = json(await refsCommand(['helper'], { ...at, budget: 3000 }));
    const byRole = (role: string) => page.hits.filter((h: { role: string }) => h.role === role);
    expect(byRole('call').length).toBeGreaterThan(0);
    expect(byRole('call').every((h: { resolution: string }) => h.resolution !== 'resolved')).toBe(true);
    // `helper` itself parsed without an error (resolve.ts isCertain).
    expect(byRole('declaration')).toEqual([expect.objectContaining({ resolution: 'resolved' })]);
  });
});

describe('namespace imports', () => {
  it('C# using resolves a type through the namespace that declares it', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nav-cs-')));
    const root = makeRepo(path.join(base, 'repo'), {
      'Models/User.cs':
        'namespace App.Models\n{\n    public class User\n    {\n        public string Name { get; set; }\n    }\n}\n',
      'Other/User.cs': 'namespace App.Other\n{\n    public class User { }\n}\n',
      'Program.cs': 'using App.Models;\n\nclass Program\n{\n    static User Make() => new User();\n}\n',
    });
    const at = {
      cwd: root,
      noDaemon: true,
      noWorkspace: true,
      cache: path.join(base, 'cache'),
      budget: 3000,
      format: 'json' as const,
    };
    await indexCommand(at);
    const page = json(await refsCommand(['User', 'file:Program.cs'], at));
    expect(page.hits.length).toBeGreaterThan(0);
    for (const h of page.hits) expect(h).toMatchObject({ resolution: 'resolved', definition: 'Models/User.cs:3' });
  });

  it('names a C# property written over several lines as what holds its accessors', async () => {
    // newtonsoft-json's `refs _maxDepth` read `in JsonReader` for `get { return _maxDepth; }` (an agent trial).
    const repo = await indexedRepo('tp-nav-cs-prop-', {
      'Reader.cs':
        'class Reader\n{\n    private int? _maxDepth;\n    public int? MaxDepth\n    {\n' +
        '        get { return _maxDepth; }\n        set { _maxDepth = value; }\n    }\n' +
        '    void Push() { if (_maxDepth > 1) { } }\n}\n',
    });
    const sites = await refsSites(repo, ['_maxDepth']);
    const within = (line: number) => (sites.find((s) => s.start_line === line) as { within?: string })?.within;
    expect([within(6), within(7), within(9)]).toEqual(['Reader::MaxDepth', 'Reader::MaxDepth', 'Reader::Push']);
  });

  it('resolves a C# name of the same or an enclosing namespace without a using', async () => {
    // newtonsoft-json: `DefaultContractResolver : IContractResolver` in one namespace, and
    // `JsonSerializer` of the namespace around it, were candidates (an agent trial).
    const repo = await indexedRepo('tp-nav-cs-ns-', {
      'Serialization/IContractResolver.cs':
        'namespace Json.Serialization\n{\n    public interface IContractResolver { }\n}\n',
      'Serialization/DefaultContractResolver.cs':
        'namespace Json.Serialization\n{\n    public class DefaultContractResolver : IContractResolver\n    {\n' +
        '        JsonSerializer Make() => new JsonSerializer();\n    }\n}\n',
      'JsonSerializer.cs': 'namespace Json\n{\n    public class JsonSerializer { }\n}\n',
      // Another namespace's class of the same name: not reachable from Json.Serialization.
      'Other/JsonSerializer.cs': 'namespace Other\n{\n    public class JsonSerializer { }\n}\n',
    });
    const contract = await refsSites(repo, ['IContractResolver', 'file:Serialization/DefaultContractResolver.cs']);
    expect(contract).toEqual([
      expect.objectContaining({ resolution: 'resolved', definition: 'Serialization/IContractResolver.cs:3' }),
    ]);
    const serializer = await refsSites(repo, ['JsonSerializer', 'file:Serialization/DefaultContractResolver.cs']);
    // The type and the constructor call of one line make one row.
    expect(serializer).toEqual([
      expect.objectContaining({ start_line: 5, resolution: 'resolved', definition: 'JsonSerializer.cs:3' }),
    ]);
  });
});
