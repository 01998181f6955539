import { isIdentifierShaped, phraseWords, queryWords, standaloneWords } from '@trufflepig/rank';
import { canonicalQueryLanguage, QUERY_LANGUAGES, type QueryLanguage } from '../classify';
import { fail, ok, type Outcome } from '../errors';
import { QUERY_MAX_TERMS, QUERY_MAX_WORDS, QUERY_WORD_MAX_CHARS } from '../limits';
import { normalizeEncodedPath } from '@trufflepig/base';
import { quoteInput } from '../quote';
import { compileRegex } from './regex-engine';
import { operatorName } from '../extract/lang/operator-name';

export const QUERY_KINDS = [
  'function',
  'method',
  'class',
  'struct',
  'enum',
  'trait',
  'interface',
  'type',
  'constant',
  'variable',
  'module',
  'field',
  'variant',
  'property',
  'macro',
  'prototype',
  'extern',
  'file',
] as const;

/**
 * Other spellings of kinds: the names languages give them (a C `union` is stored as a
 * struct, a C++ `namespace` as a module, a `typedef` as a type). `fn` and `func` are what
 * Rust and Go write before functions and methods alike: `kind:fn read_size` found a test
 * function and not the method `ChunkedState::read_size` (a Rust trial); `kind:function`
 * keeps to free functions.
 */
const KIND_ALIASES: ReadonlyMap<string, readonly (typeof QUERY_KINDS)[number][]> = new Map([
  ['fn', ['function', 'method']],
  ['func', ['function', 'method']],
  ['union', ['struct']],
  ['namespace', ['module']],
  ['typedef', ['type']],
]);

export type QueryMode = 'free' | 'literal' | 'sym' | 're';

export interface ParsedQuery {
  /** The query as typed: its words joined by single spaces (a result set's `query`). */
  readonly input: string;
  readonly mode: QueryMode;
  /** Free text, literal content, symbol name (`A::b` kept whole) or regex source. */
  readonly text: string;
  /** Lowercase search words of the text. */
  readonly words: readonly string[];
  /** A single identifier-shaped token (identifier lanes and tiers apply). */
  readonly identifier: boolean;
  /** Free text: the words of each hyphenated or dotted token (`x-forwarded-for`), each searched as a phrase. */
  readonly phrases?: readonly (readonly string[])[];
  /** Free text: the words that may match alone (a compound's stopword parts never do). */
  readonly standalone?: readonly string[];
  readonly fileInclude: readonly string[];
  readonly fileExclude: readonly string[];
  readonly languages: readonly QueryLanguage[];
  readonly kinds: readonly string[];
  readonly sources: readonly string[];
  readonly sourceExclude: readonly string[];
  readonly members: readonly string[];
  readonly workspace: 'home' | 'all' | null;
}

/**
 * The definition kinds a query asks for (`kind:fn`, `kind:class`): its kinds but `file`,
 * which asks for whole files. A query with any is a definition query: its hits span whole
 * definitions, and the line naming one is its evidence.
 */
export function definitionKinds(q: Pick<ParsedQuery, 'kinds'>): string[] {
  return q.kinds.filter((k) => k !== 'file');
}

/**
 * The word a query spells as one identifier-shaped token with a capital or a compound
 * (`Session`, `parse_config`), or the name a `sym:` query asks for (`sym:Flask::Request`:
 * `Request`), whose exact spelling a hit's best line should hold; undefined for other
 * queries and for a lowercase plain word, which is how prose is typed.
 */
export function spelledWord(q: Pick<ParsedQuery, 'mode' | 'text' | 'identifier'>): string | undefined {
  const identifier = (w: string) => /^[A-Za-z_$][\w$]*$/.test(w);
  if (q.mode === 'sym') {
    const name = q.text.split(/::|\./).pop() ?? '';
    return identifier(name) ? name : undefined;
  }
  if (q.mode !== 'free' || !identifier(q.text)) return undefined;
  return q.identifier || /[A-Z]/.test(q.text) ? q.text : undefined;
}

/** Keys that stay filters after the text has begun (and after a `re:` or `sym:`). */
const FILTER_KEYS: readonly string[] = ['file', '-file', 'lang', 'kind', 'source', '-source', 'in', 'ws'];

/**
 * Keys an agent types for a filter that has another name, and the filter to use: searched
 * as words they matched anything (`path:java.base/java/util/concurrent sym:size` answered
 * `size` hits in Vector.java and JarFile.java with `coverage: complete`, a JDK trial).
 */
const MISTAKEN_FILTERS: ReadonlyMap<string, string> = new Map([
  ...['path', 'dir', 'directory', 'folder', 'filename', 'ext', 'extension', 'glob'].map(
    (k) => [k, 'file:P (a path, a directory prefix or a glob: file:src/, file:*.java)'] as const,
  ),
  ...['language', 'filetype'].map((k) => [k, 'lang:L (lang:java, lang:py)'] as const),
  ...['origin', 'scope'].map((k) => [k, 'source:S (source:code, source:docs)'] as const),
  ...['member', 'repo'].map((k) => [k, 'in:M (a workspace member)'] as const),
]);

