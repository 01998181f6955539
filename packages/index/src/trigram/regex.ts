// A `re:` pattern's trigram query: a boolean formula over trigrams that every file holding a
// match satisfies, computed from the pattern's syntax tree (the method of Russ Cox,
// "Regular Expression Matching with a Trigram Index", 2012). The formula only narrows which
// files are read; every candidate is still matched against its live bytes.
//
// Guided tour:
// - `TrigramQuery`: `all` (no constraint: every file is a candidate), `none`, a trigram, or
//   `and`/`or` of queries.
// - `Info`: what is known of the strings one syntax node matches: whether it matches the
//   empty string, the exact set of strings when it is small, else sets of prefixes and
//   suffixes, and a query every text holding a match satisfies. The parser below computes
//   it bottom-up, node by node, without building the tree.
// - Soundness rule: anything this parser does not understand (a large class, `\p{…}`, an
//   unknown escape) counts as "any string", which only weakens the query. Case-insensitive
//   letters with non-ASCII folds (`k` ~ U+212A KELVIN SIGN, `s` ~ U+017F) count as any
//   character. The index folds ASCII letters (grams.ts), so case never makes a file miss.
import { TRIGRAM_QUERY_MAX, TRIGRAM_SET_MAX } from '../limits';
import { stringTrigrams, utf8Length } from './grams';

export type TrigramQuery =
  | { readonly op: 'all' }
  | { readonly op: 'none' }
  | { readonly op: 'tri'; readonly tri: number }
  | { readonly op: 'and' | 'or'; readonly args: readonly TrigramQuery[] };

export const ALL: TrigramQuery = { op: 'all' };
export const NONE: TrigramQuery = { op: 'none' };

/** Conjunction, flattened: `all` drops out, `none` wins, repeated trigrams are kept once. */
export function and(...qs: TrigramQuery[]): TrigramQuery {
  return combine('and', qs);
}

/** Disjunction, flattened: `none` drops out, `all` wins. */
export function or(...qs: TrigramQuery[]): TrigramQuery {
  return combine('or', qs);
}

function combine(op: 'and' | 'or', qs: readonly TrigramQuery[]): TrigramQuery {
  const identity = op === 'and' ? 'all' : 'none';
  const absorbing = op === 'and' ? 'none' : 'all';
  const args: TrigramQuery[] = [];
  const tris = new Set<number>();
  for (const q of qs) {
    const parts = q.op === op ? q.args : [q];
    for (const p of parts) {
      if (p.op === absorbing) return p;
      if (p.op === identity) continue;
      if (p.op === 'tri') {
        if (tris.has(p.tri)) continue;
        tris.add(p.tri);
      }
      args.push(p);
    }
  }
  if (args.length === 0) return op === 'and' ? ALL : NONE;
  return args.length === 1 ? args[0] : { op, args };
}

/** The distinct trigrams a query looks up. */
export function queryTrigrams(q: TrigramQuery, out = new Set<number>()): Set<number> {
  if (q.op === 'tri') out.add(q.tri);
  else if (q.op === 'and' || q.op === 'or') for (const a of q.args) queryTrigrams(a, out);
  return out;
}

/**
 * Every string of `set` occurs in the text: OR over the strings of AND over its trigrams
 * (`all` when one is shorter than 3 bytes; the literal search's candidates too).
 */
export function trigramsOf(set: ReadonlySet<string>): TrigramQuery {
  if (set.size === 0) return NONE;
  const alts: TrigramQuery[] = [];
  for (const s of set) {
    if (utf8Length(s) < 3) return ALL;
    alts.push(and(...stringTrigrams(s).map((tri) => ({ op: 'tri', tri }) as const)));
  }
  return or(...alts);
}

