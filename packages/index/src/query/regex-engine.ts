// The one place a user's `re:` pattern becomes a matcher. V8's own engine backtracks: `(a+)+$`
// on a 28-character line ran 49.8 s and stalled the shared daemon (issue 10, finding 4). re2js
// (a pure-JS port of RE2, chosen by tools/bench/index/regex-engines.js; see the package README) runs
// in time linear in the input, for the price of RE2 syntax: no backreferences, no lookaround.
import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';
import {
  REGEX_PATTERN_MAX_CHARS,
  REGEX_PROGRAM_MAX_INSTRUCTIONS,
  REGEX_WINDOW_MIN_CHARS,
  REGEX_WINDOW_STEPS,
} from '../limits';
import { quoteInput } from '../quote';

/** Characters of a pattern (and of an engine's fragment) an error message quotes. */
const PATTERN_QUOTE_CHARS = 60;
const FRAGMENT_QUOTE_CHARS = 30;
/** RE2's anchor flag for a search that may start anywhere (RE2Flags.UNANCHORED, not exported). */
const UNANCHORED = 0;
/** RE2's anchor flag for a match at the input's start (RE2Flags.ANCHOR_START); re2js honours it only at offset 0. */
const ANCHOR_START = 1;
/** Compiled patterns kept per process: `re:` compiles in parse validation and again in the scan. */
const CACHE_MAX = 32;

export type RegexSearch =
  | {
      readonly found: true;
      /** UTF-16 index of the match start in the searched text. */
      readonly at: number;
      /** UTF-16 index just past the match's end (a match of `\s` may run past a line break). */
      readonly end: number;
    }
  | {
      readonly found: false;
      /** Set when the deadline passed before the text was searched to its end. */ readonly stopped?: 'deadline';
    };

export interface RegexMatcher {
  /** The pattern as the user wrote it. */
  readonly pattern: string;
  /** Instructions of the compiled program (work per character is bounded by this). */
  readonly programSize: number;
  /**
   * The leftmost match starting at or after UTF-16 index `from`. Long texts are searched in
   * line-aligned, overlapping windows (REGEX_WINDOW_STEPS), the deadline (a `Date.now()`
   * timestamp) checked between windows.
   */
  firstMatch(text: string, from?: number, deadlineAt?: number): RegexSearch;
  /**
   * Whether a match starts exactly at UTF-16 index `at`. The text before `at` is not seen:
   * only for a pattern whose matches start by consuming its first character, with nothing
   * before it that looks behind (RegexPrefilter.startsAtLeading).
   */
  matchesAt(text: string, at: number): boolean;
}

export type CompiledRegex =
  | { readonly ok: true; readonly matcher: RegexMatcher }
  | { readonly ok: false; readonly code: 'bad_regex'; readonly message: string };

/** What the translation found that the linear engine cannot do, and what to write instead. */
interface Unsupported {
  readonly what: string;
  readonly instead: string;
}

const AHEAD = 'match the text that follows as part of the pattern, e.g. foo(?=bar) as foobar';
const BEHIND = 'match the text that precedes as part of the pattern, e.g. (?<=fn )main as fn main';
const LOOKAROUND: Readonly<Record<string, Unsupported>> = {
  '(?=': { what: 'lookahead (?=…)', instead: AHEAD },
  '(?!': { what: 'negative lookahead (?!…)', instead: 'search for the text without it, or add a -file: filter' },
  '(?<=': { what: 'lookbehind (?<=…)', instead: BEHIND },
  '(?<!': { what: 'negative lookbehind (?<!…)', instead: 'search for the text without it, or add a -file: filter' },
};
const BACKREFERENCE = 'match the repeated text itself, or search for one occurrence';

/** Length of the `[...]` class starting at `i` (RE2 rules: a leading `]` is literal, `[:alpha:]` is one unit). */
function classLength(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') {
    if (p[j] === '\\') j += 2;
    else if (p.startsWith('[:', j) && p.indexOf(':]', j + 2) > 0) j = p.indexOf(':]', j + 2) + 2;
    else j++;
  }
  return Math.min(p.length, j + 1) - i;
}

