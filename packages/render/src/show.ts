// `show` responses (docs/spec/retrieval.md §6): whole source rows within the budget, with a continuation.

import { escapeCodePoint, escapeLineField, FIELD, hasUnsafeText, isUnsafeCodePoint, jsonLine } from './escape';
import { budgetTooSmall, largestFitting, normalizeBudget, type OutputFormat, type RenderResult } from './fit';
import { SHOW_MAX_ROWS } from './limits';
import { printedPath } from './path';
import type { SourceRow } from './rows';
import { printedLines } from './span';
import { withinBudget } from './tokens';

export interface ShowInput {
  handle?: string;
  member?: string;
  /** Root-relative path in its stored (percent-encoded) form; printed by printedPath. */
  path: string;
  /** File URI, already percent-encoded. */
  uri: string;
  /** Content revision (SHA-256 of the bytes read; for a Git object, its object id). */
  revision: string;
  /** `git object`: bytes of a commit's blob, hashed and equal to its object id (history verbs). */
  verified: 'revision' | 'current file' | 'git object';
  name?: string;
  /** The definition an unnamed span lies in (a search hit's `in mapassign`): the lines header says it too. */
  within?: string;
  kind?: string;
  /**
   * Lines of the whole thing shown (`show sym:`: the definition) when the rows are only its
   * head: the lines header names it; JSON keeps start_line/end_line for the rows and adds
   * `extent`.
   */
  extent?: { readonly startLine: number; readonly endLine: number };
  /** Rows to show, in order (from splitRows), where a FoldedRows may stand for several. */
  rows: readonly ShownRow[];
  /** Continuation for the rows not shown, starting at that byte of the file. */
  continuation: (nextRowStartByte: number) => string;
  /** Continuation to emit when every row fits but the caller knows more remains. */
  next?: string;
  /** Line and byte reported when `rows` is empty (default 1 and 0). */
  emptyLine?: number;
  emptyStart?: number;
  /**
   * Navigation context after the rows (`show sym:`: definitions, imports, also): JSON
   * keys, and in lines format one `key: value` line per string of each list. Counted in
   * the budget like everything else; never replaces a field above.
   */
  extra?: Readonly<Record<string, unknown>>;
  /** Lines-format rendering of `extra`: each entry is printed as `key: text`. */
  extraLines?: readonly (readonly [string, string])[];
}

/**
 * Lines a definition read (`show sym:`) leaves out in place, such as the rest of a long
 * Python docstring: one marker row stands for `line`..`endLine` (bytes `start`..`end`) and
 * names the exact read that prints them. Exact reads (`show HANDLE`, `show path:`) never fold.
 */
export interface FoldedRows {
  readonly line: number;
  readonly endLine: number;
  readonly start: number;
  readonly end: number;
  /** What the lines are, e.g. `docstring`. */
  readonly folded: string;
  /** The command that prints them, e.g. `show path:flask/helpers.py:222-255`. */
  readonly read: string;
}

export type ShownRow = SourceRow | FoldedRows;

export function isFolded(row: ShownRow): row is FoldedRows {
  return 'folded' in row;
}

/**
 * Renders up to SHOW_MAX_ROWS whole rows within `budget` tokens of the complete stdout, and
 * `next` = continuation(start of the first omitted row) when rows remain (else input.next).
 */
export function renderShow(input: ShowInput, opts: { format: OutputFormat; budget: number }): RenderResult {
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return { stdout: '', shown: 0 };
  const max = Math.min(SHOW_MAX_ROWS, input.rows.length);
  const nextFor = (count: number): string | undefined =>
    count < input.rows.length ? input.continuation(input.rows[count].start) : input.next;
  const render = (count: number): string => {
    const next = nextFor(count);
    return opts.format === 'json' ? showJson(input, count, next) : showLines(input, count, next);
  };
  const result = (count: number): RenderResult => {
    const next = nextFor(count);
    return { stdout: render(count), shown: count, ...(next !== undefined ? { next } : {}) };
  };

  if (max === 0) {
    const empty = render(0);
    if (withinBudget(empty, budget)) return result(0);
    return budgetTooSmall(empty, budget, opts.format, 'this response');
  }
  const count = largestFitting(max, (n) => withinBudget(render(n), budget));
  if (count > 0) return result(count);
  return budgetTooSmall(render(1), budget, opts.format, 'one row');
}

