// A grep-family pattern as one Trufflepig query word: `sym:NAME` for a code identifier,
// a `"literal"` for plain text, `re:` for a regular expression RE2 can run. Undefined
// when no query means the same (backreferences, lookaround, an empty pattern).
import { SUGGESTED_PATTERN_MAX_CHARS } from '../limits';

/** How the tool reads its pattern: grep's default is basic, rg's and git grep -E's extended. */
export type Syntax = 'fixed' | 'basic' | 'extended' | 'perl';

export interface PatternQuery {
  readonly patterns: readonly string[];
  readonly syntax: Syntax;
  readonly ignoreCase: boolean;
  /** -w: whole words. */
  readonly word: boolean;
  /** -x: whole lines. */
  readonly line: boolean;
}

const RE2_SPECIAL = /[.*+?^${}()|[\]\\]/g;

export function escapeRegex(text: string): string {
  return text.replace(RE2_SPECIAL, '\\$&');
}

/** Copy a bracket expression `[...]` starting at `i`; returns [text, next index] or undefined when unclosed. */
function bracket(p: string, i: number): [string, number] | undefined {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  for (; j < p.length; j++) {
    if (p[j] === '[' && p[j + 1] === ':') {
      const end = p.indexOf(':]', j + 2);
      if (end < 0) return undefined;
      j = end + 1;
    } else if (p[j] === ']') return [p.slice(i, j + 1), j + 1];
  }
  return undefined;
}

/** A POSIX basic or extended regex (or a PCRE one) as RE2 source, or undefined when RE2 cannot say the same. */
export function toRe2(p: string, syntax: Exclude<Syntax, 'fixed'>): string | undefined {
  // Lookaround, atomic groups, possessive quantifiers and \K have no RE2 equivalent.
  if (/\(\?<?[=!]|\(\?>|[*+?}]\+|\\K/.test(p) && syntax !== 'basic') return undefined;
  const metaWhenEscaped = syntax === 'basic' ? '(){}|+?' : '';
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '[') {
      const b = bracket(p, i);
      if (!b) return undefined;
      out += b[0];
      i = b[1] - 1;
    } else if (c === '\\') {
      const n = p[i + 1];
      if (n === undefined) return undefined;
      i++;
      if (/[1-9]/.test(n)) return undefined;
      if (n === '<' || n === '>') out += '\\b';
      else if (metaWhenEscaped.includes(n)) out += n;
      else out += `\\${n}`;
    } else if (syntax === 'basic' && '(){}|+?'.includes(c)) out += `\\${c}`;
    else if (syntax === 'basic' && c === '*' && (i === 0 || p[i - 1] === '^')) out += '\\*';
    else out += c;
  }
  return out;
}

/**
 * The text a regex matches when it is a plain string with at most escaped punctuation
 * (`foo\.bar`, `new\(`), else undefined. A bare `.` counts as itself: whoever greps for
 * `os.path` means the dot.
 */
export function literalOf(re2: string): string | undefined {
  let out = '';
  for (let i = 0; i < re2.length; i++) {
    const c = re2[i];
    if (c === '\\') {
      const n = re2[i + 1];
      if (n === undefined || /[A-Za-z0-9]/.test(n)) return undefined;
      out += n;
      i++;
    } else if ('*+?^${}()|[]'.includes(c)) return undefined;
    else if (c === '.' && '*+?{'.includes(re2[i + 1] ?? '')) return undefined;
    else out += c;
  }
  return out;
}

/** A name code would spell (`TokenBucket`, `parse_config`, `refillTokens2`), not an English word (`timeout`). */
function isCodeIdentifier(s: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) return false;
  return /_/.test(s) || /\d/.test(s) || (/[A-Z]/.test(s) && /[a-z]/.test(s));
}

/** The query word for the patterns, or undefined when there is no faithful one. */
export function queryWordOf(q: PatternQuery): string | undefined {
  if (q.patterns.length === 0 || q.patterns.some((p) => p.length === 0 || p.length > SUGGESTED_PATTERN_MAX_CHARS))
    return undefined;
  const sources: string[] = [];
  for (const p of q.patterns) {
    const source = q.syntax === 'fixed' ? escapeRegex(p) : toRe2(p, q.syntax);
    if (source === undefined) return undefined;
    sources.push(source);
  }
  if (sources.length === 1 && !q.line) {
    const literal = literalOf(sources[0]);
    if (literal !== undefined && literal.trim().length > 0 && !/[\n\r]/.test(literal)) {
      // A name as a word: an identifier search ranks its definition first and keeps every
      // mention grep would print. Not `sym:`, which reads definitions and code uses only: an
      // agent trial on the Go source was told `search sym:http2client` for an rg whose two
      // lines were a string and a comment, and got 0 hits.
      if (!q.ignoreCase && (isCodeIdentifier(literal) || (q.word && /^[A-Za-z_][A-Za-z0-9_]*$/.test(literal))))
        return literal;
      // A literal is matched as typed when it has a capital, else ASCII case-insensitively
      // (smart case): grep's own case, or grep -i's in lower case.
      if (!q.word && !literal.includes('"') && literal.trim().length > 1)
        return `"${q.ignoreCase ? literal.replace(/[A-Z]/g, (c) => c.toLowerCase()) : literal}"`;
    }
  }
  let source = sources.length === 1 ? sources[0] : sources.map((s) => (s.includes('|') ? `(?:${s})` : s)).join('|');
  if (q.word) source = `\\b(?:${source})\\b`;
  if (q.line) source = `^(?:${source})$`;
  if (q.ignoreCase) source = `(?i)${source}`;
  if (/[\n\r]/.test(source)) return undefined;
  return `re:${source}`;
}