interface Info {
  readonly emptyable: boolean;
  /** Every match is one of these strings (folded), when the set is small enough to keep. */
  readonly exact: ReadonlySet<string> | null;
  /** Every match starts with one of these (meaningful when `exact` is null). */
  readonly prefix: ReadonlySet<string>;
  /** Every match ends with one of these (meaningful when `exact` is null). */
  readonly suffix: ReadonlySet<string>;
  readonly match: TrigramQuery;
  /** Strings every match contains, as written (not folded), longest first. */
  readonly required: readonly string[];
  /** Whether every match is exactly `required[0]` (a run of plain characters; '' when empty). */
  readonly whole: boolean;
  /** A string every match starts with, as written ('' when none is known). */
  readonly leading: string;
  /** A string every match ends with, as written ('' when none is known). */
  readonly trailing: string;
}

const NOTHING_KNOWN = new Set(['']);
const emptyString = (): Info => ({
  emptyable: true,
  exact: new Set(['']),
  prefix: NOTHING_KNOWN,
  suffix: NOTHING_KNOWN,
  match: ALL,
  required: [''],
  whole: true,
  leading: '',
  trailing: '',
});
const anyChar = (): Info => ({
  emptyable: false,
  exact: null,
  prefix: NOTHING_KNOWN,
  suffix: NOTHING_KNOWN,
  match: ALL,
  required: [],
  whole: false,
  leading: '',
  trailing: '',
});
const anyString = (): Info => ({ ...anyChar(), emptyable: true });

