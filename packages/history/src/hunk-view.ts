// The rows `show` prints for a change, pure: the target's lines on both sides aligned by
// the diff, each row marked ` ` (unchanged), `+` (added, numbered on the new side) or
// `-` (deleted, numbered on the old side), and unchanged stretches far from any change
// folded into one `…` row.
import { lineStarts, splitRows, type SourceRow } from '@trufflepig/render';
import { diffLines } from './diff';
import { HUNK_CONTEXT_LINES } from './limits';
import type { LineRange } from './ranges';

export type HunkRow =
  | { readonly mark: ' ' | '+' | '-'; readonly line: number; readonly text: string; readonly escaped: boolean }
  /** `count` unchanged lines folded, from new-side line `line` on. */
  | { readonly mark: '…'; readonly line: number; readonly count: number };

export interface HunkView {
  readonly rows: readonly HunkRow[];
  readonly added: number;
  readonly deleted: number;
  /** The diff hit its bounds: the rows are a correct change, not the smallest one. */
  readonly approximate: boolean;
}

/** The display rows of `range` of `bytes` (whole lines, break of the last one included). */
export function rowsOfRange(bytes: Buffer, range: LineRange): SourceRow[] {
  if (range.end < range.start) return [];
  const starts = lineStarts(bytes);
  const from = starts[range.start - 1] ?? bytes.length;
  const to = range.end < starts.length ? starts[range.end] : bytes.length;
  return splitRows(bytes, from, Math.max(from, to), range.start).slice(0, range.end - range.start + 1);
}

/** Lines a file's bytes hold (a last line without a break counts; an empty file has none). */
export function lineCount(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  const starts = lineStarts(bytes);
  return bytes[bytes.length - 1] === 0x0a ? starts.length - 1 : starts.length;
}

/**
 * Unchanged runs keep HUNK_CONTEXT_LINES rows next to each change; the rest of a run
 * becomes one `…` row (only when that saves at least two rows). With no change at all,
 * the whole target is one `…` row.
 */
export function foldUnchanged(rows: readonly HunkRow[], context = HUNK_CONTEXT_LINES): HunkRow[] {
  const out: HunkRow[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i].mark !== ' ') {
      out.push(rows[i++]);
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j].mark === ' ') j++;
    const keepBefore = i === 0 ? 0 : context;
    const keepAfter = j === rows.length ? 0 : context;
    const folded = j - i - keepBefore - keepAfter;
    if (folded >= 2 || (folded > 0 && i === 0 && j === rows.length)) {
      out.push(...rows.slice(i, i + keepBefore));
      out.push({ mark: '…', line: rows[i + keepBefore].line, count: folded });
      out.push(...rows.slice(j - keepAfter, j));
    } else out.push(...rows.slice(i, j));
    i = j;
  }
  return out;
}

/** The change from `before` (undefined: nothing, the commit added the target) to `after`, as rows. */
export function hunkView(
  before: { readonly bytes: Buffer; readonly range: LineRange } | undefined,
  after: { readonly bytes: Buffer; readonly range: LineRange },
): HunkView {
  const old = before ? rowsOfRange(before.bytes, before.range) : [];
  const neu = rowsOfRange(after.bytes, after.range);
  const raw = (bytes: Buffer, r: SourceRow) => bytes.toString('latin1', r.start, r.end);
  const script = diffLines(
    old.map((r) => raw(before!.bytes, r)),
    neu.map((r) => raw(after.bytes, r)),
  );
  const rows: HunkRow[] = [];
  let added = 0;
  let deleted = 0;
  for (const op of script.ops) {
    if (op.kind === 'same')
      rows.push({ mark: ' ', line: neu[op.after].line, text: neu[op.after].text, escaped: neu[op.after].escaped });
    else if (op.kind === 'add') {
      added++;
      rows.push({ mark: '+', line: neu[op.after].line, text: neu[op.after].text, escaped: neu[op.after].escaped });
    } else {
      deleted++;
      rows.push({ mark: '-', line: old[op.before].line, text: old[op.before].text, escaped: old[op.before].escaped });
    }
  }
  return { rows: foldUnchanged(rows), added, deleted, approximate: script.approximate };
}