/** A JavaScript `\uXXXX` or `\u{X…}` at `i` as RE2's `\x{…}`, with the characters it spans. */
function unicodeEscape(p: string, i: number): { text: string; length: number } | undefined {
  const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(p.slice(i, i + 10));
  if (braced) return { text: `\\x{${braced[1]}}`, length: braced[0].length };
  const four = /^\\u([0-9a-fA-F]{4})/.exec(p.slice(i, i + 6));
  return four ? { text: `\\x{${four[1]}}`, length: 6 } : undefined;
}

/**
 * The pattern in the engine's terms, or what it uses that the engine cannot do. `$` becomes
 * `(?:\r?$)` so a line ending in CRLF ends where JavaScript's multiline `$` said it did (RE2's
 * `$` sees only `\n`); JavaScript's `\uXXXX` becomes `\x{XXXX}`. Everything else is RE2 syntax.
 */
function translate(p: string): { source: string } | { unsupported: Unsupported } {
  let out = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === '\\') {
      const e = p[i + 1] ?? '';
      if (/[1-9]/.test(e) || (e === 'k' && p[i + 2] === '<')) {
        return {
          unsupported: { what: `a backreference (${e === 'k' ? '\\k<name>' : `\\${e}`})`, instead: BACKREFERENCE },
        };
      }
      if (e === 'z')
        return {
          unsupported: {
            what: 'the end-of-text assertion \\z',
            instead: 'use $, which matches at the end of every line',
          },
        };
      if (e === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const stop = end < 0 ? p.length : end + 2;
        out += p.slice(i, stop);
        i = stop;
        continue;
      }
      const u = e === 'u' ? unicodeEscape(p, i) : undefined;
      out += u ? u.text : p.slice(i, i + 2);
      i += u ? u.length : 2;
      continue;
    }
    if (c === '[') {
      const len = classLength(p, i);
      let cls = '';
      for (let j = i; j < i + len;) {
        const u = p[j] === '\\' && p[j + 1] === 'u' ? unicodeEscape(p, j) : undefined;
        const step = u ? u.length : p[j] === '\\' ? 2 : 1;
        cls += u ? u.text : p.slice(j, j + step);
        j += step;
      }
      out += cls;
      i += len;
      continue;
    }
    if (c === '(' && p[i + 1] === '?') {
      const look = Object.keys(LOOKAROUND).find((k) => p.startsWith(k, i));
      if (look) return { unsupported: LOOKAROUND[look] };
      if (p.startsWith('(?P=', i))
        return { unsupported: { what: 'a backreference ((?P=name))', instead: BACKREFERENCE } };
      const flags = /^\(\?([imsU]*)-([imsU]*)[:)]/.exec(p.slice(i, i + 12));
      if (flags && flags[2].includes('m'))
        return {
          unsupported: { what: '(?-m) (multiline mode off)', instead: '^ and $ always match at line boundaries' },
        };
    }
    out += c === '$' ? '(?:\\r?$)' : c;
    i++;
  }
  return { source: out };
}

function failure(message: string): CompiledRegex {
  return { ok: false, code: 'bad_regex', message };
}

function quotePattern(pattern: string): string {
  return `re:${quoteInput(pattern, PATTERN_QUOTE_CHARS)}`;
}

