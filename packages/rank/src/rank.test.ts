import {
  fileStanding,
  filenameEvidence,
  filenameScreenWords,
  moduleNameOf,
  nonCodeSiblingGroup,
  spreadSiblings,
  fuseLanes,
  isGeneratedPath,
  isVendoredPath,
  looksMinified,
  isIdentifierShaped,
  isExamplePath,
  isTestPath,
  isTypeDeclarationPath,
  isDocPath,
  isSecondaryDocument,
  isProjectDocument,
  pathPrior,
  pathStanding,
  priorContext,
  queryWords,
  resolveScopes,
  splitIdentifier,
  RRF_K,
  compoundWords,
  phraseWords,
  isProse,
  standaloneWords,
  isStopword,
} from './index';

describe('identifiers', () => {
  it('splits camel, snake, acronyms and digits', () => {
    expect(splitIdentifier('refillTokens')).toEqual(['refill', 'tokens']);
    expect(splitIdentifier('HTTPServer2')).toEqual(['http', 'server', '2']);
    expect(splitIdentifier('snake_case_name')).toEqual(['snake', 'case', 'name']);
    expect(splitIdentifier('Foo::bar_baz')).toEqual(['foo', 'bar', 'baz']);
    expect(splitIdentifier('café')).toEqual(['café']);
  });
  it('recognises identifier-shaped tokens only', () => {
    for (const t of ['refill_tokens', 'refillTokens', 'Foo::bar', 'utf8', 'h2'])
      expect(isIdentifierShaped(t)).toBe(true);
    for (const t of ['refill', 'Refill', 'HTTP', '42', 'a-b', 'x y']) expect(isIdentifierShaped(t)).toBe(false);
  });
  it('query words are lowercase, expanded and deduplicated', () => {
    expect(queryWords('refillTokens refill  Bucket')).toEqual(['refill', 'tokens', 'bucket']);
  });
  it('a word with digits between letters is a phrase among other words, an identifier alone', () => {
    expect(phraseWords('http2client', ['godebug', 'http2client'])).toEqual(['http', '2', 'client']);
    expect(phraseWords('http2client', ['http2client'])).toBeNull();
    for (const t of ['utf8', 'int32', 'v2', 'x86_64', 'refill']) expect(phraseWords(t, [t, 'x'])).toBeNull();
    expect(phraseWords('x-forwarded-for', ['x-forwarded-for'])).toEqual(['x', 'forwarded', 'for']);
    expect(standaloneWords('godebug http2client')).toEqual(['godebug', 'http', 'client']);
    expect(standaloneWords('http2client')).toEqual(['http', '2', 'client']);
  });

  it('a hyphenated word of a sentence is searched as its words; a name asked for, as its spelling', () => {
    const sentence = 'case-insensitive matching using the simple case mappings of a codepoint'.split(' ');
    expect(isProse(sentence)).toBe(true);
    expect(phraseWords('case-insensitive', sentence)).toBeNull();
    expect(standaloneWords(sentence.join(' '))).toContain('insensitive');
    // Two other words are a name and what is asked of it, not a sentence.
    for (const q of ['user-agent default', 'x-forwarded-for header parsing', 'fetch-retries'])
      expect(phraseWords(q.split(' ')[0], q.split(' '))).not.toBeNull();
    // Stopwords and other compounds do not make a sentence.
    expect(isProse('where is the x-forwarded-for header read'.split(' '))).toBe(false);
    expect(isProse('x-forwarded-for os.path http2client proxy'.split(' '))).toBe(false);
    // Dotted tokens and letters-digits-letters words stay names in a sentence.
    const dotted = 'where does os.path join handle absolute paths'.split(' ');
    expect(phraseWords('os.path', dotted)).toEqual(['os', 'path']);
    const go = 'which godebug setting turns http2client off'.split(' ');
    expect(phraseWords('http2client', go)).toEqual(['http', '2', 'client']);
  });

  it('hyphenated and dotted tokens are compounds whose stopword parts never stand alone', () => {
    expect(compoundWords('x-forwarded-for')).toEqual(['x', 'forwarded', 'for']);
    expect(compoundWords('os.path')).toEqual(['os', 'path']);
    for (const t of ['refill', 'a b', '-x', 'x-', 'x--y', 'refill_tokens', 'Foo::bar'])
      expect(compoundWords(t)).toBeNull();
    expect(standaloneWords('x-forwarded-for')).toEqual(['forwarded']);
    expect(standaloneWords('if-none-match')).toEqual(['none', 'match']);
    expect(standaloneWords('if-else')).toEqual([]);
    // Plain words are the user's own: kept even when common.
    expect(standaloneWords('if x-forwarded-for')).toEqual(['if', 'forwarded']);
    expect(isStopword('x')).toBe(true);
    expect(isStopword('os')).toBe(false);
    // Question words (tokio: `where` clauses answered `where is the budget decremented`).
    expect(['where', 'how', 'what', 'when', 'which', 'who', 'why', 'does'].filter((w) => !isStopword(w))).toEqual([]);
    expect(isStopword('budget')).toBe(false);
  });
});

