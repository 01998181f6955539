// Hit spans (docs/spec/retrieval.md §4): what a hit points at is what an agent reads next, so it is the
// smallest enclosing definition of at most SPAN_DEFINITION_MAX_LINES lines that holds the
// best match, else a window of at most SPAN_WINDOW_MAX_LINES lines around it — never a
// storage region (those are up to 4 KB: 50–130 lines an agent pays for to find one line).

import {
  SPAN_DEFINITION_MAX_LINES,
  SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX,
  SPAN_WINDOW_LINES_BEFORE,
  SPAN_WINDOW_MAX_LINES,
} from './limits';
import { indentColumns } from './rows';
import { isCommentLine, isDecorationLine } from './snippet';

/** A definition's extent in displayed lines (1-based, inclusive), and optionally its half-open byte span. */
export interface LineExtent {
  readonly startLine: number;
  readonly endLine: number;
  readonly start?: number;
  readonly end?: number;
}

export type HitSpanChoice<D extends LineExtent> =
  | { readonly kind: 'definition'; readonly definition: D }
  | { readonly kind: 'window'; readonly startLine: number; readonly endLine: number };

/**
 * The span of a hit whose best match is on line `anchor` (at byte `anchorByte`, when
 * known) of a file of `lastLine` lines: the smallest definition of `definitions` that
 * holds the anchor and has at most SPAN_DEFINITION_MAX_LINES lines (ties: fewer bytes,
 * then the one starting last, the innermost), else a window of at most
 * SPAN_WINDOW_MAX_LINES lines starting a few lines above the anchor (lineWindow). With a byte anchor a
 * definition must hold that byte, so one line of minified code picks the right function.
 */
export function chooseHitSpan<D extends LineExtent>(
  anchor: number,
  definitions: readonly D[],
  lastLine: number,
  anchorByte?: number,
  indentOf?: IndentOf,
): HitSpanChoice<D> {
  let best: D | undefined;
  const bytes = (d: D) => (d.start !== undefined && d.end !== undefined ? d.end - d.start : 0);
  for (const d of definitions) {
    if (d.startLine > anchor || d.endLine < anchor) continue;
    if (
      anchorByte !== undefined &&
      d.start !== undefined &&
      d.end !== undefined &&
      (anchorByte < d.start || anchorByte >= Math.max(d.end, d.start + 1))
    )
      continue;
    const lines = d.endLine - d.startLine + 1;
    if (lines > SPAN_DEFINITION_MAX_LINES) continue;
    if (best === undefined) {
      best = d;
      continue;
    }
    const bestLines = best.endLine - best.startLine + 1;
    const smaller =
      lines < bestLines ||
      (lines === bestLines &&
        (bytes(d) < bytes(best) ||
          (bytes(d) === bytes(best) && (d.start ?? d.startLine) > (best.start ?? best.startLine))));
    if (smaller) best = d;
  }
  if (best) return { kind: 'definition', definition: best };
  return { kind: 'window', ...lineWindow(anchor, lastLine, indentOf) };
}

/** A line's indentation in columns, undefined for a blank line (the caller reads the file). */
export type IndentOf = (line: number) => number | undefined;

/**
 * At most SPAN_WINDOW_MAX_LINES lines of [1, lastLine] holding `anchor`, starting
 * SPAN_WINDOW_LINES_BEFORE lines above it: what follows a match (the body under a
 * signature, the value under a key) is what an agent reads on for, so the window leans
 * after it; near the end of the file it slides up to stay full. With `indentOf`, it starts
 * no lower than the line that opens the anchor's block (the nearest line above indented
 * less, at most SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX above): an agent trial's window on
 * fastify's body limit started inside `if (contentLength > limit) {`, two lines below it.
 */
