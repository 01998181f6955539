import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseQuery, searchIndex } from '../src';
import { Fixture } from './helpers';

const FILES: Record<string, string> = {
  'crates/a/src/script/host.rs':
    'pub struct ScriptHost { pub name: String }\nimpl ScriptHost { pub fn start_host(&self) {} }\n',
  'crates/a/src/ghost.rs': 'pub fn ghost_walk() {}\n',
  'src/token_bucket.rs':
    'pub struct TokenBucket { tokens: u32 }\nimpl TokenBucket {\n    pub fn refill_tokens(&mut self) { self.tokens = 10; }\n}\n',
  'src/limiter.rs':
    'use crate::token_bucket::TokenBucket;\npub struct Limiter { a: TokenBucket, b: TokenBucket, c: TokenBucket }\nfn make() -> TokenBucket { todo!() }\nfn go(l: &mut Limiter) { l.a.refill_tokens(); l.b.refill_tokens(); l.c.refill_tokens(); }\n',
  'tests/bucket_tests.rs':
    'use app::TokenBucket;\n#[test]\nfn refill_works() { let mut b = TokenBucket::default(); b.refill_tokens(); b.refill_tokens(); b.refill_tokens(); b.refill_tokens(); }\n',
  'docs/guide.md': '# Guide\n\nThe TokenBucket type can refill tokens over time. refill tokens refill tokens.\n',
  'web/src/router.ts':
    'export class Router {\n  route(path: string): string { return path; }\n}\nexport function matchRoute(r: Router) { return r.route("x"); }\n',
  'web/src/router.test.ts': 'import { Router } from "./router";\ntest("route", () => { new Router().route("a"); });\n',
  'café/naïve.ts': 'export const naiveValue = 1;\n',
  // Named with a part of matchRoute (`match`), holding nothing of it.
  'notes/match_tables.txt': 'TABLE = 1\n',
  'notes/crlf.txt': 'first line\r\nsecond Needle line\r\nthird\r\n',
  'notes/multi.txt': 'alpha\nneedle one\nneedle two\n',
  // A config key in capitals once, after its lowercase spelling; a parameter file that
  // holds only the lowercase spelling, many times (the higher phrase score).
  'conf/defaults.txt': 'limit(max_body_size)\n\nDEFAULTS = {"MAX_BODY_SIZE": None}\n',
  // A class, and a module named like it that only uses it (SQLAlchemy's engine/base.py and
  // ext/asyncio/engine.py, an agent trial).
  'orm/base.py': 'class Engine:\n    def connect(self):\n        return None\n',
  'orm/ext/engine.py':
    'from orm.base import Engine\n\nclass AsyncEngine:\n    def __init__(self, sync: Engine):\n        self.sync: Engine = sync\n',
  // A class, and fields spelled like it in lowercase (SQLAlchemy's `self.session = session`
  // stood 2nd and 3rd for `search Session`, an agent trial).
  'orm/session.py': 'class Session:\n    def close(self):\n        return None\n',
  'orm/scoping.py': 'from orm.session import Session\n\nclass Scoped:\n    def make(self):\n        return Session()\n',
  'orm/baked.py': 'class Result:\n    def __init__(self, session):\n        self.session = session\n',
  'lib/params.txt': Array.from({ length: 12 }, (_, i) => `f${i}(max_body_size) returns max_body_size\n`).join(''),
};

let fx: Fixture;
beforeAll(async () => {
  fx = new Fixture('search', FILES);
  await fx.index();
});

const bytesOf = (p: string) => fs.readFileSync(path.join(fx.root, p));