describe('test paths', () => {
  it.each([
    'tests/a.rs',
    'crates/x/tests/it.rs',
    'src/__tests__/a.ts',
    'spec/a_spec.rb',
    'testdata/x.txt',
    'test/a.js',
    'src/lib_tests.rs',
    'src/tests.rs',
    'a.test.ts',
    'a.spec.js',
    'x_test.go',
    'x_test.py',
    'test_x.py',
    'lib/list_test.c',
    'src/parser_test.cc',
    'base/strings_unittest.cpp',
    'malloc/tst-malloc-usable.c',
    'stdio-common/tst_swprintf.c',
    'string/test-string.h',
    'string/test-strlen.c',
    'net/url_test.cxx',
    'tools/testing/selftests/sched/cs_prctl_test.c',
    'tools/testing/selftests/run.sh',
    'tests/sched.h',
    'Src/Newtonsoft.Json.Tests/Linq/JObjectTests.cs',
    'Src/Newtonsoft.Json.Tests/TestObjects/Person.cs',
    'test/Serilog.Tests.Common/Sink.cs',
    'src/Foo.UnitTests/BarTest.cs',
    'src/Foo.IntegrationTests/Db.cs',
    'Foo.Specs/Steps.cs',
    'UnitTests/Parser.cs',
    'raft/rafttest/node.go',
    'net/http/httptest/server.go',
  ])('%s is a test path', (p) => expect(isTestPath(p)).toBe(true));

  it.each(['example/example.cpp', 'examples/basic.js', 'docs/Examples/run.py', 'pkg/demo/main.go', 'samples/a.cs'])(
    '%s is an example path',
    (p) => expect(isExamplePath(p)).toBe(true),
  );
  it.each(['src/example.ts', 'lib/examples.js', 'sample.c', 'src/sampler/a.rs'])('%s is not an example path', (p) =>
    expect(isExamplePath(p)).toBe(false),
  );
  it.each([
    'src/lib.rs',
    'test/src/main.rs',
    'src/testing.rs',
    'latest/a.rs',
    'contest.py',
    'src/attest.ts',
    'kernel/sched/core.c',
    'include/linux/test.h',
    'lib/test_bpf.h',
    'lib/tstamp.c',
    'src/test-utils.py',
    'src/latest.c',
    'src/protest.cc',
    'src/test.c',
    'Src/Newtonsoft.Json/Linq/JToken.cs',
    'src/Microsoft.Extensions.Testing.Abstractions/a.cs',
    'src/Foo.TestHelpers/a.cs',
    'lib/.tests/a.js',
    'latest/x.go',
    'a/contest/b.go',
    'raft/rafttests/node.go',
  ])('%s is not a test path', (p) => expect(isTestPath(p)).toBe(false));

  // Verdicts are kept per directory: files of one directory can still differ by name, and
  // the order they are asked in changes nothing.
  it('decides files of one directory by their names, in any order', () => {
    const cases: [string, boolean][] = [
      ['pkg/test/src', false],
      ['pkg/test/a.js', true],
      ['pkg/test/src/b.js', false],
      ['pkg/lib/a_test.go', true],
      ['pkg/lib/a.go', false],
    ];
    for (const order of [cases, [...cases].reverse()])
      for (const [p, test] of order) expect([p, isTestPath(p)]).toEqual([p, test]);
  });
});