export function lineWindow(
  anchor: number,
  lastLine: number,
  indentOf?: IndentOf,
): { startLine: number; endLine: number } {
  const last = Math.max(1, lastLine);
  const at = Math.min(Math.max(1, anchor), last);
  let startLine = Math.max(1, at - SPAN_WINDOW_LINES_BEFORE);
  const own = indentOf?.(at);
  if (indentOf && own !== undefined && own > 0) {
    for (let line = at - 1; line >= Math.max(1, at - SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX); line--) {
      const indent = indentOf(line);
      if (indent !== undefined && indent < own) {
        startLine = Math.min(startLine, line);
        break;
      }
    }
  }
  const endLine = Math.min(last, startLine + SPAN_WINDOW_MAX_LINES - 1);
  startLine = Math.max(1, Math.min(startLine, endLine - SPAN_WINDOW_MAX_LINES + 1));
  return { startLine, endLine };
}

/** A line's text without its line break, undefined outside the file (the caller reads it). */
export type LineTextOf = (line: number) => string | undefined;

/** A line closing a bracketed construct: it starts with a closing bracket or an `end` keyword. */
const CLOSING_LINE = /^\s*(?:[}\])]|end\b|<\/)/;

/**
 * The window of a match whose line opens a construct (an object property
 * `'engine-strict': new Definition(..., {`, a call with its arguments, a block, a YAML key
 * and its values) that closes within SPAN_WINDOW_MAX_LINES lines: from the match (and the
 * comments or decorators right above it, or the head of the block holding it) to the construct's closing line, or its last line
 * when it closes by indentation alone. Undefined when the match's line opens nothing (the
 * next non-blank line is not indented deeper) or the construct runs past the window: the
 * caller keeps lineWindow. Why: a fixed window around a key in a long object literal read
 * the three lines closing the previous key and the first of the next one (the agent
 * replay's npm `engine-strict`: `definitions.js:593-608` for the 12 lines of 596-607).
 */
export function constructWindow(
  anchor: number,
  lastLine: number,
  textOf: LineTextOf,
): { startLine: number; endLine: number } | undefined {
  const indentAt = (line: number): number | undefined => {
    const text = textOf(line);
    return text === undefined ? undefined : indentColumns(text);
  };
  const own = indentAt(anchor);
  if (own === undefined) return undefined;
  const limit = Math.min(lastLine, anchor + SPAN_WINDOW_MAX_LINES - 1);
  let next = anchor + 1;
  while (next <= limit && indentAt(next) === undefined) next++;
  const firstIndent = next <= limit ? indentAt(next) : undefined;
  if (firstIndent === undefined || firstIndent <= own) return undefined;
  let lastInside = next;
  let endLine: number | undefined;
  for (let line = next + 1; line <= limit; line++) {
    const indent = indentAt(line);
    if (indent === undefined) continue;
    if (indent > own) {
      lastInside = line;
      continue;
    }
    endLine = CLOSING_LINE.test(textOf(line) ?? '') ? line : lastInside;
    break;
  }
  if (endLine === undefined) return undefined;
  let startLine = anchor;
  // The head of the block holding the match, right above it, says when the construct runs
  // (`if (contentLength > limit) {` above `throw new Error(...)`).
  const above = indentAt(anchor - 1);
  if (above !== undefined && above < own && endLine - anchor + 2 <= SPAN_WINDOW_MAX_LINES) startLine = anchor - 1;
  while (startLine > 1 && endLine - startLine + 1 < SPAN_WINDOW_MAX_LINES && isLeading(textOf(startLine - 1)))
    startLine--;
  return { startLine, endLine };
}

const isLeading = (text: string | undefined): boolean =>
  text !== undefined && text.trim() !== '' && (isCommentLine(text) || isDecorationLine(text));

/**
 * A displayed line span as the lines format prints it: `START-END`, or `START` when it is
 * one line (`re_bytes.rs:78`, not `78-78`; docs/cli.md, "Output"). `show PATH:START` reads
 * it back as pasted.
 */
export function printedLines(startLine: number, endLine: number): string {
  return endLine === startLine ? `${startLine}` : `${startLine}-${endLine}`;
}
