import { createPathMatcher, parseQuery, type ParsedQuery } from '../src';

function parsed(q: string | readonly string[]): ParsedQuery {
  const out = parseQuery(q);
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.value;
}

function errorCode(q: string): string {
  const out = parseQuery(q);
  return out.ok ? 'ok' : out.error.code;
}

describe('parseQuery', () => {
  it('recognises the query forms', () => {
    expect(parsed('refill tokens')).toMatchObject({
      mode: 'free',
      text: 'refill tokens',
      words: ['refill', 'tokens'],
      identifier: false,
    });
    expect(parsed('refillTokens')).toMatchObject({ mode: 'free', identifier: true, words: ['refill', 'tokens'] });
    expect(parsed('"a b"')).toMatchObject({ mode: 'literal', text: 'a b' });
    // Single quotes around the whole query make a literal too; inside a query they are text.
    expect(parsed("'-O'")).toMatchObject({ mode: 'literal', text: '-O' });
    expect(parsed(["'use", "strict'"])).toMatchObject({ mode: 'literal', text: 'use strict' });
    expect(parsed("it's fine")).toMatchObject({ mode: 'free' });
    expect(parsed("'a")).toMatchObject({ mode: 'free' });
    expect(parsed('sym:TokenBucket::refill file:src/')).toMatchObject({
      mode: 'sym',
      text: 'TokenBucket::refill',
      fileInclude: ['src/'],
    });
    expect(parsed('re:fn\\s+main lang:rs')).toMatchObject({ mode: 're', text: 'fn\\s+main', languages: ['rust'] });
    expect(parsed(['sym:X', 'kind:Struct', '-file:./tests/'])).toMatchObject({
      kinds: ['struct'],
      fileExclude: ['tests/'],
    });
  });

  it('keeps quotes inside a regular expression in place', () => {
    expect(parsed('re:say\\("hi there"\\)').text).toBe('say\\("hi there"\\)');
    // A quote nothing closes stays where it is, never split off with a space before it.
    expect(parsed('re:pr_err\\("').text).toBe('pr_err\\("');
    expect(parsed(['re:printk\\("', 'lang:c']).text).toBe('printk\\("');
  });

  it('reports bad regexes, unknown languages and kinds with stable codes', () => {
    expect(errorCode('re:(')).toBe('bad_regex');
    expect(errorCode('re:')).toBe('bad_regex');
    expect(errorCode('x lang:klingon')).toBe('unknown_language');
    expect(errorCode('x kind:gizmo')).toBe('unknown_kind');
    expect(errorCode('x kind:constructor')).toBe('unknown_kind');
    expect(errorCode('x lang:constructor')).toBe('unknown_language');
    // `fn` is a function or a method (Rust's and Go's word for both); `function` is one kind.
    expect(parsed(['x', 'kind:fn', 'kind:union', 'kind:typedef'])).toMatchObject({
      kinds: ['function', 'method', 'struct', 'type'],
    });
    expect(parsed(['x', 'kind:function'])).toMatchObject({ kinds: ['function'] });
    expect(errorCode('sym:a b')).toBe('bad_query');
    expect(errorCode('sym:operatorx y')).toBe('bad_query');
    expect(parseQuery('sym:select -kind:method')).toMatchObject({
      ok: false,
      error: { code: 'bad_query', message: expect.stringContaining('only file: and source: have a negated form') },
    });
    expect(errorCode('x -lang:py')).toBe('bad_query');
    // A filter typed under another name is said, not searched as words (a JDK trial's
    // `path:java.base/java/util/concurrent sym:size` answered hits in Vector.java).
    expect(parseQuery('path:java/util/concurrent sym:size')).toMatchObject({
      ok: false,
      error: {
        code: 'bad_query',
        message: expect.stringContaining('path: is no filter and would be searched as words; use file:P'),
      },
    });
    expect(parseQuery('sym:size -dir:tests')).toMatchObject({
      error: { message: expect.stringContaining('use -file:P') },
    });
    expect(parseQuery('x language:java')).toMatchObject({ error: { message: expect.stringContaining('use lang:L') } });
    expect(parseQuery('x origin:docs')).toMatchObject({ error: { message: expect.stringContaining('use source:S') } });
    // Quoted, a re: pattern's, without a value or a double colon, it stays text.
    expect(parsed('"path:foo"')).toMatchObject({ mode: 'literal', text: 'path:foo' });
    expect(parsed('re:path:\\w+ dir:x')).toMatchObject({ mode: 're' });
    expect(parsed('path: separator')).toMatchObject({ mode: 'free' });
    expect(parsed('sym:path::join')).toMatchObject({ mode: 'sym', text: 'path::join' });
    expect(parsed('path::PathBuf')).toMatchObject({ mode: 'free', text: 'path::PathBuf' });
    // An overloaded operator is one name however it is spaced, in the spelling its definition has.
    expect(parsed(['sym:Handle::operator', 'bool', 'kind:method'])).toMatchObject({
      mode: 'sym',
      text: 'Handle::operator bool',
      kinds: ['method'],
    });
    expect(parsed('sym:operator ==')).toMatchObject({ text: 'operator==' });
    expect(parsed('sym:A::operator const char *')).toMatchObject({ text: 'A::operator const char*' });
    expect(errorCode('')).toBe('bad_query');
    expect(errorCode('ws:elsewhere')).toBe('bad_query');
    // kind: on a line match would be dropped without a word.
    expect(errorCode('kind:constant re:struct \\w+_operations')).toBe('bad_query');
    expect(errorCode('"engine-strict" kind:function')).toBe('bad_query');
    expect(parsed('re:struct \\w+ file:fs/')).toMatchObject({ mode: 're', kinds: [] });
  });

  it('maps language aliases case-insensitively and ignores an empty lang:', () => {
    const langs = (v: string) => parsed(`x lang:${v}`).languages;
    expect(langs('RS')).toEqual(['rust']);
    expect(langs('ts')).toEqual(['typescript']);
    expect(langs('js')).toEqual(['javascript']);
    expect(langs('c#')).toEqual(['csharp']);
    expect(langs('py')).toEqual(['python']);
    expect(langs('lua')).toEqual(['luau']);
    expect(langs('dm')).toEqual(['dreammaker']);
    for (const t of ['md', 'markdown', 'toml', 'json', 'Text']) expect(langs(t)).toEqual(['text']);
    expect(langs('')).toEqual([]);
  });

  it('normalises file: values to the percent-encoded path form', () => {
    expect(parsed('x file:café/').fileInclude).toEqual(['caf%C3%A9/']);
    expect(parsed('x file:caf%C3%A9/').fileInclude).toEqual(['caf%C3%A9/']);
    expect(parsed('x file:caf%c3%a9/').fileInclude).toEqual(['caf%C3%A9/']);
    expect(parsed('x file:50%').fileInclude).toEqual(['50%25']);
    expect(parsed('x -file:a b file:c').fileExclude).toEqual(['a']);
  });
});