type FilterFields = Pick<
  ParsedQuery,
  'fileInclude' | 'fileExclude' | 'languages' | 'kinds' | 'sources' | 'sourceExclude'
>;

export function hasFilters(q: FilterFields): boolean {
  return (
    q.fileInclude.length +
      q.fileExclude.length +
      q.languages.length +
      q.kinds.length +
      q.sources.length +
      q.sourceExclude.length >
    0
  );
}

/**
 * Split on whitespace, keeping double-quoted runs (quotes included) together with the
 * text they touch, so `re:say\("hi there"\)` stays one token. A quote that no later quote
 * closes is an ordinary character: `re:pr_err\("` is one token, never `pr_err\(` and `"`
 * (which a pattern would read with a space between).
 */
function tokenize(text: string): string[] {
  return text.match(/(?:"[^"]*"|[^\s"]|"(?![^"]*"))+/g) ?? [];
}

/** A `sym:` name that is an overloaded operator, its owner path apart: `Handle::` and `operator bool`. */
const SYM_OPERATOR = /^((?:[^\s:]+::)*)(operator(?![\w$]).*)$/;

/** A MISTAKEN_FILTERS suggestion for `key`, negated when `key` is and the filter has a negated form. */
function negatable(key: string, suggestion: string): string {
  return key.startsWith('-') && FILTER_KEYS.includes(`-${suggestion.split(':')[0]}`) ? `-${suggestion}` : suggestion;
}