describe('build output', () => {
  it.each([
    'dist/axios.js',
    'dist/browser/axios.cjs',
    'Dist/x.js',
    'vendor/jquery.min.js',
    'public/app.min.css',
    'dist/axios.min.js.map',
    'lib/app.js.map',
    'build/app.bundle.js',
    'build/legacy/utils.js',
    'build/modern/query.cjs',
    'static/vendor-bundle.mjs',
    'doc/tags',
    'TAGS',
  ])('%s is build output', (p) => expect(isGeneratedPath(p)).toBe(true));
  // A vendored package's dist/ is all the code it ships; a .map elsewhere is no source map.
  it.each([
    'node_modules/lru-cache/dist/commonjs/index.js',
    'lib/dist.js',
    'src/distance.ts',
    'src/build/plan.ts',
    'node_modules/@tanstack/query-core/build/legacy/utils.js',
    'lib/build.js',
    'lib/core/mergeConfig.js',
    'src/map.ts',
    'data/world.map',
    'src/minify.js',
    'dist.txt',
    'src/tags.js',
    'lib/tags/index.ts',
  ])('%s is not build output', (p) => expect(isGeneratedPath(p)).toBe(false));
  it('tells a TypeScript declaration file', () => {
    expect(['index.d.ts', 'types/a.d.mts', 'x.d.cts'].every(isTypeDeclarationPath)).toBe(true);
    expect(['index.ts', 'lib/d.ts', 'a.d.js'].some(isTypeDeclarationPath)).toBe(false);
  });
  it('stands after code and tests', () => {
    expect(['lib/a.js', 'test/a.js', 'dist/a.js'].map(pathStanding)).toEqual([0, 1, 2]);
  });
  it('stands a file of long lines with build output whatever its name', () => {
    expect(fileStanding({ path: 'lib/index.cjs', size: 62_000, lines: 1 })).toBe(2);
    expect(fileStanding({ path: 'lib/a.js', size: 40_000, lines: 1_000 })).toBe(0);
    expect(fileStanding({ path: 'test/a.js', size: 400, lines: 1 })).toBe(1);
    expect([looksMinified(401, 1), looksMinified(400, 1), looksMinified(0, 0)]).toEqual([true, false, false]);
  });
  it('tells vendored dependencies at any depth, not a file named like one', () => {
    expect(
      [
        'node_modules/qs/lib/parse.js',
        'a/vendor/b.go',
        'third_party/x/y.c',
        'deps/hiredis/dict.c',
        '3rdparty/z.h',
      ].every(isVendoredPath),
    ).toBe(true);
    expect(['lib/node_modules.js', 'vendor.go', 'src/vendors/x.ts'].some(isVendoredPath)).toBe(false);
  });
});