function cross(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> | null {
  if (a.size * b.size > TRIGRAM_SET_MAX) return null;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function chars(s: string): string[] {
  return Array.from(s);
}

/**
 * Keep prefix and suffix sets small: before a set is cut to its strings' first (last) two
 * characters, its strings' trigrams join the match query, so nothing they said is lost.
 */
function simplify(x: Info): Info {
  if (x.exact && x.exact.size <= TRIGRAM_SET_MAX) return x;
  let { match, prefix, suffix } = x;
  if (x.exact) {
    match = and(match, trigramsOf(x.exact));
    prefix = x.exact;
    suffix = x.exact;
  }
  if ([...prefix].some((s) => s.length > 2)) {
    match = and(match, trigramsOf(prefix));
    prefix = new Set([...prefix].map((s) => chars(s).slice(0, 2).join('')));
  }
  if ([...suffix].some((s) => s.length > 2)) {
    match = and(match, trigramsOf(suffix));
    suffix = new Set([...suffix].map((s) => chars(s).slice(-2).join('')));
  }
  if (prefix.size > TRIGRAM_SET_MAX) prefix = NOTHING_KNOWN;
  if (suffix.size > TRIGRAM_SET_MAX) suffix = NOTHING_KNOWN;
  return { ...x, exact: null, prefix, suffix, match };
}

/** `x` with its exact set moved into prefix, suffix and match (a repeated or alternated fragment). */
function inexact(x: Info): Info {
  if (!x.exact) return x;
  return simplify({
    ...x,
    exact: null,
    prefix: x.exact,
    suffix: x.exact,
    match: and(x.match, trigramsOf(x.exact)),
  });
}

/** Literals kept per fragment: the longest, which narrow most. */
const REQUIRED_MAX = 4;

/**
 * Both fragments' required strings, or one joined string when each is the whole of its
 * match; the leading string goes on through a fragment that is wholly known, and so does
 * the trailing one backwards. Where they meet, x's trailing string followed by y's leading
 * one is in every match too: `\w+_init` requires `_init`, not only `_`.
 */
function required(x: Info, y: Info): Pick<Info, 'required' | 'whole' | 'leading' | 'trailing'> {
  const leading = x.whole ? x.required[0] + y.leading : x.leading;
  const trailing = y.whole ? x.trailing + y.required[0] : y.trailing;
  if (x.whole && y.whole) return { required: [x.required[0] + y.required[0]], whole: true, leading, trailing };
  const all = [...new Set([...x.required, ...y.required, x.trailing + y.leading])].sort((a, b) => b.length - a.length);
  // A string inside a longer kept one says nothing more (`_ini` beside `_init`).
  const kept: string[] = [];
  for (const s of all) if (s !== '' && !kept.some((k) => k.includes(s))) kept.push(s);
  return {
    required: kept.slice(0, REQUIRED_MAX),
    whole: false,
    leading,
    trailing,
  };
}

function concat(x: Info, y: Info): Info {
  const emptyable = x.emptyable && y.emptyable;
  if (x.exact && y.exact) {
    const both = cross(x.exact, y.exact);
    if (both)
      return {
        emptyable,
        exact: both,
        prefix: NOTHING_KNOWN,
        suffix: NOTHING_KNOWN,
        match: and(x.match, y.match),
        ...required(x, y),
      };
  }
  const xs = x.exact ?? x.suffix;
  const yp = y.exact ?? y.prefix;
  let match = and(x.match, y.match);
  // Where the two meet: some suffix of x's match followed by some prefix of y's.
  const boundary = cross(xs, yp);
  if (boundary) match = and(match, trigramsOf(boundary));
  let prefix = x.prefix;
  if (x.exact) {
    const p = cross(x.exact, yp);
    if (p) prefix = p;
    else {
      match = and(match, trigramsOf(x.exact));
      prefix = x.exact;
    }
  }
  let suffix = y.suffix;
  if (y.exact) {
    const s = cross(xs, y.exact);
    if (s) suffix = s;
    else {
      match = and(match, trigramsOf(y.exact));
      suffix = y.exact;
    }
  }
  return simplify({ emptyable, exact: null, prefix, suffix, match, ...required(x, y) });
}

function alternate(x: Info, y: Info): Info {
  const emptyable = x.emptyable || y.emptyable;
  if (x.exact && y.exact && new Set([...x.exact, ...y.exact]).size <= TRIGRAM_SET_MAX)
    return {
      emptyable,
      exact: new Set([...x.exact, ...y.exact]),
      prefix: NOTHING_KNOWN,
      suffix: NOTHING_KNOWN,
      match: or(x.match, y.match),
      required: [],
      whole: false,
      leading: '',
      trailing: '',
    };
  const a = inexact(x);
  const b = inexact(y);
  return simplify({
    emptyable,
    exact: null,
    prefix: new Set([...a.prefix, ...b.prefix]),
    suffix: new Set([...a.suffix, ...b.suffix]),
    match: or(a.match, b.match),
    required: [],
    whole: false,
    leading: '',
    trailing: '',
  });
}

/** One or more repetitions: each match starts and ends like `x` and contains a match of it. */
function plus(x: Info): Info {
  const a = inexact(x);
  return { ...a, emptyable: x.emptyable, exact: null, whole: false };
}

function repeat(x: Info, min: number, max: number): Info {
  if (max === 0) return emptyString();
  if (min === 0) return max === 1 ? alternate(x, emptyString()) : anyString();
  if (min === 1 && max === 1) return x;
  if (min === max && min <= 4 && x.exact) {
    let out = x;
    for (let i = 1; i < min; i++) out = concat(out, x);
    return out;
  }
  return plus(x);
}

/** Characters a class may expand to before it counts as any character. */
const CLASS_CHARS_MAX = 8;

/** Whether a group's source holds a `\s` escape outside a class (the callers refuse classes). */
function holdsSpaceEscape(source: string): boolean {
  return (source.match(/\\./g) ?? ([] as string[])).includes('\\s');
}

/** The minimum of a `{n}`, `{n,}` or `{n,m}` quantifier at the start of `text`; undefined when it is none. */
function braceMinimum(text: string): number | undefined {
  const m = /^\{(\d+)(?:,\d*)?\}/.exec(text);
  return m ? Number(m[1]) : undefined;
}

class Parser {
  private i = 0;
  private fold = false;
  /** A group holding `\s` is repeated (`(?:\s|.)*`): a match may then run on through anything. */
  repeatsSpaceGroup = false;

  constructor(private readonly p: string) {}

  /**
   * Whether every match starts by consuming the pattern's first atom, a literal character
   * that no assertion, group or optional quantifier precedes: nothing in the pattern then
   * looks at the text before a match, so a match can be tried anchored where it starts.
   */
  startsWithMandatoryChar(): boolean {
    this.i = 0;
    if (this.p[0] === '(' || this.p[0] === '[') return false;
    const x = this.atom();
    if (x.emptyable || x.exact?.size !== 1 || x.leading === '') return false;
    const next = this.p[this.i];
    if (next === '*' || next === '?') return false;
    return next !== '{' || braceMinimum(this.p.slice(this.i, this.i + 16)) !== 0;
  }

  parse(): Info {
    const x = this.alternation();
    // An unbalanced `)` (compileRegex rejects it first): nothing after it is trusted.
    return this.i < this.p.length ? concat(x, anyString()) : x;
  }

  private alternation(): Info {
    let x = this.sequence();
    while (this.p[this.i] === '|') {
      this.i++;
      x = alternate(x, this.sequence());
    }
    return x;
  }

  private sequence(): Info {
    let x = emptyString();
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') x = concat(x, this.repetition());
    return x;
  }

  private repetition(): Info {
    const start = this.i;
    let x = this.atom();
    const spaceGroup = this.p[start] === '(' && holdsSpaceEscape(this.p.slice(start, this.i));
    for (;;) {
      const c = this.p[this.i];
      let max = 1;
      if (c === '*') x = repeat(x, 0, (max = Infinity));
      else if (c === '+') x = repeat(x, 1, (max = Infinity));
      else if (c === '?') x = repeat(x, 0, 1);
      else if (c === '{') {
        const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.p.slice(this.i, this.i + 16));
        if (!m) return x; // a literal `{`: the next atom
        const min = Number(m[1]);
        max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min;
        x = repeat(x, min, max);
        this.i += m[0].length - 1;
      } else return x;
      if (spaceGroup && max > 1) this.repeatsSpaceGroup = true;
      this.i++;
      if (this.p[this.i] === '?') this.i++; // lazy: the same strings
    }
  }

  private atom(): Info {
    const c = this.p[this.i];
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    this.i++;
    if (c === '.') return anyChar();
    if (c === '^') return emptyString();
    // compileRegex runs `$` as `(?:\r?$)`, so a CRLF line ends before its `\r`: the `\r` may be matched.
    if (c === '$') return alternate(emptyString(), this.char('\r'));
    const code = this.p.codePointAt(this.i - 1)!;
    if (code > 0xffff) this.i++;
    return this.char(String.fromCodePoint(code));
  }

  private group(): Info {
    const saved = this.fold;
    this.i++;
    if (this.p[this.i] === '?') {
      const named = /^\?P?<[^>]*>/.exec(this.p.slice(this.i, this.i + 64));
      if (named) this.i += named[0].length;
      else {
        const flags = /^\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(this.p.slice(this.i, this.i + 16));
        if (!flags) return this.skipGroup();
        if (flags[1].includes('i')) this.fold = true;
        if (flags[2]?.includes('i')) this.fold = false;
        this.i += flags[0].length;
        // `(?i)` sets the flag for the rest of the enclosing group: keep it, match nothing here.
        if (flags[3] === ')') return emptyString();
      }
    }
    const inner = this.alternation();
    if (this.p[this.i] === ')') this.i++;
    this.fold = saved;
    return inner;
  }

  /** A group this parser does not know: skipped to its `)`, counted as any string. */
  private skipGroup(): Info {
    let depth = 1;
    while (this.i < this.p.length && depth > 0) {
      const c = this.p[this.i++];
      if (c === '\\') this.i++;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    return anyString();
  }

  private escape(): Info {
    const e = this.p[this.i + 1] ?? '';
    this.i += 2;
    if ('bBAz'.includes(e)) return emptyString();
    if (e === 'Q') {
      const end = this.p.indexOf('\\E', this.i);
      const text = this.p.slice(this.i, end < 0 ? this.p.length : end);
      this.i = end < 0 ? this.p.length : end + 2;
      let x = emptyString();
      for (const ch of chars(text)) x = concat(x, this.char(ch));
      return x;
    }
    const code = this.escapedCode(e);
    if (code === undefined) {
      if ((e === 'p' || e === 'P') && this.p[this.i] === '{')
        this.i = Math.max(this.i, this.p.indexOf('}', this.i) + 1);
      else if (e === 'p' || e === 'P') this.i++;
      return anyChar();
    }
    return this.char(String.fromCodePoint(code));
  }

  /** The code point an escape (after its backslash and letter) spells, or undefined for a class or unknown escape. */
  private escapedCode(e: string): number | undefined {
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
    if (e in simple) return simple[e];
    if (e === 'x' || e === 'u') {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.p.slice(this.i, this.i + 8));
      const plain = (e === 'x' ? /^[0-9a-fA-F]{2}/ : /^[0-9a-fA-F]{4}/).exec(this.p.slice(this.i, this.i + 4));
      const m = braced ?? plain;
      if (!m) return undefined;
      this.i += m[0].length;
      const code = parseInt(braced ? braced[1] : m[0], 16);
      return code <= 0x10ffff ? code : undefined;
    }
    return /[A-Za-z0-9]/.test(e) || e === '' ? undefined : e.codePointAt(0);
  }

  /** One character under the current case mode, as the index folds it. */
  private char(ch: string): Info {
    if (ch === '\ufffd') return anyChar(); // what an invalid byte decodes to: no fixed bytes
    if (this.fold && ch.toLowerCase() !== ch.toUpperCase()) {
      const lower = ch.toLowerCase();
      if (!/^[a-z]$/.test(lower) || lower === 'k' || lower === 's') return anyChar();
      return { ...anyChar(), exact: new Set([lower]) };
    }
    return { ...emptyString(), emptyable: false, exact: new Set([ch]), required: [ch], leading: ch, trailing: ch };
  }

  private charClass(): Info {
    const start = this.i;
    let j = this.i + 1;
    const negated = this.p[j] === '^';
    if (negated) j++;
    const members: string[] = [];
    let known = !negated;
    let first = true;
    while (j < this.p.length && (this.p[j] !== ']' || first)) {
      first = false;
      let code: number | undefined;
      if (this.p.startsWith('[:', j) && this.p.indexOf(':]', j + 2) > 0) {
        j = this.p.indexOf(':]', j + 2) + 2;
        known = false;
        continue;
      }
      if (this.p[j] === '\\') {
        this.i = j;
        const e = this.p[j + 1] ?? '';
        this.i = j + 2;
        code = this.escapedCode(e);
        if (code === undefined && (e === 'p' || e === 'P'))
          this.i = this.p[this.i] === '{' ? this.p.indexOf('}', this.i) + 1 : this.i + 1;
        j = this.i;
      } else {
        code = this.p.codePointAt(j)!;
        j += code > 0xffff ? 2 : 1;
      }
      if (code === undefined) {
        known = false;
        continue;
      }
      let last = code;
      if (this.p[j] === '-' && this.p[j + 1] !== ']' && j + 1 < this.p.length) {
        j++;
        if (this.p[j] === '\\') {
          this.i = j + 2;
          const hi = this.escapedCode(this.p[j + 1] ?? '');
          j = this.i;
          if (hi === undefined) {
            known = false;
            continue;
          }
          last = hi;
        } else {
          last = this.p.codePointAt(j)!;
          j += last > 0xffff ? 2 : 1;
        }
      }
      if (last - code >= CLASS_CHARS_MAX) known = false;
      else for (let c = code; c <= last; c++) members.push(String.fromCodePoint(c));
    }
    this.i = Math.max(start + 1, j + 1);
    if (!known || members.length > CLASS_CHARS_MAX || members.length === 0) return anyChar();
    let x: Info | undefined;
    for (const m of members) x = x ? alternate(x, this.char(m)) : this.char(m);
    return x!;
  }
}

/** What a `re:` pattern's syntax says about the files and lines that can hold a match. */
export interface RegexPrefilter {
  /** Satisfied by every file holding a match (`all`: the pattern fixes no trigram). */
  readonly query: TrigramQuery;
  /** Strings every match contains, byte for byte, longest first (none may be known). */
  readonly literals: readonly string[];
  /** A string every match starts with, byte for byte ('' when none is known). */
  readonly leading: string;
  /**
   * Whether a match may span a line break. When it cannot, no match starts before the line
   * of any literal's first occurrence.
   */
  readonly crossesLines: boolean;
  /**
   * Whether `\s` outside a class, in no repeated group, is the only construct that lets a
   * match span lines: then every stretch of a match across a line break is whitespace, and
   * an attempt to match at one position ends within the lines it reaches (live.ts tries
   * such a pattern only where its leading string occurs). A repeated group holding `\s`
   * (`(?:\s|.)*`) may run on through anything, so it answers false.
   */
  readonly crossesOnlyThroughSpace: boolean;
  /**
   * Whether every match starts with `leading` consumed by the pattern's first atom, with no
   * assertion (`^`, `\b`), group or optional quantifier before it: a match can be tried
   * anchored at an occurrence of `leading` without looking at the text before it.
   */
  readonly startsAtLeading: boolean;
}

/**
 * Escapes, classes and flags after which a pattern may match a line break (conservative:
 * `\s`, `\W`, `\D`, a negated or POSIX class, `\p{…}`, a code point escape, `\n`, dot-all
 * `(?s)`, an octal escape, a literal line break).
 */
const CROSSES_LINES = /\\[sWDpPxuvfCQn0-7]|\[\^|\[:|\(\?[a-zA-Z]*s|\n/;

/**
 * The prefilter of a `re:` pattern (as compileRegex accepts it: RE2 syntax plus
 * JavaScript's `\uXXXX`). The trigram query holds at most TRIGRAM_QUERY_MAX distinct
 * trigrams.
 */
export function regexPrefilter(pattern: string): RegexPrefilter {
  const parser = new Parser(pattern);
  const x = parser.parse();
  const whole = x.exact ? trigramsOf(x.exact) : and(trigramsOf(x.prefix), trigramsOf(x.suffix));
  return {
    query: bounded(and(x.match, whole), TRIGRAM_QUERY_MAX),
    literals: x.required.filter((s) => s !== ''),
    leading: x.leading,
    crossesLines: CROSSES_LINES.test(pattern),
    crossesOnlyThroughSpace:
      !pattern.includes('[') &&
      !parser.repeatsSpaceGroup &&
      !CROSSES_LINES.test(pattern.replace(/\\./g, (e) => (e === '\\s' ? '' : e))),
    startsAtLeading: x.leading !== '' && new Parser(pattern).startsWithMandatoryChar(),
  };
}

/**
 * At most `budget` distinct trigrams: a conjunction keeps the terms that fit (dropping one
 * only widens the query); a disjunction that does not fit becomes `all`.
 */
function bounded(q: TrigramQuery, budget: number): TrigramQuery {
  if (queryTrigrams(q).size <= budget) return q;
  if (q.op === 'and') {
    const kept: TrigramQuery[] = [];
    let used = new Set<number>();
    for (const a of q.args) {
      const next = new Set([...used, ...queryTrigrams(a)]);
      if (next.size <= budget) {
        kept.push(a);
        used = next;
      }
    }
    return and(...kept);
  }
  return ALL;
}
