// A repair rewrites a text at the same length, so the tree of the text before it can be
// edited and handed to the parser: tree-sitter then re-lexes only around the changed runs
// and reuses the rest (docs/benchmarks.md, "Incremental re-parse of a repair").
import type Parser from 'tree-sitter';

export interface UnitRange {
  start: number;
  end: number;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * The runs of UTF-16 units where two texts of the same length differ, ascending. A run never
 * splits a surrogate pair: tree-sitter reads the text as code points, and an edit starting
 * or ending inside one would name half a character.
 */
export function changedRuns(before: string, after: string): UnitRange[] {
  if (before.length !== after.length) throw new Error('changedRuns: texts of different lengths');
  const runs: UnitRange[] = [];
  const n = before.length;
  for (let i = 0; i < n;) {
    if (before.charCodeAt(i) === after.charCodeAt(i)) {
      i++;
      continue;
    }
    let start = i;
    while (i < n && before.charCodeAt(i) !== after.charCodeAt(i)) i++;
    if (start > 0 && isLow(before.charCodeAt(start)) && isHigh(before.charCodeAt(start - 1))) start--;
    if (start > 0 && isLow(after.charCodeAt(start)) && isHigh(after.charCodeAt(start - 1))) start--;
    if (i < n && isHigh(before.charCodeAt(i - 1)) && isLow(before.charCodeAt(i))) i++;
    if (i < n && isHigh(after.charCodeAt(i - 1)) && isLow(after.charCodeAt(i))) i++;
    const last = runs[runs.length - 1];
    if (last && start <= last.end) last.end = i;
    else runs.push({ start, end: i });
  }
  return runs;
}

/**
 * `runs` (ascending, disjoint) joined across their narrowest gaps until at most `max` remain.
 * Each edit costs the binding a pass over every node object JavaScript holds of the tree
 * (a repair holds thousands), so hundreds of edits cost more than the parse they save.
 */
export function mergeRuns(runs: readonly UnitRange[], max: number): UnitRange[] {
  if (runs.length <= max) return runs.map((r) => ({ ...r }));
  const splits = runs
    .slice(1)
    .map((r, k) => ({ width: r.start - runs[k].end, after: k }))
    .sort((x, y) => y.width - x.width || x.after - y.after)
    .slice(0, Math.max(0, max - 1))
    .map((g) => g.after)
    .sort((x, y) => x - y);
  const out: UnitRange[] = [];
  let from = 0;
  for (const k of [...splits, runs.length - 1]) {
    out.push({ start: runs[from].start, end: runs[k].end });
    from = k + 1;
  }
  return out;
}

/**
 * Same-length edits of `text` over `ranges` (ascending), in the units node tree-sitter takes
 * from a JavaScript string: indexes and columns in UTF-16 units (the binding doubles them
 * into bytes of its UTF-16 input), rows counted at `\n` only, as tree-sitter counts them.
 */
export function sameLengthEdits(text: string, ranges: readonly UnitRange[]): Parser.Edit[] {
  let row = 0;
  let lineStart = 0;
  let at = 0;
  const point = (index: number): Parser.Point => {
    for (; at < index; at++)
      if (text.charCodeAt(at) === 10) {
        row++;
        lineStart = at + 1;
      }
    return { row, column: index - lineStart };
  };
  return ranges.map(({ start, end }) => {
    const startPosition = point(start);
    const endPosition = point(end);
    return {
      startIndex: start,
      oldEndIndex: end,
      newEndIndex: end,
      startPosition,
      oldEndPosition: endPosition,
      newEndPosition: endPosition,
    };
  });
}