describe('free-text ranking', () => {
  it('puts the file whose stem is the identifier first, then users, docs last', async () => {
    const hits = (await fx.search('TokenBucket')).hits;
    expect(hits.map((h) => h.path)).toEqual([
      'src/token_bucket.rs',
      'src/limiter.rs',
      'tests/bucket_tests.rs',
      'docs/guide.md',
    ]);
    expect(hits[0]).toMatchObject({ lane: 'definitions', kind: 'struct', name: 'TokenBucket' });
    expect(bytesOf(hits[0].path).subarray(hits[0].start, hits[0].end).toString()).toBe(
      'pub struct TokenBucket { tokens: u32 }',
    );
  });

  it('puts a file named like the identifier first only when it declares it, not when it only uses it', async () => {
    const hits = (await fx.search('Engine')).hits;
    expect(hits.map((h) => h.path)).toEqual(['orm/base.py', 'orm/ext/engine.py']);
    expect(hits[0]).toMatchObject({ kind: 'class', name: 'Engine' });
  });

  it('a name defined as spelled is not met by definitions spelled otherwise (`session` for `Session`)', async () => {
    const hits = (await fx.search('Session')).hits;
    expect(hits[0]).toMatchObject({ path: 'orm/session.py', kind: 'class', name: 'Session' });
    expect(hits.filter((h) => h.lane === 'definitions').map((h) => h.path)).toEqual(['orm/session.py']);
    const paths = hits.map((h) => h.path);
    expect(paths.indexOf('orm/scoping.py')).toBeLessThan(paths.indexOf('orm/baked.py'));
  });

  it('puts the definition first for an identifier query and demotes tests that use it more', async () => {
    const hits = (await fx.search('refill_tokens')).hits;
    expect(hits.map((h) => h.path)).toEqual([
      'src/token_bucket.rs',
      'src/limiter.rs',
      'tests/bucket_tests.rs',
      'docs/guide.md',
    ]);
    expect(hits[0].name).toBe('TokenBucket::refill_tokens');
  });

  it('an identifier that occurs lists no path naming only a part of it; one that occurs nowhere does', async () => {
    const occurs = (await fx.search('matchRoute')).hits.map((h) => h.path);
    expect(occurs[0]).toBe('web/src/router.ts');
    expect(occurs).not.toContain('notes/match_tables.txt');
    expect((await fx.search('matchWidget')).hits.map((h) => h.path)).toContain('notes/match_tables.txt');
  });

  it('demotes Markdown unless the query names docs', async () => {
    const plain = await fx.paths('refill tokens');
    expect(plain.indexOf('docs/guide.md')).toBeGreaterThan(plain.indexOf('src/limiter.rs'));
    expect((await fx.paths('refill tokens docs'))[0]).toBe('docs/guide.md');
  });

  it('keeps tests at full weight when the query names tests', async () => {
    expect((await fx.paths('route test'))[0]).toBe('web/src/router.test.ts');
    expect((await fx.paths('route'))[0]).toBe('web/src/router.ts');
  });

  it('gives the same order on two runs', async () => {
    for (const q of ['refill tokens', 'TokenBucket', 'route', 'kind:file']) {
      expect(await fx.search(q)).toEqual(await fx.search(q));
    }
  });
});