describe('path prior', () => {
  it('demotes build output unless the query names it, even when its name holds every word', () => {
    const ctx = priorContext({ fileFilters: [], languages: [], kindFile: false, identifier: false, words: ['axios'] });
    expect(pathPrior('dist/axios.js', ctx)).toBe(0.7);
    expect(pathPrior('lib/axios.js', ctx)).toBe(1);
    expect(
      pathPrior(
        'dist/axios.js',
        priorContext({ fileFilters: [], languages: [], kindFile: false, identifier: false, words: ['axios', 'dist'] }),
      ),
    ).toBe(1);
    expect(
      pathPrior(
        'dist/axios.js',
        priorContext({ fileFilters: ['dist/'], languages: [], kindFile: false, identifier: false, words: ['axios'] }),
      ),
    ).toBe(1);
  });
  const base = { fileFilters: [], languages: [], kindFile: false, identifier: false };
  it('demotes tests and markdown unless the query names them', () => {
    const ctx = priorContext({ ...base, words: ['bucket'] });
    expect(pathPrior('tests/bucket_it.rs', ctx)).toBe(1); // basename holds every term
    expect(pathPrior('tests/it.rs', ctx)).toBe(0.7);
    expect(pathPrior('README.md', ctx)).toBe(0.7);
    expect(pathPrior('src/lib.rs', ctx)).toBe(1);
    const t = priorContext({ ...base, words: ['bucket', 'tests'] });
    expect(pathPrior('tests/it.rs', t)).toBe(1);
    expect(pathPrior('README.md', t)).toBe(0.7);
    const d = priorContext({ ...base, words: ['bucket'], languages: ['text'] });
    expect(pathPrior('README.md', d)).toBe(1);
    const f = priorContext({ ...base, words: ['bucket'], fileFilters: ['crates/x/tests/'] });
    expect(pathPrior('crates/x/tests/it.rs', f)).toBe(1);
    const k = priorContext({ ...base, words: ['bucket'], kindFile: true });
    expect(pathPrior('tests/it.rs', k)).toBe(1);
  });
  it('demotes example programs like tests unless the query or a file: filter names examples', () => {
    const ctx = priorContext({ ...base, words: ['retry', 'backoff'] });
    expect(pathPrior('node_modules/retry/example/stop.js', ctx)).toBe(0.7);
    expect(pathPrior('docs/examples/basic.py', ctx)).toBe(0.7);
    expect(pathPrior('node_modules/retry/lib/retry.js', ctx)).toBe(1);
    expect(pathPrior('src/example.rs', ctx)).toBe(1); // a file named so is not an example directory
    expect(pathPrior('example/stop.js', priorContext({ ...base, words: ['retry', 'example'] }))).toBe(1);
    expect(pathPrior('demos/x/stop.js', priorContext({ ...base, words: ['retry'], fileFilters: ['demos/'] }))).toBe(1);
    expect(pathPrior('example/stop.js', priorContext({ ...base, words: ['retry'], kindFile: true }))).toBe(1);
  });
  it('demotes manual pages and the HTML pages of a docs directory like Markdown; not manuals written as text, nor HTML templates, nor versioned names', () => {
    const ctx = priorContext({ ...base, words: ['suggest', 'command'] });
    for (const doc of [
      'man/man1/npm-exec.1',
      'turbostat.8',
      'ssl/man/openssl.1ssl',
      'docs/output/commands/npm-exec.html',
      'doc/api/index.htm',
    ])
      expect([doc, pathPrior(doc, ctx), isDocPath(doc), isSecondaryDocument(doc)]).toEqual([doc, 0.7, true, true]);
    for (const other of [
      'Documentation/core-api/kref.rst',
      'ld/ld.texi',
      'CMakeLists.txt',
      'templates/index.html',
      'src/v1.2',
      'lib/python3.8',
      'lib/x.10',
    ])
      expect([other, pathPrior(other, ctx)]).toEqual([other, 1]);
  });
  it('demotes project documents (ChangeLogs, NEWS) like Markdown, not license texts, and not code that shares their names in lower case', () => {
    const ctx = priorContext({ ...base, words: ['linker', 'script'] });
    for (const doc of ['ld/ChangeLog-2015', 'ChangeLog', 'gas/NEWS', 'README', 'MAINTAINERS', 'ChangeLog.jit'])
      expect([doc, pathPrior(doc, ctx), isDocPath(doc), isProjectDocument(doc)]).toEqual([doc, 0.7, true, true]);
    for (const code of [
      'src/history.ts',
      'install.py',
      'lib/license.js',
      'src/changelog.rs',
      'NEWSLETTER.c',
      'LICENSE',
      'COPYING3',
    ])
      expect([code, pathPrior(code, ctx), isProjectDocument(code)]).toEqual([code, 1, false]);
  });
  it('identifier queries do not get the basename exemption', () => {
    const ctx = priorContext({ ...base, words: ['bucket'], identifier: true });
    expect(pathPrior('tests/bucket.rs', ctx)).toBe(0.7);
  });
});

