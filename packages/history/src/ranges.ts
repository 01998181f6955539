// Following a line range back through one diff, pure: given the target's lines in a
// commit and that commit's `-U0` hunks against its parent, the target's lines in the
// parent and how much of the commit's change fell inside it (what `git log -L` tracks,
// computed here so merges and renames follow the same rule).
import type { Hunk } from './parse-log';

/** 1-based inclusive lines; `end < start` is empty. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface MappedRange {
  /** The target's lines in the parent; undefined when every line of it was added by the commit. */
  readonly before?: LineRange;
  /** Lines of the commit's new side inside the target. */
  readonly added: number;
  /** Lines of the commit's old side the target replaced or lost. */
  readonly deleted: number;
}

/** Last new-side line a hunk leaves above what follows it (for d = 0, git's c is the line before the deletion). */
function newEnd(h: Hunk): number {
  return h.d > 0 ? h.c + h.d - 1 : h.c;
}

type Place = { readonly kind: 'same'; readonly line: number } | { readonly kind: 'added'; readonly hunk: Hunk };

/** Where a new-side line came from: an old line (shifted by the hunks above it), or a hunk that added it. */
function placeOf(line: number, hunks: readonly Hunk[]): Place {
  let shift = 0;
  for (const h of hunks) {
    if (h.d > 0 && line >= h.c && line <= newEnd(h)) return { kind: 'added', hunk: h };
    if (newEnd(h) < line) shift += h.b - h.d;
  }
  return { kind: 'same', line: line + shift };
}

/**
 * The target `range` (lines of the commit's version) in the parent, with the commit's
 * added and deleted lines inside it. A hunk that replaces lines at an edge of the range
 * brings all its old lines into the parent's range (and counts them as deleted); a pure
 * deletion counts when it lies strictly inside the range. `hunks` are in file order.
 */
export function mapRangeBack(range: LineRange, hunks: readonly Hunk[]): MappedRange {
  if (range.end < range.start) return { added: 0, deleted: 0 };
  let added = 0;
  let deleted = 0;
  for (const h of hunks) {
    if (h.d > 0) {
      const lo = Math.max(h.c, range.start);
      const hi = Math.min(newEnd(h), range.end);
      if (lo <= hi) {
        added += hi - lo + 1;
        deleted += h.b;
      }
    } else if (h.c >= range.start && h.c < range.end) deleted += h.b;
  }
  const first = placeOf(range.start, hunks);
  const last = placeOf(range.end, hunks);
  const start = first.kind === 'same' ? first.line : first.hunk.b > 0 ? first.hunk.a : first.hunk.a + 1;
  const end = last.kind === 'same' ? last.line : last.hunk.b > 0 ? last.hunk.a + last.hunk.b - 1 : last.hunk.a;
  return start <= end ? { before: { start, end }, added, deleted } : { added, deleted };
}

/** The hunks of a whole-file target: everything the commit changed in the file. */
export function wholeFileCounts(hunks: readonly Hunk[]): { added: number; deleted: number } {
  return { added: hunks.reduce((n, h) => n + h.d, 0), deleted: hunks.reduce((n, h) => n + h.b, 0) };
}