describe('sym:', () => {
  it('lists declarations first, then uses, tests last', async () => {
    const hits = (await fx.search('sym:refill_tokens')).hits;
    expect(hits.map((h) => [h.path, h.kind ?? null])).toEqual([
      ['src/token_bucket.rs', 'method'],
      ['src/limiter.rs', null],
      ['tests/bucket_tests.rs', null],
    ]);
    expect(bytesOf(hits[0].path).subarray(hits[0].start, hits[0].end).toString()).toBe('refill_tokens');
  });

  it("a declaring file's hit is its strongest definition: the body after TypeScript overload signatures, a C function after its prototype", async () => {
    const own = new Fixture('sym-overloads', {
      'src/switchMap.ts': [
        'export function switchMap<T>(project: (v: T) => T): T;',
        'export function switchMap<T>(project: (v: T) => T, extra: number): T;',
        '/** The implementation. */',
        'export function switchMap<T>(project: (v: T) => T, extra?: number): T {',
        '  return project(undefined as T);',
        '}',
        '',
      ].join('\n'),
      'src/sched.c':
        'static void schedule_tail(int prev);\n\nint other(void) { return 0; }\n\nstatic void schedule_tail(int prev)\n{\n\t(void)prev;\n}\n',
    });
    await own.index();
    const ts = (await own.search('sym:switchMap')).hits[0];
    expect([ts.path, ts.kind, ts.startLine]).toEqual(['src/switchMap.ts', 'function', 4]);
    const c = (await own.search('sym:schedule_tail')).hits[0];
    expect([c.path, c.kind, c.startLine]).toEqual(['src/sched.c', 'function', 5]);
  });

  it("a declaring file's hit lists the file's other definitions of the name (Java overloads)", async () => {
    const own = new Fixture('sym-overloads-java', {
      'Spliterator.java': [
        'package java.util;',
        'public interface Spliterator<T> {',
        '    boolean tryAdvance(Consumer<? super T> action);',
        '    interface OfInt extends Spliterator<Integer> {',
        '        boolean tryAdvance(IntConsumer action);',
        '    }',
        '    interface OfLong extends Spliterator<Long> {',
        '        boolean tryAdvance(LongConsumer action);',
        '    }',
        '}',
        '',
      ].join('\n'),
    });
    await own.index();
    const [hit] = (await own.search('sym:tryAdvance')).hits;
    expect([hit.startLine, hit.alsoLines]).toEqual([3, [5, 8]]);
  });

  it('finds a declared name no identifier spells: a Java package, a PHP namespace', async () => {
    const own = new Fixture('sym-namespaces', {
      'util/ArrayList.java': 'package java.util;\n\npublic class ArrayList {\n}\n',
      'src/Input.php': '<?php\nnamespace App\\Console;\n\nclass Input\n{\n}\n',
    });
    await own.index();
    const java = (await own.search('sym:java.util')).hits;
    expect(java.map((h) => [h.path, h.kind, h.startLine])).toEqual([['util/ArrayList.java', 'module', 1]]);
    const php = (await own.search('sym:App\\Console kind:module')).hits;
    expect(php.map((h) => [h.path, h.kind, h.startLine])).toEqual([['src/Input.php', 'module', 2]]);
  });

  it('puts build output after every other file of a literal search, however often it holds the text', async () => {
    // rxjs (an agent trial): `search "the"` ranked dist/bundles/rxjs.umd.js.map first.
    const own = new Fixture('literal-built', {
      'dist/bundle.js.map': `{"sourcesContent":["${'the '.repeat(60)}"]}\n`,
      'src/scan.ts': `// Accumulates the values.\n${Array.from({ length: 60 }, (_, i) => `export const value${i} = accumulate(${i});`).join('\n')}\n`,
    });
    await own.index();
    expect((await own.search('"the"')).hits.map((h) => h.path)).toEqual(['src/scan.ts', 'dist/bundle.js.map']);
    // Asked for build output by a file: filter, it is a hit like any other.
    expect((await own.search('"the" file:dist/')).hits.map((h) => h.path)).toEqual(['dist/bundle.js.map']);
  });

  it('ranks the files spelling a compound identifier of a free query above those holding its parts apart', async () => {
    // Django (an agent trial): `search select_related join` ranked first a descriptor file
    // with `related` and `select` apart, and no `select_related`.
    const own = new Fixture('compound-free', {
      'db/related.py': [
        '# Related objects: select the related rows, then join the related tables.',
        'def related_join(rows, select, join):',
        '    related = [r for r in rows if r.related]',
        '    return join(select(related))',
        '',
      ].join('\n'),
      'db/sql/compiler.py': [
        'class SQLCompiler:',
        '    def setup_query(self):',
        '        self.where = None',
        '',
        '    def get_related_selections(self, klass_info, restricted):',
        '        if not self.query.select_related:',
        '            return []',
        '        return self.join_tables(klass_info)',
        '',
        '    def join_tables(self, info):',
        '        return [info]',
        '',
      ].join('\n'),
    });
    await own.index();
    expect((await own.search('select_related join')).hits[0].path).toBe('db/sql/compiler.py');
  });

  it('reads a dotted member name as Owner::name unless a definition is named with the dots', async () => {
    // Django: `search sym:QuerySet.filter` answered 0 hits and no hint (an agent trial).
    const own = new Fixture('sym-dotted', {
      'db/query.py': 'class QuerySet:\n    def filter(self, *args):\n        return self\n',
      'util/ArrayList.java': 'package java.util;\n\npublic class ArrayList {\n}\n',
    });
    await own.index();
    const dotted = (await own.search('sym:QuerySet.filter')).hits;
    expect(dotted.map((h) => [h.path, h.name, h.startLine])).toEqual([['db/query.py', 'QuerySet::filter', 2]]);
    const deeper = (await own.search('sym:models.QuerySet.filter')).hits;
    expect(deeper.map((h) => h.name)).toEqual(['QuerySet::filter']);
    expect((await own.search('sym:java.util')).hits.map((h) => h.kind)).toEqual(['module']);
  });

  it("reads a dotted name whose owner is a module as the name in that module's files", async () => {
    // Neovim: `search sym:vim.lsp.util.make_position_params` answered 0 hits and no hint
    // (an agent trial): the function is `M.make_position_params` of lua/vim/lsp/util.lua.
    const own = new Fixture('sym-module', {
      'lua/vim/lsp/util.lua': 'local M = {}\nfunction M.make_params(w)\n  return w\nend\nreturn M\n',
      'lua/vim/lsp/init.lua': 'local M = {}\nfunction M.start(c)\n  return c\nend\nreturn M\n',
      'lua/vim/other.lua': 'local M = {}\nfunction M.make_params(x)\n  return x\nend\nreturn M\n',
      'pkg/helpers.py': 'def slugify(text):\n    return text\n',
      'pkg/other.py': 'def slugify(text):\n    return text.lower()\n',
    });
    await own.index();
    const where = async (q: string) => (await own.search(q)).hits.map((h) => `${h.path} ${h.name}`);
    expect(await where('sym:vim.lsp.util.make_params')).toEqual(['lua/vim/lsp/util.lua M::make_params']);
    // A directory's own module file (init.lua) is the directory's module.
    expect(await where('sym:vim.lsp.start')).toEqual(['lua/vim/lsp/init.lua M::start']);
    expect(await where('sym:pkg.helpers.slugify')).toEqual(['pkg/helpers.py slugify']);
    // A module that defines no such name: nothing, as before.
    expect(await where('sym:vim.lsp.util.slugify')).toEqual([]);
  });

  it('a definition query with an identifier answers definitions only, never its uses', async () => {
    const hits = (await fx.search('kind:method refill_tokens')).hits;
    expect(hits.map((h) => [h.path, h.kind])).toEqual([['src/token_bucket.rs', 'method']]);
    // Without the kind the uses are hits too.
    expect(await fx.paths('refill_tokens')).toContain('src/limiter.rs');
    // `fn` is Rust's word for a method too (a Rust trial's `kind:fn read_size` found only a test function).
    expect((await fx.search('kind:fn refill_tokens')).hits.map((h) => [h.path, h.kind])).toEqual([
      ['src/token_bucket.rs', 'method'],
    ]);
  });

  it('keeps only members owned by A for sym:A::b and is case-sensitive', async () => {
    expect((await fx.search('sym:TokenBucket::refill_tokens')).hits.map((h) => h.path)).toEqual([
      'src/token_bucket.rs',
    ]);
    expect(await fx.paths('sym:Limiter::refill_tokens')).toEqual([]);
    expect(await fx.paths('sym:tokenbucket')).toEqual([]);
  });
});