describe('fusion', () => {
  const e = (path: string, start = 0) => ({ path, start, end: start + 1, payload: path });
  it('sums reciprocal ranks with weights and takes the representative from the earliest lane', () => {
    const fused = fuseLanes([
      { name: 'defs', weight: 3, entries: [e('b.rs', 10)] },
      { name: 'any', weight: 1, entries: [e('a.rs'), e('b.rs', 99)] },
    ]);
    expect(fused.map((f) => f.path)).toEqual(['b.rs', 'a.rs']);
    expect(fused[0].score).toBeCloseTo(3 / (RRF_K + 1) + 1 / (RRF_K + 2));
    expect(fused[0].lane).toBe('defs');
    expect(fused[0].representative.start).toBe(10);
  });
  it('breaks ties by path then span, and tiers beat scores', () => {
    const fused = fuseLanes([
      { name: 'x', weight: 1, entries: [e('z.rs')] },
      { name: 'y', weight: 1, entries: [e('a.rs')] },
    ]);
    expect(fused.map((f) => f.path)).toEqual(['a.rs', 'z.rs']);
    const tiered = fuseLanes([{ name: 'x', weight: 1, entries: [e('a.rs'), e('z.rs')] }], {
      tierOf: (p) => (p === 'z.rs' ? 0 : 1),
    });
    expect(tiered.map((f) => f.path)).toEqual(['z.rs', 'a.rs']);
  });
  it('applies the prior to every contribution', () => {
    const fused = fuseLanes([{ name: 'x', weight: 1, entries: [e('tests/a.rs'), e('src/b.rs')] }], {
      prior: (p) => (p.startsWith('tests/') ? 0.7 : 1),
    });
    expect(fused[0].path).toBe('src/b.rs');
  });
});

describe('moduleNameOf', () => {
  it('is the stem, or the directory for a file that stands for it', () => {
    expect(moduleNameOf('lua/vim/lsp/util.lua')).toBe('util');
    expect(moduleNameOf('lua/vim/lsp/init.lua')).toBe('lsp');
    expect(moduleNameOf('src/runtime/mod.rs')).toBe('runtime');
    expect(moduleNameOf('django/db/__init__.py')).toBe('db');
    expect(moduleNameOf('lib/index.d.ts')).toBe('lib');
    // Only Lua's init stands for its directory.
    expect(moduleNameOf('cmd/init.go')).toBe('init');
  });
});

describe('filename evidence', () => {
  it('grades exact stems, all terms and partial matches', () => {
    expect(filenameEvidence('src/token_bucket.rs', 'TokenBucket', ['token', 'bucket'])).toBe(2);
    expect(filenameEvidence('src/bucket_token_impl.rs', 'token bucket', ['token', 'bucket'])).toBe(1);
    expect(filenameEvidence('bucket/x.rs', 'token bucket', ['token', 'bucket'])).toBe(0.5);
    expect(filenameEvidence('src/x.rs', 'token bucket', ['token', 'bucket'])).toBe(0);
  });

  it('takes a stem spelling consecutive query words together for the exact stem', () => {
    const words = ['suggest', 'did', 'you', 'mean', 'for', 'misspelled', 'name'];
    const query = words.join(' ');
    expect(filenameEvidence('hclsyntax/didyoumean.go', query, words)).toBe(2);
    expect(filenameEvidence('src/misspelled_name.rs', query, words)).toBe(2);
    // Not consecutive, not in order, or stopwords alone: no run.
    expect(filenameEvidence('src/suggestname.rs', query, words)).toBe(0);
    expect(filenameEvidence('src/meanyou.rs', query, words)).toBe(0);
    expect(filenameEvidence('src/forthe.rs', 'for the name', ['for', 'the', 'name'])).toBe(0);
  });

  it('takes a stopword naming a path for evidence only when the query has no other word', () => {
    const words = ['handle', 'an', 'interrupt'];
    expect(filenameEvidence('drivers/an/x.c', 'handle an interrupt', words)).toBe(0);
    expect(filenameEvidence('drivers/irq/interrupt.c', 'handle an interrupt', words)).toBe(0.5);
    expect(filenameEvidence('docs/the/a.md', 'the a', ['the', 'a'])).toBeGreaterThan(0);
    // The words a path must spell for any evidence: what a reader screens its paths with.
    expect(filenameScreenWords(words)).toEqual(['handle', 'interrupt']);
    expect(filenameScreenWords(['the', 'a'])).toEqual(['the', 'a']);
  });
});

