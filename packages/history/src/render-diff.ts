// Pages of `diff REV` (lines and JSON), fitted to the budget: the header naming the set
// once, then each change (the definitions first, then the hunks outside them) as its
// `since`-style row followed by its hunk rows (the rows `show SET:N` prints), the coverage
// line, and `next: more CURSOR` when changes remain. A change whose rows do not all fit
// ends with `rest: show SET:N~ROW`, the continuation `show` reads.
import {
  budgetTooSmall,
  escapeLineField,
  FIELD,
  jsonLine,
  largestFitting,
  printedPath,
  rowPageFooter,
  setIdSlack,
  withinBudget,
  type OutputFormat,
  type SetRowsPage,
} from '@trufflepig/render';
import { changeOf, formatCursor, formatHandle, type ResultEntry } from '@trufflepig/result-cache';
import type { HunkView } from './hunk-view';
import { DIFF_ENTRY_ROWS_MAX, HISTORY_PAGE_ROWS_MAX } from './limits';
import { rowJson, rowLine } from './render-change';
import { sinceHitFields, sinceRow } from './render-page';

/** A change's rows, or why they cannot be read now (a `more` after the file changed). */
export type DiffView = HunkView | { readonly error: string };

export interface DiffPageInput extends SetRowsPage<ResultEntry> {
  /** What was compared, as the header names it. */
  readonly target: string;
  /** The rows of entries[i] (asked only for the entries a page prints). */
  readonly view: (i: number) => DiffView;
  /** How the root names a change's top-level path. */
  readonly printPath: (encodedTopPath: string) => string;
  /** Words after a file's path line (`untracked`, `staged, unstaged`), by printed path. */
  readonly fileNotes?: Readonly<Record<string, string>>;
}

/** A hunk outside every definition (`outside` of its change entry). */
export const isOutsideHunk = (e: ResultEntry): boolean => e.tag === 'change' && e.outside === true;

/** Added (nothing on the REV side), removed (nothing in the working tree) or changed. */
export function diffStatus(e: ResultEntry): 'added' | 'removed' | 'changed' {
  const c = changeOf(e)!;
  if ((c.after.end_line ?? 0) < (c.after.start_line ?? 0)) return 'removed';
  if (c.before === undefined || (c.before.end_line ?? 0) < (c.before.start_line ?? 0)) return 'added';
  return 'changed';
}

function hunkRow(e: ResultEntry): string {
  const c = changeOf(e)!;
  const counts = c.whitespace_only ? 'whitespace only' : `+${c.added ?? 0} -${c.deleted ?? 0}`;
  if (diffStatus(e) === 'removed') return `hunk (was ${c.before?.start_line}-${c.before?.end_line}) ${counts}`;
  return `hunk ${e.start_line}-${e.end_line} ${counts}`;
}

/** What a page prints: `count` whole changes, then maybe the first `partRows` rows of the next. */
interface Shape {
  readonly count: number;
  readonly partRows?: number;
}

function shownRows(view: DiffView, rows: number | undefined) {
  if ('error' in view) return { rows: [], cut: false };
  const max = Math.min(rows ?? DIFF_ENTRY_ROWS_MAX, DIFF_ENTRY_ROWS_MAX);
  return { rows: view.rows.slice(0, max), cut: view.rows.length > max };
}

function pageJson(input: DiffPageInput, shape: Shape, views: (i: number) => DiffView): string {
  const listed = shape.count + (shape.partRows !== undefined ? 1 : 0);
  const hits = input.entries.slice(0, listed).map((e, i) => {
    const handle = formatHandle(input.setId, input.offset + i + 1);
    const view = views(i);
    const { rows, cut } = shownRows(view, i === shape.count ? shape.partRows : undefined);
    return {
      ...(e.member !== undefined ? { member: e.member } : {}),
      handle,
      path: printedPath(e.path),
      start_line: e.start_line,
      end_line: e.end_line,
      ...sinceHitFields(e, input.printPath),
      status: diffStatus(e),
      section: isOutsideHunk(e) ? 'outside' : 'definition',
      ...('error' in view
        ? { error: view.error }
        : { rows: rows.map(rowJson), ...(view.approximate ? { approximate: true } : {}) }),
      ...(cut ? { rest: `${handle}~${rows.length}` } : {}),
    };
  });
  return jsonLine({
    query: input.query,
    set: input.setId,
    target: input.target,
    hits,
    coverage: input.coverage,
    ...(listed < input.entries.length ? { next: formatCursor(input.setId, input.offset + listed) } : {}),
    ...(input.truncated ? { truncated: true } : {}),
  });
}