describe('a declaration keyword before a name', () => {
  it('asks for the definition of that kind: struct TokenBucket is TokenBucket kind:struct', async () => {
    // Before: free text ranked the files using the name (the C trial's `struct address_space`).
    const hits = (await fx.search('struct TokenBucket')).hits;
    expect(hits.map((h) => [h.path, h.kind, h.name])).toEqual([['src/token_bucket.rs', 'struct', 'TokenBucket']]);
    // Filters stay; a keyword whose kind the name is not defined with stays free text.
    expect(await fx.paths('struct TokenBucket file:tests/')).toEqual([]);
    expect(await fx.paths('class TokenBucket')).toContain('src/limiter.rs');
  });
});

describe('"literal" and re:', () => {
  it('verifies a literal against the live bytes with an exact span', async () => {
    const hits = (await fx.search('"l.b.refill_tokens"')).hits;
    expect(hits.map((h) => h.path)).toEqual(['src/limiter.rs']);
    const b = bytesOf('src/limiter.rs');
    expect(hits[0].start).toBe(b.indexOf('l.b.refill_tokens'));
    expect(hits[0].end - hits[0].start).toBe('l.b.refill_tokens'.length);
    // Words that all occur in one region but not as this exact text are not a literal hit.
    expect(await fx.paths('"tokens mut"')).toEqual([]);
    expect(await fx.paths('"refill_tokens(&mut"')).toEqual(['src/token_bucket.rs']);
  });

  it('matches a literal with a capital as typed (smart case), each hit on that spelling', async () => {
    // Before: "MAX_BODY_SIZE" also listed the file holding only max_body_size parameters.
    const hits = (await fx.search('"MAX_BODY_SIZE"')).hits;
    expect(hits.map((h) => h.path)).toEqual(['conf/defaults.txt']);
    const b = bytesOf('conf/defaults.txt');
    expect(b.subarray(hits[0].start, hits[0].end).toString()).toBe('MAX_BODY_SIZE');
    expect(await fx.paths('"Max_Body_Size"')).toEqual([]);
  });

  it('matches an all-lower-case literal in any case, files that spell it so first', async () => {
    // The parameter file spells it so, and scores higher; the config key's file follows.
    expect(await fx.paths('"max_body_size"')).toEqual(['lib/params.txt', 'conf/defaults.txt']);
  });

  it('gives one line per file with ^/$ at line boundaries and exact spans', async () => {
    const hits = (await fx.search('re:^needle')).hits;
    expect(hits.map((h) => h.path)).toEqual(['notes/multi.txt']);
    const b = bytesOf('notes/multi.txt');
    expect([hits[0].start, hits[0].end, hits[0].startLine]).toEqual([
      b.indexOf('needle one'),
      b.indexOf('needle one') + 10,
      2,
    ]);
    const crlf = (await fx.search('re:Needle')).hits;
    expect(crlf.map((h) => h.path)).toEqual(['notes/crlf.txt']);
    const c = bytesOf('notes/crlf.txt');
    expect(c.subarray(crlf[0].start, crlf[0].end).toString()).toBe('second Needle line');
    expect(await fx.paths('re:two$')).toEqual(['notes/multi.txt']);
    expect(await fx.paths('re:^one')).toEqual([]);
  });

  it('reads code before tests and documents, each in path order', async () => {
    // Before: path order put docs/guide.md first (the kernel's Documentation/ filled a page).
    expect(await fx.paths('re:refill')).toEqual([
      'src/limiter.rs',
      'src/token_bucket.rs',
      'tests/bucket_tests.rs',
      'docs/guide.md',
    ]);
    // A filter to documents leaves them alone, in path order.
    expect(await fx.paths('re:refill source:docs')).toEqual(['docs/guide.md']);
  });

  it('applies file: filters to the live walk', async () => {
    expect(await fx.paths('re:pub fn file:crates/')).toEqual(['crates/a/src/ghost.rs', 'crates/a/src/script/host.rs']);
  });

  it('answers each filter set alike from one long-lived reader as from a fresh one (a reader remembers eligible files per filter set)', async () => {
    const queries = [
      're:pub fn',
      're:pub fn file:crates/',
      're:pub fn lang:rust -file:crates/a/src/ghost.rs',
      '"needle" lang:text',
      're:pub fn',
      're:pub fn -file:src/',
      're:pub fn file:crates/',
      '"needle"',
      're:pub fn source:test',
      're:pub fn',
    ];
    const reader = await fx.open();
    try {
      for (const text of queries) {
        const q = parseQuery(text);
        if (!q.ok) throw new Error(q.error.message);
        const fresh = (await fx.search(text)).hits.map((h) => h.path);
        expect([text, searchIndex(reader, q.value).hits.map((h) => h.path)]).toEqual([text, fresh]);
      }
    } finally {
      reader.close();
    }
  });
});