describe('path matcher (docs/spec/retrieval.md §1)', () => {
  const paths = [
    'crates/a/src/script/host.rs',
    'crates/a/src/ghost.rs',
    'crates/a/src/script/hostile.rs',
    'src/lib.rs',
    'src/library/mod.rs',
    'vendor/src/lib.rs',
    'tests/lib_test.rs',
    'caf%C3%A9/x.ts',
  ];
  const keep = (include: string[], exclude: string[] = []) => {
    const m = createPathMatcher(include, exclude, paths);
    return paths.filter((p) => m(p));
  };

  it('matches a value at a path component start, never inside a component', () => {
    expect(keep(['script/host'])).toEqual(['crates/a/src/script/host.rs', 'crates/a/src/script/hostile.rs']);
    expect(keep(['host.rs'])).toEqual(['crates/a/src/script/host.rs']);
    expect(keep(['ost.rs'])).toEqual([]);
    expect(keep(['ghost'])).toEqual(['crates/a/src/ghost.rs']);
  });

  it('uses prefix mode when some path continues the value at /, . or its end', () => {
    expect(keep(['src/'])).toEqual(['src/lib.rs', 'src/library/mod.rs']);
    expect(keep(['src/lib'])).toEqual(['src/lib.rs', 'src/library/mod.rs']);
    expect(keep(['a/src/'])).toEqual([
      'crates/a/src/script/host.rs',
      'crates/a/src/ghost.rs',
      'crates/a/src/script/hostile.rs',
    ]);
    expect(keep(['src/lib.rs'])).toEqual(['src/lib.rs']);
  });

  it('ORs repeated file: values and excludes -file: matches at any component start', () => {
    expect(keep(['src/', 'tests/'])).toEqual(['src/lib.rs', 'src/library/mod.rs', 'tests/lib_test.rs']);
    expect(keep([], ['src'])).toEqual(['tests/lib_test.rs', 'caf%C3%A9/x.ts']);
    expect(keep(['src/'], ['library'])).toEqual(['src/lib.rs']);
    expect(createPathMatcher(['script/', 'nothing/'], [], paths).includeCounts).toEqual([2, 0]);
  });

  it('-file: falls back to a substring when no component starts with the value, never when one does', () => {
    expect(keep([], ['_test'])).toEqual(paths.filter((p) => p !== 'tests/lib_test.rs'));
    // `ost` starts no component: every path holding it goes.
    expect(keep([], ['ost'])).toEqual(paths.filter((p) => !p.includes('ost')));
    // `host` starts components: `ghost.rs` stays.
    expect(keep([], ['host'])).toEqual(paths.filter((p) => !p.includes('/host')));
  });

  it('reads a value with * or ? as a glob from a component start to the end or a /', () => {
    expect(keep([], ['*_test.rs'])).toEqual(paths.filter((p) => p !== 'tests/lib_test.rs'));
    expect(keep(['*_test.rs'])).toEqual(['tests/lib_test.rs']);
    expect(keep(['crates/*/src'])).toEqual([
      'crates/a/src/script/host.rs',
      'crates/a/src/ghost.rs',
      'crates/a/src/script/hostile.rs',
    ]);
    // `*` stays inside a component, `**` crosses them.
    expect(keep(['src/*.rs'])).toEqual(['crates/a/src/ghost.rs', 'src/lib.rs', 'vendor/src/lib.rs']);
    // Every .rs file under a `src` component, at any depth below it.
    expect(keep(['src/**/*.rs'])).toEqual(paths.filter((p) => /(^|\/)src\/.*\.rs$/.test(p)));
    expect(keep(['src/**/*.rs'])).toHaveLength(6);
    expect(keep(['s?c/lib.rs'])).toEqual(['src/lib.rs', 'vendor/src/lib.rs']);
    // Regular-expression characters in a glob are literal.
    expect(keep(['caf%C3%A9/*.ts'])).toEqual(['caf%C3%A9/x.ts']);
    expect(createPathMatcher(['*.nothing'], [], paths).includeCounts).toEqual([0]);
  });
});
