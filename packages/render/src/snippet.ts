// Snippet choice (docs/spec/retrieval.md §4): the line of a hit's span mentioning the most distinct query terms.

import { SNIPPET_MAX_CHARS } from './limits';
import type { SourceRow } from './rows';

export { SNIPPET_MAX_CHARS };

export interface Snippet {
  line: number;
  text: string;
}

const COMMENT_PREFIXES = ['//', '/*', '*', '#', '--', '<!--', ';'] as const;
/** Characters kept before the first matching term when a long line is cut at its start. */
const LEADING_CONTEXT = 20;
const ELLIPSIS = '…';

export function isCommentLine(text: string): boolean {
  const trimmed = text.trimStart();
  return COMMENT_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}

/**
 * A decorator or attribute line (`@pass_eval_context`, `#[inline]`, `#[derive(Debug)]`): it
 * belongs to the definition below it, which the grammar starts after it.
 */
export function isDecorationLine(text: string): boolean {
  return /^\s*(?:@[A-Za-z_]|#\[)/.test(text);
}

/**
 * A line of a comment that documents the definition below it: `///`, `//`, `/**`, `*`,
 * `*\/`, `# text` (not `#include`, `#[attr]`), `--`. `opens` says whether it can be a
 * comment's first line (a `*` line continues a block).
 */
export function docCommentLine(text: string): { readonly opens: boolean } | undefined {
  const t = text.trimStart();
  if (/^(?:\/\/|\/\*|--(?!-?>))/.test(t) || /^#(?:\s|$)/.test(t)) return { opens: true };
  if (/^\*(?:\s|\/|$)/.test(t)) return { opens: false };
  return undefined;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (c: string | undefined): boolean => c !== undefined && WORD_CHAR.test(c);
const isUpper = (c: string | undefined): boolean => c !== undefined && c !== c.toLowerCase();
const isLower = (c: string | undefined): boolean => c !== undefined && c !== c.toUpperCase();

/**
 * How a line mentions a term: 2 as a whole word or identifier part (`stat` in `os.stat(`,
 * `mtime` in `st_mtime`, `refill` in `refillTokens`), 1 only inside a longer word (`stat`
 * in `state`, `file` in `filesystem`), 0 not at all. `lower` is `text` lowercased.
 */
export function termMention(text: string, lower: string, term: string): 0 | 1 | 2 {
  let at = lower.indexOf(term);
  if (at < 0) return 0;
  while (at >= 0) {
    const end = at + term.length;
    // Identifier parts: `refill|Tokens`, `HTTP|Server` (an acronym ends before its last capital).
    const left =
      at === 0 || !isWordChar(text[at - 1]) || (isUpper(text[at]) && (!isUpper(text[at - 1]) || isLower(text[at + 1])));
    const right =
      end >= text.length ||
      !isWordChar(text[end]) ||
      (isUpper(text[end]) && (isLower(text[end - 1]) || isLower(text[end + 1])));
    if (left && right) return 2;
    at = lower.indexOf(term, at + 1);
  }
  return 1;
}

const TRIPLE_QUOTES = ['"""', "'''"] as const;

/**
 * Which rows lie in a triple-quoted string (a Python docstring, a multi-line string in
 * Kotlin, Swift, Julia): prose like a comment, never the code. Tracked from the first row
 * given, so a span that starts inside such a string sees its rest as code.
 */
function tripleQuotedRows(rows: readonly SourceRow[]): boolean[] {
  let open: string | undefined;
  return rows.map((row) => {
    const text = row.text;
    const trimmed = text.trimStart();
    const prose = open !== undefined || TRIPLE_QUOTES.some((q) => trimmed.startsWith(q));
    for (let i = 0; i < text.length;) {
      if (open !== undefined) {
        const close = text.indexOf(open, i);
        if (close < 0) break;
        open = undefined;
        i = close + 3;
        continue;
      }
      const next = TRIPLE_QUOTES.map((q) => text.indexOf(q, i)).filter((j) => j >= 0);
      if (next.length === 0) break;
      const j = Math.min(...next);
      open = text.slice(j, j + 3);
      i = j + 3;
    }
    return prose;
  });
}

/** Which rows of code are commentary: comment lines and lines of triple-quoted strings. */
export function commentaryRows(rows: readonly SourceRow[]): boolean[] {
  const quoted = tripleQuotedRows(rows);
  return rows.map((row, i) => quoted[i] || isCommentLine(row.text));
}

export interface SnippetOptions {
  /** A document (docs origin): no line of it is a comment. */
  readonly prose?: boolean;
  /**
   * A word as the query spells it (`Session`): a row holding it so spelled, as a whole
   * identifier, beats every row that does not, whatever they score. `self.session =
   * session` had stood for SQLAlchemy's `search Session` (an agent trial).
   */
  readonly spelled?: string;
}

/** Whether `text` holds `word` case-sensitively with no identifier character on either side. */
export function spellsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if (!IDENTIFIER_CHAR.test(before ?? ' ') && !IDENTIFIER_CHAR.test(after ?? ' ')) return true;
  }
  return false;
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * The row mentioning the most distinct `terms` (lowercase; case-insensitive), or undefined
 * when no row mentions any. A term counts fully as a whole word or identifier part, half
 * inside a longer word (termMention). A code line beats a comment line that mentions one
 * more term (a comment needs two more); a line of a triple-quoted string is a comment
 * here. In `prose` (a document: Markdown, text) no line is a comment: `# Rate limiting`
 * is a heading. With `spelled`, rows holding it so come first. Ties go to the earliest
 * line. The text is the row's display text trimmed and cut
 * to SNIPPET_MAX_CHARS characters around the first match.
 */
export function pickSnippet(
  rows: readonly SourceRow[],
  terms: readonly string[],
  options: SnippetOptions = {},
): Snippet | undefined {
  const wanted = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
  if (wanted.length === 0) return undefined;
  const commentary = options.prose ? undefined : commentaryRows(rows);
  const spelled = options.spelled;
  let best: { row: SourceRow; score: number; spelled: boolean } | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const lower = row.text.toLowerCase();
    let mentions = 0;
    for (const term of wanted) mentions += termMention(row.text, lower, term);
    if (mentions === 0) continue;
    // Scores: code with n whole terms = 2n + 3 > comment with n + 1 = 2n + 2, < comment with n + 2.
    const score = mentions + (commentary?.[i] ? 0 : 3);
    const holds = spelled !== undefined && spellsWord(row.text, spelled);
    if (best === undefined || (holds && !best.spelled) || (holds === best.spelled && score > best.score))
      best = { row, score, spelled: holds };
  }
  if (best === undefined) return undefined;
  return { line: best.row.line, text: cutSnippet(best.row.text.trim(), wanted) };
}

/**
 * At most SNIPPET_MAX_CHARS characters (code points) of `text`, containing the first matching
 * term, with `…` at each cut end. Escape sequences (`\xNN`, `\u{…}`, `\\`) are never split.
 */
export function cutSnippet(text: string, terms: readonly string[]): string {
  const units = text.match(/\\x[0-9A-F]{2}|\\u\{[0-9A-F]+\}|\\\\|[\s\S]/gu) ?? [];
  const widths = units.map((u) => (u.length === 1 || !u.startsWith('\\') ? 1 : u.length));
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= SNIPPET_MAX_CHARS) return text;

  const { first, last } = firstMatchUnits(units, text.toLowerCase(), terms);
  // Window from the line start, when the first match fits in it.
  let taken = 0;
  let end = 0;
  while (end < units.length && taken + widths[end] <= SNIPPET_MAX_CHARS - 1) taken += widths[end++];
  if (last < end) return units.slice(0, end).join('') + ELLIPSIS;

  // Otherwise start a little before the match, cut at both ends.
  let start = first;
  let before = 0;
  while (start > 0 && before + widths[start - 1] <= LEADING_CONTEXT) before += widths[--start];
  taken = 0;
  end = start;
  while (end < units.length && taken + widths[end] <= SNIPPET_MAX_CHARS - 2) taken += widths[end++];
  if (end < units.length) return ELLIPSIS + units.slice(start, end).join('') + ELLIPSIS;
  // The window reaches the line end: use the room of the unneeded trailing marker.
  taken = 0;
  start = units.length;
  while (start > 0 && taken + widths[start - 1] <= SNIPPET_MAX_CHARS - 1) taken += widths[--start];
  return ELLIPSIS + units.slice(start).join('');
}

/**
 * Unit indexes of the first occurrence of the first term (in the caller's order) that the
 * line contains. Callers list the most specific term first (the whole identifier before
 * its split words), so a window around `f12345` is not anchored on a stray `f`.
 */
function firstMatchUnits(
  units: readonly string[],
  lower: string,
  terms: readonly string[],
): { first: number; last: number } {
  let at = -1;
  let length = 0;
  for (const term of terms) {
    const i = term ? lower.indexOf(term) : -1;
    if (i >= 0) {
      at = i;
      length = term.length;
      break;
    }
  }
  if (at < 0) return { first: 0, last: 0 };
  // Map code-unit offsets to unit indexes (lowercasing rarely changes lengths; clamp if so).
  let offset = 0;
  let first = -1;
  let last = units.length - 1;
  for (let u = 0; u < units.length; u++) {
    const next = offset + units[u].length;
    if (first < 0 && next > at) first = u;
    if (next >= at + length) {
      last = u;
      break;
    }
    offset = next;
  }
  return { first: Math.max(first, 0), last: Math.max(last, Math.max(first, 0)) };
}
