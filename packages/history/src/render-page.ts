// Pages of `hist` and `blame` (lines and JSON), fitted to the budget like every page:
// a header naming the target and the set once (`show SET:N` reads row N), one short row
// per commit or run, the coverage line, and `next: more CURSOR` when rows remain.
import {
  escapeLineField,
  FIELD,
  fitRowPage,
  jsonLine,
  printedPath,
  rowPageFooter,
  rowPageNote,
  type OutputFormat,
  type SetRowsPage,
} from '@trufflepig/render';
import { changeOf, formatCursor, formatHandle, type ChangeRecord, type ResultEntry } from '@trufflepig/result-cache';
import { HISTORY_PAGE_ROWS_MAX, SUBJECT_ROW_MAX_CHARS } from './limits';

export type HistoryVerb = 'hist' | 'blame' | 'since';

export interface HistoryPageInput extends SetRowsPage<ResultEntry> {
  readonly verb: HistoryVerb;
  /** The target as the header names it (`src/bucket.ts:12-41 refill`). */
  readonly target: string;
  /** Lines of the header after the first (hist: the uncommitted change inside the target). */
  readonly notes: readonly string[];
  /** How the root names a change's top-level path (for `moved from`). */
  readonly printPath: (encodedTopPath: string) => string;
  /** `since`: words after a file's path line (`new file`, `staged, unstaged`), by printed path. */
  readonly fileNotes?: Readonly<Record<string, string>>;
}

/** A `since` row's status, from its record: no before side (added), an empty after side (removed), else changed. */
export function sinceStatus(c: ChangeRecord): 'added' | 'removed' | 'changed' {
  if (c.before === undefined) return 'added';
  return (c.after.end_line ?? 0) < (c.after.start_line ?? 0) ? 'removed' : 'changed';
}

/** A `since` row (also a `diff` definition's): status mark, kind and name, lines, size. */
export function sinceRow(e: ResultEntry): string {
  const c = changeOf(e)!;
  const counts = `+${c.added ?? 0} -${c.deleted ?? 0}`;
  if (c.whole_file) return `file ${counts}`;
  const what = `${e.kind ?? 'definition'} ${e.name ?? ''}`.trim();
  const status = sinceStatus(c);
  if (status === 'removed') return `- ${what} (was ${c.before?.start_line}-${c.before?.end_line}) -${c.deleted ?? 0}`;
  return `${status === 'added' ? '+' : '~'} ${what} ${e.start_line}-${e.end_line} ${c.whitespace_only ? 'whitespace only' : counts}`;
}

const short = (id: string) => id.slice(0, 7);

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function fromText(input: HistoryPageInput, c: ChangeRecord): string {
  const b = c.before;
  const where = b
    ? `${printedPath(input.printPath(b.path))}${b.start_line !== undefined ? `:${b.start_line}-${b.end_line}` : ''}`
    : '';
  if (c.event === 'moved') return ` (moved from ${where})`;
  if (c.event === 'renamed') return ` (renamed from ${where})`;
  if (c.event === 'added') return ' (added)';
  if (c.event === 'boundary') return ' (shallow clone: history starts here)';
  return c.merge ? ' (merge)' : '';
}

function histRow(input: HistoryPageInput, e: ResultEntry): string {
  const c = changeOf(e)!;
  return `${c.date.slice(0, 10)} ${short(c.commit)} +${c.added ?? 0} -${c.deleted ?? 0} ${cut(c.subject, SUBJECT_ROW_MAX_CHARS)}${fromText(input, c)}`;
}

function blameRow(e: ResultEntry): string {
  const lines = `${e.start_line}-${e.end_line}`;
  const c = changeOf(e);
  if (c === undefined) return `${lines} uncommitted`;
  return `${lines} ${short(c.commit)} ${c.date.slice(0, 10)} ${cut(c.subject, SUBJECT_ROW_MAX_CHARS)}${c.event === 'boundary' ? ' (shallow clone: history starts here)' : ''}`;
}

/** A `since` (or `diff`) hit's JSON fields after its handle and lines: name, kind, status, sizes, its lines at REV. */
export function sinceHitFields(e: ResultEntry, printPath: (encodedTopPath: string) => string): Record<string, unknown> {
  const c = changeOf(e)!;
  const b = c.before;
  return {
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.kind !== undefined ? { kind: e.kind } : {}),
    status: sinceStatus(c),
    ...(c.whole_file ? { file: true } : {}),
    added: c.added ?? 0,
    deleted: c.deleted ?? 0,
    ...(c.whitespace_only ? { whitespace_only: true } : {}),
    ...(b ? { before: { path: printedPath(printPath(b.path)), start_line: b.start_line, end_line: b.end_line } } : {}),
  };
}