describe('filters', () => {
  it('kind: keeps definitions of that kind and kind:file lists files', async () => {
    expect((await fx.search('kind:struct')).hits.map((h) => h.name).sort()).toEqual([
      'Limiter',
      'ScriptHost',
      'TokenBucket',
    ]);
    expect(await fx.paths('kind:class file:web/')).toEqual(['web/src/router.ts']);
    const files = (await fx.search('kind:file lang:rust file:src/')).hits;
    expect(files.map((h) => [h.path, h.kind, h.start, h.end])).toEqual([
      ['src/limiter.rs', 'file', 0, bytesOf('src/limiter.rs').length],
      ['src/token_bucket.rs', 'file', 0, bytesOf('src/token_bucket.rs').length],
    ]);
  });

  it('kind: with words no definition names all of answers those naming the most of them, most first', async () => {
    // No function is named match, route and walk at once: matchRoute names two, ghost_walk one.
    const hits = (await fx.search('kind:function match route walk')).hits;
    expect(hits.map((h) => h.name)).toEqual(['matchRoute', 'ghost_walk']);
    // Every word named, as before: only those.
    expect((await fx.search('kind:function match route')).hits.map((h) => h.name)).toEqual(['matchRoute']);
    // Stopwords name nothing alone (`the` is in `gather`).
    expect((await fx.search('kind:function the of')).hits).toEqual([]);
  });

  it('file: values written with and without percent-encoding agree', async () => {
    expect(await fx.paths('naiveValue file:café/')).toEqual(['caf%C3%A9/na%C3%AFve.ts']);
    expect(await fx.paths('naiveValue file:caf%C3%A9/')).toEqual(['caf%C3%A9/na%C3%AFve.ts']);
  });

  it('lists the matching files for filters alone', async () => {
    expect(await fx.paths('file:script/host')).toEqual(['crates/a/src/script/host.rs']);
    expect(await fx.paths('lang:typescript')).toEqual([
      'caf%C3%A9/na%C3%AFve.ts',
      'web/src/router.ts',
      'web/src/router.test.ts',
    ]);
  });

  it('-file: removes matches at component starts', async () => {
    expect(await fx.paths('TokenBucket -file:tests/ -file:docs')).toEqual(['src/token_bucket.rs', 'src/limiter.rs']);
  });
});

