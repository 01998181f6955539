// Snippet choice (spec 4): the line of a hit's span mentioning the most distinct query terms.

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
 * The row mentioning the most distinct `terms` (lowercase; case-insensitive substring match),
 * or undefined when no row mentions any. A code line beats a comment line that mentions one
 * more term (a comment needs two more); ties go to the earliest line. The text is the row's
 * display text trimmed and cut to SNIPPET_MAX_CHARS characters around the first match.
 */
export function pickSnippet(
  rows: readonly SourceRow[],
  terms: readonly string[],
): Snippet | undefined {
  const wanted = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
  if (wanted.length === 0) return undefined;
  let best: { row: SourceRow; score: number } | undefined;
  for (const row of rows) {
    const lower = row.text.toLowerCase();
    let matched = 0;
    for (const term of wanted) if (lower.includes(term)) matched++;
    if (matched === 0) continue;
    // Scores: code n terms = 2n + 3 > comment n + 1 terms = 2n + 2, < comment n + 2 terms.
    const score = 2 * matched + (isCommentLine(row.text) ? 0 : 3);
    if (best === undefined || score > best.score) best = { row, score };
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