function hitJson(input: HistoryPageInput, e: ResultEntry, handle: string): Record<string, unknown> {
  const c = changeOf(e);
  const base = {
    ...(e.member !== undefined ? { member: e.member } : {}),
    handle,
    path: printedPath(e.path),
    start_line: e.start_line,
    end_line: e.end_line,
  };
  if (c === undefined) return { ...base, uncommitted: true };
  const b = c.before;
  if (input.verb === 'since') return { ...base, ...sinceHitFields(e, input.printPath) };
  return {
    ...base,
    commit: c.commit,
    date: c.date,
    subject: c.subject,
    ...(input.verb === 'hist' ? { added: c.added ?? 0, deleted: c.deleted ?? 0 } : {}),
    ...(input.verb === 'blame'
      ? {
          commit_lines: {
            path: printedPath(input.printPath(c.after.path)),
            start_line: c.after.start_line,
            end_line: c.after.end_line,
          },
        }
      : {}),
    ...(c.event !== undefined ? { event: c.event } : {}),
    ...(c.merge ? { merge: true } : {}),
    ...(input.verb === 'hist' && b && (c.event === 'moved' || c.event === 'renamed')
      ? {
          from: {
            path: printedPath(input.printPath(b.path)),
            ...(b.start_line !== undefined ? { start_line: b.start_line, end_line: b.end_line } : {}),
          },
        }
      : {}),
  };
}

function pageJson(input: HistoryPageInput, count: number): string {
  return jsonLine({
    query: input.query,
    set: input.setId,
    target: input.target,
    ...(input.notes.length ? { notes: input.notes } : {}),
    hits: input.entries
      .slice(0, count)
      .map((e, i) => hitJson(input, e, formatHandle(input.setId, input.offset + i + 1))),
    coverage: input.coverage,
    ...(count < input.entries.length ? { next: formatCursor(input.setId, input.offset + count) } : {}),
    ...(input.truncated ? { truncated: true } : {}),
  });
}

function pageLines(input: HistoryPageInput, count: number, max: number): string {
  const noun = input.verb === 'blame' ? 'run' : input.verb === 'hist' ? 'change' : 'diff';
  let out = `${escapeLineField(input.query)} → ${escapeLineField(input.target)}${FIELD}(show ${input.setId}:N reads ${noun} N)\n`;
  for (const note of input.notes) out += `${escapeLineField(note)}\n`;
  let group = '';
  input.entries.slice(0, count).forEach((e, i) => {
    const row = input.offset + i + 1;
    if (input.verb !== 'blame') {
      const path = `${e.member !== undefined ? `${e.member}/` : ''}${printedPath(e.path)}`;
      if (path !== group) {
        const note = input.fileNotes?.[printedPath(e.path)];
        out += `${escapeLineField(path)}${note ? ` (${escapeLineField(note)})` : ''}\n`;
        group = path;
      }
      out += `${row} ${escapeLineField(input.verb === 'hist' ? histRow(input, e) : sinceRow(e))}\n`;
    } else out += `${row} ${escapeLineField(blameRow(e))}\n`;
  });
  return (
    out +
    rowPageFooter(
      input,
      count < input.entries.length ? formatCursor(input.setId, input.offset + count) : undefined,
      rowPageNote(input, count, max),
    )
  );
}

/** As many rows as `limit` and the budget allow; at least the header and footer, or a retry hint. */
export function renderHistoryPage(
  input: HistoryPageInput,
  opts: { readonly format: OutputFormat; readonly budget: number; readonly limit?: number },
): { stdout: string; stderr: string } {
  const max = Math.min(input.entries.length, opts.limit ?? HISTORY_PAGE_ROWS_MAX);
  return fitRowPage({
    format: opts.format,
    budget: opts.budget,
    max,
    render: (n) => (opts.format === 'json' ? pageJson(input, n) : pageLines(input, n, max)),
    setId: input.setId,
    tooSmallFor: { empty: `this ${input.verb} page`, oneRow: `one row of this ${input.verb} page` },
  });
}