describe('filter_diagnosis', () => {
  it('names nearest paths when a file: value matched nothing', async () => {
    const out = await fx.search('TokenBucket file:src/token_buckt.rs');
    expect(out.hits).toEqual([]);
    expect(out.filterDiagnosis!.file).toEqual([
      { value: 'src/token_buckt.rs', matched: 0, nearest: expect.arrayContaining(['src/token_bucket.rs']) },
    ]);
    expect(out.filterDiagnosis!.file![0].nearest!.length).toBeLessThanOrEqual(3);
    expect(out.filterDiagnosis!.combination_only).toBe(false);
  });

  it('says lang:X matched 0 files', async () => {
    const d = (await fx.search('TokenBucket lang:go')).filterDiagnosis!;
    expect(d.lang).toEqual([{ value: 'go', matched: 0 }]);
    expect(d.combination_only).toBe(false);
  });

  it('says when only the combination fails', async () => {
    const d = (await fx.search('ScriptHost file:web/ lang:rust')).filterDiagnosis!;
    expect(d.file).toEqual([{ value: 'web/', matched: 2 }]);
    expect(d.lang).toEqual([{ value: 'rust', matched: 5 }]);
    expect(d.combination_only).toBe(true);
    expect(d.matches_without_filters).toBe(true);
  });

  it('does not blame the combination when the words match nothing anywhere', async () => {
    const d = (await fx.search('zzznothingmatches lang:rust')).filterDiagnosis!;
    expect(d.lang).toEqual([{ value: 'rust', matched: 5 }]);
    expect(d.matches_without_filters).toBe(false);
    expect(d.combination_only).toBe(false);
  });

  it('says when -file: excluded every match', async () => {
    const d = (await fx.search('ghost_walk -file:crates/')).filterDiagnosis!;
    expect(d.excluded_every_match).toEqual(['crates/']);
    const none = (await fx.search('zzzunknown -file:crates/')).filterDiagnosis!;
    expect(none.excluded_every_match).toBeUndefined();
  });

  it('says kind:method finds what an empty kind:function missed, and the reverse', async () => {
    // A Rust or Go method is a `fn`/`func` to its reader (an agent trial on the Go source).
    const d = (await fx.search('refill_tokens kind:function file:src/')).filterDiagnosis!;
    expect(d.kind_instead).toEqual({ value: 'method', hits: 1 });
    const back = (await fx.search('ghost_walk kind:method')).filterDiagnosis!;
    expect(back.kind_instead).toEqual({ value: 'function', hits: 1 });
    expect((await fx.search('zzznothing kind:function')).filterDiagnosis!.kind_instead).toBeUndefined();
  });

  it('counts kind: values', async () => {
    expect((await fx.search('ghost kind:enum')).filterDiagnosis!.kind).toEqual([{ value: 'enum', matched: 0 }]);
  });

  it('is absent when there are hits or no filters', async () => {
    expect((await fx.search('TokenBucket file:src/')).filterDiagnosis).toBeUndefined();
    expect((await fx.search('zzzunknown')).filterDiagnosis).toBeUndefined();
  });
});