/** The index of the next `\n` at or after `from`, or the text's end. */
function lineEnd(text: string, from: number): number {
  if (from >= text.length) return text.length;
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

/** Never split a surrogate pair when a window must end inside a line. */
function cutAt(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

class WindowedMatcher implements RegexMatcher {
  readonly programSize: number;
  private readonly window: number;

  constructor(
    readonly pattern: string,
    private readonly compiled: RE2JS,
  ) {
    this.programSize = compiled.programSize();
    this.window = Math.max(REGEX_WINDOW_MIN_CHARS, Math.floor(REGEX_WINDOW_STEPS / Math.max(1, this.programSize)));
  }

  matchesAt(text: string, at: number): boolean {
    // A slice shares the text's characters; re2js anchors only at its input's start.
    const rest = text.slice(at);
    return (this.compiled.re2().matchWithGroup(rest, 0, rest.length, ANCHOR_START, 0) as [boolean])[0];
  }

  firstMatch(text: string, from = 0, deadlineAt = Number.POSITIVE_INFINITY): RegexSearch {
    const re2 = this.compiled.re2();
    const w = this.window;
    let start = Math.max(0, from);
    for (;;) {
      // Each region ends before a `\n` (so `$` and `\b` there mean what they mean in the whole
      // text), unless its line is longer than three windows, which is then cut.
      let end = lineEnd(text, start + 2 * w);
      if (end - start > 3 * w) end = cutAt(text, start + 2 * w);
      // The DFA (no submatches) answers "any match here?" several times faster than the NFA
      // that finds where the match starts, which then runs on matching regions only.
      if (re2.matchWithGroup(text, start, end, UNANCHORED, 0)[0]) {
        const found = re2.matchWithGroup(text, start, end, UNANCHORED, 1) as [boolean, number[] | null];
        if (found[0] && found[1]) return { found: true, at: found[1][0], end: found[1][1] };
      }
      if (end >= text.length) return { found: false };
      // The next region starts one window on (the engine sees the characters before it, so
      // `^` and `\b` there are exact), overlapping this one by a window: a match shorter than
      // a window lies wholly inside some region.
      start = cutAt(text, start + w);
      if (Date.now() > deadlineAt) return { found: false, stopped: 'deadline' };
    }
  }
}

const cache = new Map<string, CompiledRegex>();

function compileUncached(pattern: string): CompiledRegex {
  if (pattern.length > REGEX_PATTERN_MAX_CHARS) {
    return failure(
      `${quotePattern(pattern)} is longer than ${REGEX_PATTERN_MAX_CHARS} characters; search for a shorter pattern (its most distinctive part)`,
    );
  }
  const translated = translate(pattern);
  if ('unsupported' in translated) {
    const { what, instead } = translated.unsupported;
    return failure(
      `${quotePattern(pattern)} uses ${what}, which re: does not support (it matches in linear time, RE2 syntax); ${instead}`,
    );
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated.source, RE2JS.MULTILINE);
  } catch (err) {
    if (err instanceof RE2JSSyntaxException) {
      // The engine quotes its own input: the translated pattern behind RE2JS's `(?m)`.
      const own = err.input
        ?.replace(/^\(\?m\)/, '')
        .split('(?:\\r?$)')
        .join('$');
      const fragment = own ? `: ${quoteInput(own, FRAGMENT_QUOTE_CHARS)}` : '';
      return failure(
        `${quotePattern(pattern)} is not a valid regular expression (${err.error}${fragment}); re: uses RE2 syntax, escape special characters with \\`,
      );
    }
    if (err instanceof RE2JSException)
      return failure(
        `${quotePattern(pattern)} cannot be compiled (${quoteInput(err.message, FRAGMENT_QUOTE_CHARS)}); simplify the pattern`,
      );
    throw err;
  }
  if (compiled.programSize() > REGEX_PROGRAM_MAX_INSTRUCTIONS) {
    return failure(
      `${quotePattern(pattern)} compiles to ${compiled.programSize()} instructions, over the limit of ${REGEX_PROGRAM_MAX_INSTRUCTIONS}; use smaller repetition counts ({n}) or fewer alternatives`,
    );
  }
  return { ok: true, matcher: new WindowedMatcher(pattern, compiled) };
}

/**
 * Compile a `re:` pattern: RE2 syntax, `^`/`$` at line boundaries (a CRLF line ends before its
 * `\r`), `(?i)` for case-insensitive. Backreferences, lookaround, `\z`, `(?-m)`, patterns over
 * REGEX_PATTERN_MAX_CHARS and programs over REGEX_PROGRAM_MAX_INSTRUCTIONS answer `bad_regex`
 * with a message that quotes at most the pattern's first characters.
 */
export function compileRegex(pattern: string): CompiledRegex {
  if (pattern.length > REGEX_PATTERN_MAX_CHARS) return compileUncached(pattern);
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  const compiled = compileUncached(pattern);
  cache.set(pattern, compiled);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return compiled;
}
