// `show` of a change handle, fitted to the budget: the hunk view (rows of hunk-view.ts,
// a continuation `HANDLE~ROW` for the rest), or with `--side before|after` the exact bytes
// of one side as `show` prints source rows (a continuation `HANDLE~BYTE --side SIDE`).
import { fileUri } from '@trufflepig/base';
import {
  budgetTooSmall,
  escapeLineField,
  FIELD,
  jsonLine,
  largestFitting,
  normalizeBudget,
  printedPath,
  renderShow,
  splitRows,
  lineStarts,
  withinBudget,
  type OutputFormat,
  type RenderResult,
} from '@trufflepig/render';
import type { ChangeRecord } from '@trufflepig/result-cache';
import type { ReadChange, ReadSide } from './change';
import { fail, ok, type Outcome } from './errors';
import { hunkView, type HunkRow, type HunkView } from './hunk-view';
import { CHANGE_SHOW_ROWS_MAX } from './limits';
import { encodedPath } from './repo';

export type ChangeSideName = 'before' | 'after';

export interface ChangeShowInput {
  readonly handle: string;
  readonly member?: string;
  readonly name?: string;
  readonly record: ChangeRecord;
  readonly read: ReadChange;
  /** How the root names a top-level path (a root below the top level strips its prefix). */
  readonly printPath: (encodedTopPath: string) => string;
}

const short = (id: string) => id.slice(0, 7);

function where(input: ChangeShowInput, side: ReadSide): string {
  return `${input.member !== undefined ? `${input.member}/` : ''}${printedPath(input.printPath(encodedPath(side.path)))}`;
}

/** What the commit did to the target beyond editing it, in words (lines format). */
function eventText(input: ChangeShowInput): string | undefined {
  const r = input.record;
  const b = input.read.before;
  const from = b ? `${where(input, b)}:${b.range.start}-${b.range.end}` : '';
  if (r.worktree !== undefined) {
    const words = [
      b === undefined
        ? `added since ${short(r.commit)}`
        : input.read.after.range.end < input.read.after.range.start
          ? `removed since ${short(r.commit)}`
          : `changed since ${short(r.commit)}`,
    ];
    if (b && b.path !== input.read.after.path) words.push(`was ${from}`);
    if (r.whitespace_only) words.push('whitespace only');
    return words.join('; ');
  }
  if (r.event === 'moved') return `moved from ${from}`;
  if (r.event === 'renamed') return `renamed from ${from}`;
  if (r.event === 'boundary') return 'history starts here (a shallow clone has no older commits)';
  if (r.event === 'added' || b === undefined) return 'added by this commit';
  return r.merge ? 'a merge: its change against the first parent' : undefined;
}

function sideJson(side: ReadSide, input: ChangeShowInput): Record<string, unknown> {
  return {
    path: printedPath(input.printPath(encodedPath(side.path))),
    start_line: side.range.start,
    end_line: side.range.end,
    ...(side.worktree ? { revision: side.oid, verified: 'revision' } : { blob: side.oid, verified: 'git object' }),
  };
}

/** A hunk row as JSON (`show`, and each change's rows on a `diff` page). */
export function rowJson(row: HunkRow): Record<string, unknown> {
  if (row.mark === '…') return { mark: row.mark, line: row.line, count: row.count };
  return { mark: row.mark, line: row.line, text: row.text, ...(row.escaped ? { escaped: true } : {}) };
}

/** A hunk row as a line: ` N<TAB>`, `+N<TAB>`, `-N<TAB>` (`N!` when escaped; the rows of `show` with a mark), or the folded `…` row. */
export function rowLine(row: HunkRow): string {
  if (row.mark === '…') return `… ${row.count} unchanged lines ${row.line}-${row.line + row.count - 1}\n`;
  // Rows are display-escaped already; a field escape keeps any stray break out.
  return `${row.mark}${row.line}${row.escaped ? '!' : ''}\t${escapeLineField(row.text)}\n`;
}

