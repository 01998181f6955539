// The hunks of a file's change that lie outside every listed definition change, pure:
// `diff REV` lists definitions first, then these (an import, a comment between
// functions, a document). Git's `-U0` hunks of the whole file's diff are taken; one whose
// lines touch a listed change's lines (its new side the change's after lines, its old
// side the before lines) belongs to that definition; the rest are joined when only a few
// unchanged lines separate them (as `git diff` joins hunks whose context meets) and none
// of those lines is a definition's: an unchanged function is never inside such a hunk.
import { hunksOf, type EditScript } from './diff';
import { DIFF_HUNK_JOIN_LINES } from './limits';
import type { LineRange } from './ranges';
import type { DefChange } from './since-match';

export interface OutsideHunk {
  /** Old-side lines (empty, `end = start - 1`, for a pure insertion after line `end`). */
  readonly before: LineRange;
  /** New-side lines (empty for a pure deletion). */
  readonly after: LineRange;
  readonly added: number;
  readonly deleted: number;
  /** The two sides differ only in whitespace. */
  readonly whitespaceOnly: boolean;
}

const overlaps = (a: LineRange, b: LineRange) => a.start <= b.end && b.start <= a.end && a.end >= a.start && b.end >= b.start;
const squeeze = (lines: readonly string[]) => lines.join('\n').replace(/\s+/g, '');

/**
 * Hunks of `script` (old → new lines) outside every change in `changes`, in file order;
 * `definitions` are the new side's definition lines (none of them is joined into a hunk).
 */
export function outsideHunks(old: readonly string[], neu: readonly string[], script: EditScript, changes: readonly DefChange[], definitions: readonly LineRange[]): OutsideHunk[] {
  const raw = hunksOf(script).map((h) => ({
    before: h.b > 0 ? { start: h.a, end: h.a + h.b - 1 } : { start: h.a + 1, end: h.a },
    after: h.d > 0 ? { start: h.c, end: h.c + h.d - 1 } : { start: h.c + 1, end: h.c },
    added: h.d, deleted: h.b,
  }));
  const outside = raw.filter((h) => !changes.some((c) => (c.after !== undefined && overlaps(h.after, c.after)) || (c.before !== undefined && overlaps(h.before, c.before))));
  const joined: { before: LineRange; after: LineRange; added: number; deleted: number }[] = [];
  for (const h of outside) {
    const last = joined[joined.length - 1];
    // Unchanged lines between the two hunks (the same count on either side).
    const gap = last !== undefined ? { start: Math.max(last.after.end, last.after.start - 1) + 1, end: h.after.start - 1 } : undefined;
    if (last !== undefined && gap !== undefined && gap.end - gap.start + 1 <= DIFF_HUNK_JOIN_LINES && !definitions.some((d) => overlaps(d, gap))) {
      joined[joined.length - 1] = {
        before: { start: last.before.start, end: h.before.end }, after: { start: last.after.start, end: h.after.end },
        added: last.added + h.added, deleted: last.deleted + h.deleted,
      };
    } else joined.push({ ...h });
  }
  return joined.map((h) => {
    const a = old.slice(h.before.start - 1, Math.max(h.before.start - 1, h.before.end));
    const b = neu.slice(h.after.start - 1, Math.max(h.after.start - 1, h.after.end));
    return { ...h, whitespaceOnly: squeeze(a) === squeeze(b) };
  });
}