function pageLines(input: DiffPageInput, shape: Shape, views: (i: number) => DiffView): string {
  let out = `${escapeLineField(input.query)} → ${escapeLineField(input.target)}${FIELD}(show ${input.setId}:N reads diff N)\n`;
  const listed = shape.count + (shape.partRows !== undefined ? 1 : 0);
  let group = '';
  let outside = false;
  input.entries.slice(0, listed).forEach((e, i) => {
    const row = input.offset + i + 1;
    if (isOutsideHunk(e) && !outside) {
      out += 'outside definitions:\n';
      outside = true;
      group = '';
    }
    const path = `${e.member !== undefined ? `${e.member}/` : ''}${printedPath(e.path)}`;
    if (path !== group) {
      const note = input.fileNotes?.[printedPath(e.path)];
      out += `${escapeLineField(path)}${note ? ` (${escapeLineField(note)})` : ''}\n`;
      group = path;
    }
    out += `${row} ${escapeLineField(isOutsideHunk(e) ? hunkRow(e) : sinceRow(e))}\n`;
    const view = views(i);
    if ('error' in view) {
      out += `cannot be read now: ${escapeLineField(view.error)}\n`;
      return;
    }
    const { rows, cut } = shownRows(view, i === shape.count ? shape.partRows : undefined);
    if (view.approximate) out += 'diff: approximate (too large to align exactly)\n';
    for (const r of rows) out += rowLine(r);
    if (cut) out += `rest: show ${formatHandle(input.setId, row)}~${rows.length}\n`;
  });
  return (
    out +
    rowPageFooter(input, listed < input.entries.length ? formatCursor(input.setId, input.offset + listed) : undefined)
  );
}

/**
 * As many whole changes as `limit` and the budget allow, then as many rows of the next
 * one as still fit; at least the header and footer, or a retry hint. Views are asked for
 * lazily and once each (a `more` reads each change back from Git).
 */
export function renderDiffPage(
  input: DiffPageInput,
  opts: { readonly format: OutputFormat; readonly budget: number; readonly limit?: number },
): { stdout: string; stderr: string } {
  const budget = Math.max(0, Math.floor(opts.budget));
  if (budget === 0) return { stdout: '', stderr: '' };
  const memo = new Map<number, DiffView>();
  const views = (i: number): DiffView => {
    let v = memo.get(i);
    if (v === undefined) memo.set(i, (v = input.view(i)));
    return v;
  };
  const render = (shape: Shape) =>
    opts.format === 'json' ? pageJson(input, shape, views) : pageLines(input, shape, views);
  const fits = (shape: Shape) => withinBudget(render(shape), budget);
  const max = Math.min(input.entries.length, opts.limit ?? HISTORY_PAGE_ROWS_MAX);
  const count = max === 0 ? 0 : largestFitting(max, (k) => fits({ count: k }));
  let shape: Shape = { count };
  if (count < max) {
    const next = views(count);
    const rows = 'error' in next ? 0 : Math.min(next.rows.length, DIFF_ENTRY_ROWS_MAX);
    // Part of the next change: its row, some of its hunk rows and where the rest is read.
    const part = rows > 1 ? largestFitting(rows - 1, (k) => fits({ count, partRows: k })) : 0;
    if (part > 0) shape = { count, partRows: part };
  }
  if (shape.count > 0 || shape.partRows !== undefined || max === 0) {
    const text = render(shape);
    if (withinBudget(text, budget)) return { stdout: text, stderr: '' };
  }
  // The least page that shows something: the first change's row and one of its rows, else the whole first change.
  const firstRows =
    max === 0
      ? 0
      : (() => {
          const v = views(0);
          return 'error' in v ? 0 : v.rows.length;
        })();
  const smallest = render(max === 0 ? { count: 0 } : firstRows > 1 ? { count: 0, partRows: 1 } : { count: 1 });
  const tooSmall = budgetTooSmall(
    smallest,
    budget,
    opts.format,
    max === 0 ? 'this diff page' : 'one change of this diff page',
    setIdSlack(input, smallest),
  );
  return { stdout: tooSmall.stdout, stderr: tooSmall.stderr ?? '' };
}