describe('resolveScopes', () => {
  it.each([
    [['source:docs'], [[], ['source:docs']]],
    [['source:code'], [[], ['source:code']]],
    [
      ['source:config', 'source:test'],
      [[], ['source:config'], ['source:test']],
    ],
    [[], [[]]],
  ])('per_source %j', (tags, want) => expect(resolveScopes(tags, 'per_source')).toEqual(want));
  it('is independent of tag order and ignores volatile tags', () => {
    const a = resolveScopes(['source:test', 'lang:rust', 'source:config', 'member:x', 'session:1'], 'per_source');
    const b = resolveScopes(['session:1', 'source:config', 'member:x', 'source:test', 'lang:rust'], 'per_source');
    expect(a).toEqual(b);
    expect(a).toEqual([[], ['source:config'], ['source:test']]);
  });
  it('shared is the global scope only', () => expect(resolveScopes(['source:code'], 'shared')).toEqual([[]]));
  it('applies explicit scopes only to documents carrying their tags', () => {
    const list = [[], ['source:code'], ['source:docs'], ['lang:rust']];
    expect(resolveScopes(['source:code', 'lang:rust'], list)).toEqual([[], ['source:code']]);
    expect(resolveScopes([], list)).toEqual([[]]);
  });
  it('applies a multi-tag scope only to documents carrying every one of its tags', () => {
    const list = [[], ['source:test', 'source:config']];
    expect(resolveScopes(['source:config', 'source:test'], list)).toEqual([[], ['source:config', 'source:test']]);
    expect(resolveScopes(['source:config'], list)).toEqual([[]]);
  });
  it('falls back to the global scope when no listed scope applies (untagged documents included)', () => {
    expect(resolveScopes([], [['source:code']])).toEqual([[]]);
    expect(resolveScopes(['source:docs'], [['source:code']])).toEqual([[]]);
    expect(resolveScopes([], 'per_source')).toEqual([[]]);
  });
  it('never makes a scope of a volatile tag, alone or beside a source tag', () => {
    const list = [[], ['session:42'], ['member:api'], ['lang:rust'], ['source:code', 'lang:rust']];
    expect(resolveScopes(['source:code', 'lang:rust', 'member:api', 'session:42'], list)).toEqual([[]]);
    expect(resolveScopes(['session:42', 'member:api', 'lang:rust', 'source:'], 'per_source')).toEqual([[]]);
  });
  it('depends on the set of tags only: duplicates and order change nothing under every mode', () => {
    const list = [['source:test'], [], ['source:config']];
    for (const mode of ['shared', 'per_source', list] as const) {
      expect(resolveScopes(['source:test', 'source:config', 'source:test'], mode)).toEqual(
        resolveScopes(['source:config', 'source:test'], mode),
      );
    }
    expect(resolveScopes(['source:config', 'source:test'], list)).toEqual([['source:test'], [], ['source:config']]);
  });
  it('gives commit messages their own scope under per_source', () => {
    expect(resolveScopes(['source:git-log'], 'per_source')).toEqual([[], ['source:git-log']]);
  });
});

describe('sibling spreading', () => {
  const group = (p: string) =>
    nonCodeSiblingGroup(
      p,
      p.endsWith('.json') ? ['source:config'] : p.endsWith('.md') ? ['source:docs'] : ['source:code'],
    );
  it('moves the third and later look-alike documents of one directory after the rest, keeping every item', () => {
    const ranked = [
      'locales/en.json',
      'locales/ja.json',
      'locales/fr.json',
      'lib/a.js',
      'locales/de.json',
      'docs/x.md',
      'lib/b.js',
    ];
    expect(spreadSiblings(ranked, group)).toEqual([
      'locales/en.json',
      'locales/ja.json',
      'lib/a.js',
      'docs/x.md',
      'lib/b.js',
      'locales/fr.json',
      'locales/de.json',
    ]);
  });
  it('never groups code, nor files of another extension or directory', () => {
    expect(group('lib/a.js')).toBeUndefined();
    expect(group('locales/en.json')).toBe('locales/*.json');
    expect(group('locales/sub/en.json')).toBe('locales/sub/*.json');
    const code = ['lib/a.js', 'lib/b.js', 'lib/c.js', 'lib/d.js'];
    expect(spreadSiblings(code, group)).toEqual(code);
  });
});