describe('definitions of one name in several files', () => {
  // The kernel's kmalloc at include/linux/slab.h:549 came after tools/ stubs defined near
  // their files' tops (an agent trial): where a definition sits in its file decides nothing
  // between files; path order does, after the kind and standing ranks.
  let defs: Fixture;
  beforeAll(async () => {
    const filler = Array.from({ length: 40 }, (_, i) => `int filler_${i}(void) { return ${i}; }\n`).join('');
    defs = new Fixture('search-defs-order', {
      'include/linux/slab.h': `${filler}static inline void *kmalloc(unsigned long size) { return 0; }\n`,
      'tools/virtio/kernel.h': 'static inline void *kmalloc(unsigned long s) { return 0; }\n',
    });
    await defs.index();
  });

  it('ranks them by path, not by their offsets', async () => {
    for (const query of ['kmalloc', 'sym:kmalloc'])
      expect((await defs.search(query)).hits.map((h) => h.path)).toEqual([
        'include/linux/slab.h',
        'tools/virtio/kernel.h',
      ]);
  });
});

describe('build twins', () => {
  // One module built twice (module systems) ranks its copy after every other answer.
  const unpack = (wrapper: string) =>
    `${wrapper}\nfunction unpackEntry(entry) {\n  // write the entry through a temporary name, then rename it into place\n  return renameTemporary(entry);\n}\n`;
  let twins: Fixture;
  beforeAll(async () => {
    twins = new Fixture('search-twins', {
      'pkgs/tar/dist/esm/unpack.js': unpack('export {};'),
      'pkgs/tar/dist/commonjs/unpack.js': unpack('"use strict"; Object.defineProperty(exports, "__esModule");'),
      'pkgs/write-file-atomic/lib/index.js':
        'function writeFile(file) {\n  // a temporary name, then rename\n  return file;\n}\n',
    });
    await twins.index();
  });

  it('keeps one build of a module where it ranks and moves its twin after every other hit', async () => {
    const plain = await twins.paths('write through a temporary name then rename into place');
    expect(plain).toHaveLength(3);
    expect(plain[2]).toMatch(/^pkgs\/tar\/dist\/(esm|commonjs)\/unpack\.js$/);
    expect(plain.slice(0, 2)).toContain('pkgs/write-file-atomic/lib/index.js');
    const sym = await twins.paths('sym:unpackEntry');
    expect(sym).toHaveLength(2);
  });
});