function render(input: ChangeShowInput, view: HunkView, from: number, count: number, format: OutputFormat): string {
  const r = input.record;
  const a = input.read.after;
  const next = from + count < view.rows.length ? `${input.handle}~${from + count}` : undefined;
  const rows = view.rows.slice(from, from + count);
  if (format === 'json') {
    return jsonLine({
      handle: input.handle,
      ...(input.member !== undefined ? { member: input.member } : {}),
      path: printedPath(input.printPath(encodedPath(a.path))),
      ...(input.name !== undefined ? { name: input.name } : {}),
      commit: r.commit,
      ...(r.parent !== undefined ? { parent: r.parent } : {}),
      date: r.date,
      subject: r.subject,
      added: view.added,
      deleted: view.deleted,
      ...(r.event !== undefined ? { event: r.event } : {}),
      ...(r.merge ? { merge: true } : {}),
      verified: a.worktree ? 'git object and revision' : 'git object',
      after: sideJson(a, input),
      ...(r.worktree !== undefined ? { since: r.commit } : {}),
      ...(r.whitespace_only ? { whitespace_only: true } : {}),
      ...(input.read.before ? { before: sideJson(input.read.before, input) } : {}),
      ...(view.approximate ? { approximate: true } : {}),
      rows: rows.map(rowJson),
      ...(next ? { next } : {}),
    });
  }
  let out =
    [
      escapeLineField(input.handle),
      `${escapeLineField(where(input, a))}:${a.range.start}-${a.range.end}`,
      ...(input.name !== undefined ? [escapeLineField(input.name)] : []),
      ...(r.worktree !== undefined
        ? [`since ${short(r.commit)}`, `+${view.added} -${view.deleted}`, 'working tree']
        : [`${short(r.commit)} ${r.date.slice(0, 10)}`, `+${view.added} -${view.deleted}`, escapeLineField(r.subject)]),
    ].join(FIELD) + '\n';
  const event = eventText(input);
  if (event) out += `change: ${escapeLineField(event)}\n`;
  if (view.approximate) out += 'diff: approximate (too large to align exactly)\n';
  for (const row of rows) out += rowLine(row);
  if (next) out += `next: show ${next}\n`;
  return out;
}

/** The hunk view of a change from row `from` on, within the budget; `bad_handle` for a row past its end. */
export function renderChange(
  input: ChangeShowInput,
  opts: { readonly format: OutputFormat; readonly budget: number; readonly from?: number },
): Outcome<RenderResult> {
  const view = hunkView(input.read.before, input.read.after);
  const from = opts.from ?? 0;
  if (from < 0 || (from > 0 && from >= view.rows.length))
    return fail(
      'bad_handle',
      `row ${from} is past the end of ${input.handle} (${view.rows.length} rows); use the next value exactly as printed`,
    );
  const budget = normalizeBudget(opts.budget);
  if (budget === 0) return ok({ stdout: '', shown: 0 });
  const max = Math.min(CHANGE_SHOW_ROWS_MAX, view.rows.length - from);
  const text = (n: number) => render(input, view, from, n, opts.format);
  if (max === 0)
    return ok(
      withinBudget(text(0), budget)
        ? { stdout: text(0), shown: 0 }
        : budgetTooSmall(text(0), budget, opts.format, 'this change'),
    );
  const count = largestFitting(max, (n) => withinBudget(text(n), budget));
  if (count === 0) return ok(budgetTooSmall(text(1), budget, opts.format, 'one row of this change'));
  return ok({
    stdout: text(count),
    shown: count,
    ...(from + count < view.rows.length ? { next: `${input.handle}~${from + count}` } : {}),
  });
}

/**
 * `show HANDLE --side before|after`: the exact bytes of that side's lines, verified (the
 * blob hashed to its id), as `show` prints source rows; `side_missing` for the before
 * side of a target the commit added.
 */
export function renderChangeSide(
  input: ChangeShowInput,
  side: ChangeSideName,
  opts: { readonly format: OutputFormat; readonly budget: number; readonly fromByte?: number },
): Outcome<RenderResult> {
  const s = side === 'after' ? input.read.after : input.read.before;
  if (s === undefined)
    return fail(
      'side_missing',
      `${input.handle}: commit ${short(input.record.commit)} added the target, so it has no before side; show ${input.handle} --side after`,
    );
  const starts = lineStarts(s.bytes);
  const begin = starts[s.range.start - 1] ?? s.bytes.length;
  const end = s.range.end < starts.length ? starts[s.range.end] : s.bytes.length;
  const from = opts.fromByte ?? begin;
  if (from < begin || from > end)
    return fail(
      'bad_handle',
      `byte ${from} lies outside ${input.handle}'s ${side} side; use the next value exactly as printed`,
    );
  const firstLine = starts.filter((at) => at <= from).length;
  const r = input.record;
  const commit = r.worktree !== undefined ? r.commit : side === 'after' ? r.commit : (r.parent ?? r.commit);
  const label = s.worktree ? 'working tree' : short(commit);
  const result = renderShow(
    {
      handle: input.handle,
      ...(input.member !== undefined ? { member: input.member } : {}),
      path: input.printPath(encodedPath(s.path)),
      uri: `${fileUri(input.read.top, encodedPath(s.path))}${s.worktree ? '' : `#commit=${commit}`}`,
      revision: s.oid,
      verified: s.worktree ? 'revision' : 'git object',
      ...(input.name !== undefined ? { name: input.name } : {}),
      rows: splitRows(s.bytes, from, Math.max(from, end), firstLine),
      continuation: (next: number) => `${input.handle}~${next} --side ${side}`,
      extra: { side, ...(s.worktree ? { worktree: true } : { commit }) },
      extraLines: [['side', `${side} (${label}, ${s.worktree ? 'revision' : 'blob'} ${s.oid.slice(0, 12)})`]],
    },
    { format: opts.format, budget: opts.budget },
  );
  return ok(result);
}