function span(input: ShowInput, count: number): { startLine: number; endLine: number; start: number; end: number } {
  if (count === 0) {
    const line = input.emptyLine ?? 1;
    const at = input.emptyStart ?? 0;
    return { startLine: line, endLine: line, start: at, end: at };
  }
  const first = input.rows[0];
  const last = input.rows[count - 1];
  return {
    startLine: first.line,
    endLine: isFolded(last) ? last.endLine : last.line,
    start: first.start,
    end: last.end,
  };
}

function showJson(input: ShowInput, count: number, next: string | undefined): string {
  const { startLine, endLine, start, end } = span(input, count);
  const out: Record<string, unknown> = {};
  if (input.handle !== undefined) out.handle = input.handle;
  if (input.member !== undefined) out.member = input.member;
  out.path = printedPath(input.path);
  out.uri = input.uri;
  out.revision = input.revision;
  out.verified = input.verified;
  if (input.name !== undefined) out.name = input.name;
  else if (input.within !== undefined) out.within = input.within;
  if (input.kind !== undefined) out.kind = input.kind;
  out.start_line = startLine;
  out.end_line = endLine;
  out.start = start;
  out.end = end;
  out.rows = input.rows.slice(0, count).map((row) => {
    if (isFolded(row))
      return {
        line: row.line,
        end_line: row.endLine,
        start: row.start,
        end: row.end,
        folded: row.folded,
        read: row.read,
      };
    const shown: Record<string, unknown> = { line: row.line, start: row.start, end: row.end, text: row.text };
    if (row.escaped) shown.escaped = true;
    return shown;
  });
  if (input.extent !== undefined) out.extent = { start_line: input.extent.startLine, end_line: input.extent.endLine };
  if (next !== undefined) out.next = next;
  for (const [key, value] of Object.entries(input.extra ?? {})) if (!(key in out)) out[key] = value;
  return jsonLine(out);
}

/** `HANDLE  PATH:A-B  [NAME]` (a handle read) or `path:PATH:A-B` (current bytes; `:A` for one line), then rows. */
function showLines(input: ShowInput, count: number, next: string | undefined): string {
  const { startLine, endLine } = input.extent ?? span(input, count);
  const where = escapeLineField((input.member !== undefined ? input.member + '/' : '') + printedPath(input.path));
  let out =
    (input.handle !== undefined ? escapeLineField(input.handle) + FIELD : 'path:') +
    `${where}:${printedLines(startLine, endLine)}` +
    (input.handle !== undefined && input.name !== undefined ? FIELD + escapeLineField(input.name) : '') +
    // As the search hit line said it (`in mapassign`): an agent trial found the show of
    // such a hit silent about the function its rows belong to.
    (input.handle !== undefined && input.name === undefined && input.within !== undefined
      ? `${FIELD}in ${escapeLineField(input.within)}`
      : '') +
    '\n';
  for (const row of input.rows.slice(0, count)) {
    if (isFolded(row)) {
      const lines = row.endLine - row.line + 1;
      out += `${row.line}-${row.endLine}\t… ${lines} ${escapeLineField(row.folded)} lines (${escapeLineField(row.read)})\n`;
      continue;
    }
    // splitRows text is display-escaped already (only tabs stay raw); rows built elsewhere
    // are re-checked so that no row can add a line or drive the terminal.
    // `N<TAB>TEXT`, as `cat -n` separates them: the tab costs one token where `: ` cost
    // two, about 9% of a read of code (measured on the agent replay's rows).
    out += `${row.line}${row.escaped ? '!' : ''}\t${safeRowText(row.text)}\n`;
  }
  if (next !== undefined) out += `next: show ${escapeLineField(next)}\n`;
  for (const [key, text] of input.extraLines ?? []) out += `${escapeLineField(key)}: ${escapeLineField(text)}\n`;
  return out;
}

function safeRowText(text: string): string {
  if (!hasUnsafeText(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    out += isUnsafeCodePoint(cp) ? escapeCodePoint(cp) : ch;
  }
  return out;
}