/** Parse the words after the verb (docs/spec/retrieval.md §1). */
export function parseQuery(input: string | readonly string[]): Outcome<ParsedQuery> {
  const raw = typeof input === 'string' ? input : input.join(' ');
  const fileInclude: string[] = [];
  const fileExclude: string[] = [];
  const languages: QueryLanguage[] = [];
  const kinds: string[] = [];
  const sources: string[] = [];
  const sourceExclude: string[] = [];
  const members: string[] = [];
  let workspace: 'home' | 'all' | null = null;
  let mode: QueryMode = 'free';
  const rest: string[] = [];
  const tokens = tokenize(raw.trim());
  let terms = 0;
  for (const tok of tokens) {
    const colon = tok.indexOf(':');
    const key = colon > 0 ? tok.slice(0, colon) : '';
    const value = colon > 0 ? tok.slice(colon + 1) : '';
    // Bound every word and filter value before it reaches SQL. A re: pattern (its first
    // token and every later one but filters) is left to the regex rules below.
    if (!(mode === 're' && !FILTER_KEYS.includes(key))) {
      if (++terms > QUERY_MAX_TERMS)
        return fail('bad_query', `the query has more than ${QUERY_MAX_TERMS} words and filters; search with fewer`);
      const checked = key === 're' ? '' : FILTER_KEYS.includes(key) || key === 'sym' ? value : tok;
      if (checked.length > QUERY_WORD_MAX_CHARS) {
        return fail(
          'bad_query',
          `${quoteInput(tok)} is over the ${QUERY_WORD_MAX_CHARS}-character limit of one query word, phrase or filter value; search with a shorter one`,
        );
      }
    }
    // `-kind:` or `-lang:` would be read as a word (after `sym:`, as part of the name): say
    // which filters have a negated form (an MCP trial's `sym:select -kind:method` was told
    // "sym: takes one name").
    if (key.startsWith('-') && !FILTER_KEYS.includes(key) && FILTER_KEYS.includes(key.slice(1)))
      return fail(
        'bad_query',
        `${quoteInput(tok)}: ${key}: is no filter; only file: and source: have a negated form (-file:, -source:); choose with ${key.slice(1)}: instead`,
      );
    // `path::Path` is a Rust path, not a filter.
    const mistaken =
      value && !value.startsWith(':') && mode !== 're'
        ? MISTAKEN_FILTERS.get(key.replace(/^-/, '').toLowerCase())
        : undefined;
    if (mistaken)
      return fail(
        'bad_query',
        `${quoteInput(tok)}: ${key}: is no filter and would be searched as words; use ${negatable(key, mistaken)}, or quote the text to search for it ("${tok.replace(/"/g, '')}")`,
      );
    if (mode !== 'free' || rest.length > 0) {
      if (!FILTER_KEYS.includes(key)) {
        rest.push(tok);
        continue;
      }
    }
    switch (key) {
      case 'file':
        if (value) fileInclude.push(normalizeEncodedPath(value.replace(/^\.\//, '')));
        break;
      case '-file':
        if (value) fileExclude.push(normalizeEncodedPath(value.replace(/^\.\//, '')));
        break;
      case 'lang': {
        if (!value) break;
        const lang = canonicalQueryLanguage(value);
        if (!lang)
          return fail(
            'unknown_language',
            `unknown language lang:${quoteInput(value)}; use one of ${QUERY_LANGUAGES.join(' ')} (aliases rs ts js cs c# lua dm py golang h cc cxx hpp c++ md toml json)`,
          );
        if (!languages.includes(lang)) languages.push(lang);
        break;
      }
      case 'kind': {
        if (!value) break;
        const asked = KIND_ALIASES.get(value.toLowerCase()) ?? [value.toLowerCase()];
        if (!asked.every((kind) => (QUERY_KINDS as readonly string[]).includes(kind)))
          return fail(
            'unknown_kind',
            `unknown kind:${quoteInput(value)}; use one of ${QUERY_KINDS.join(' ')} (aliases ${[...KIND_ALIASES.keys()].join(' ')})`,
          );
        for (const kind of asked) if (!kinds.includes(kind)) kinds.push(kind);
        break;
      }
      case 'source':
        if (value) sources.push(`source:${value.toLowerCase()}`);
        break;
      case '-source':
        if (value) sourceExclude.push(`source:${value.toLowerCase()}`);
        break;
      case 'in':
        if (value) members.push(value);
        break;
      case 'ws':
        if (value !== 'home' && value !== 'all')
          return fail('bad_query', `ws:${quoteInput(value)} is not a selector; use ws:home or ws:all`);
        workspace = value;
        break;
      case 'sym':
        mode = 'sym';
        if (value) rest.push(value);
        break;
      case 're':
        mode = 're';
        rest.push(value);
        break;
      default:
        rest.push(tok);
    }
  }
  let text = rest.join(' ').trim();
  // A whole query in double quotes is a literal; in single quotes too, as agents type them
  // inside a shell's double quotes (`search "'-O'"` searched the words of a pygments file
  // for `-O` and showed a line without it, an agent trial): the quotes' content, which
  // every line quoting it either way holds.
  if (mode === 'free' && (/^"[^"]+"$/.test(text) || /^'[^']+'$/.test(text))) {
    mode = 'literal';
    text = text.slice(1, -1);
  } else if (mode === 'free') {
    text = text.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
  }
  if (mode === 'sym') {
    // An operator is one name however it is spaced (`sym:Handle::operator bool`, `sym:operator ==`).
    const operator = SYM_OPERATOR.exec(text);
    if (operator) text = operator[1] + operatorName(operator[2]);
    else if (!/^[^\s]+$/.test(text))
      return fail('bad_query', 'sym: takes one name, e.g. sym:TokenBucket or sym:TokenBucket::refill');
  }
  if (mode === 're') {
    if (!text) return fail('bad_regex', 're: needs a pattern, e.g. re:fn\\s+main');
    const compiled = compileRegex(text);
    if (!compiled.ok) return fail(compiled.code, compiled.message);
  }
  // kind: chooses definitions (or files); a pattern or a literal is matched on lines, so the
  // filter would be dropped without a word (the C trial's `kind:constant re:…` listed
  // `extern` declarations as if they were constants).
  if ((mode === 're' || mode === 'literal') && kinds.length > 0)
    return fail(
      'bad_query',
      `kind: selects definitions and does not apply to ${mode === 're' ? 're:' : 'a "literal"'} search, which matches lines; drop kind:, or search sym:NAME kind:${kinds[0]}`,
    );
  const words = mode === 're' ? [] : queryWords(text);
  if (words.length > QUERY_MAX_WORDS)
    return fail(
      'bad_query',
      `the query splits into ${words.length} search words, over the limit of ${QUERY_MAX_WORDS}; search with fewer or shorter words`,
    );
  const identifier = mode === 'free' && !text.includes(' ') && isIdentifierShaped(text);
  const phrases =
    mode === 'free'
      ? text
          .split(' ')
          .map((token, _, all) => phraseWords(token, all))
          .filter((w): w is string[] => w !== null)
      : [];
  const standalone = phrases.length > 0 ? standaloneWords(text) : undefined;
  // A compound made only of stopwords (`if-else`) has no word worth searching alone: it is
  // searched as the literal it spells, never as every `if` in the tree. Unquoted, it stays
  // case-insensitive as free text is: in lower case, smart case does not apply.
  if (standalone && standalone.length === 0 && !text.includes(' ')) {
    mode = 'literal';
    text = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  }
  if (!text && !hasFilters({ fileInclude, fileExclude, languages, kinds, sources, sourceExclude })) {
    return fail(
      'bad_query',
      'empty query; give words to search, e.g. search refill tokens, or a filter such as kind:file file:src/',
    );
  }
  return ok({
    input: raw,
    mode,
    text,
    words,
    identifier,
    ...(phrases.length && mode === 'free' ? { phrases, standalone } : {}),
    fileInclude,
    fileExclude,
    languages,
    kinds,
    sources,
    sourceExclude,
    members,
    workspace,
  });
}

/**
 * The unfiltered `sym:` query of one definition's name (`Owner::name` or `name`), as a
 * program asks it (ctx's callers are the refs of the definition it describes): made
 * directly, so a name the query syntax would split (C++'s `operator new`) is kept whole.
 */
export function symbolQuery(name: string): ParsedQuery {
  return {
    input: `sym:${name}`,
    mode: 'sym',
    text: name,
    words: queryWords(name),
    identifier: false,
    fileInclude: [],
    fileExclude: [],
    languages: [],
    kinds: [],
    sources: [],
    sourceExclude: [],
    members: [],
    workspace: null,
  };
}
