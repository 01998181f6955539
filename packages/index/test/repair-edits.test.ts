// The edits that let a repair's rewrite be parsed from the tree it repairs (extract/edits.ts):
// runs of differing UTF-16 units, merged to a few, with the points tree-sitter counts.
import { changedRuns, mergeRuns, sameLengthEdits } from '../src/extract/edits';

describe('changedRuns', () => {
  it('finds each run of differing units, in order', () => {
    expect(changedRuns('abcdefgh', 'aXYdeZgh')).toEqual([
      { start: 1, end: 3 },
      { start: 5, end: 6 },
    ]);
    expect(changedRuns('same', 'same')).toEqual([]);
    expect(changedRuns('', '')).toEqual([]);
    expect(changedRuns('ab', 'XY')).toEqual([{ start: 0, end: 2 }]);
  });

  it('counts UTF-16 units, as the binding does, around non-ASCII text', () => {
    const before = '/* é 日本 */ __init int f(void);';
    const after = '/* é 日本 */        int f(void);';
    const at = before.indexOf('__init');
    expect(changedRuns(before, after)).toEqual([{ start: at, end: at + '__init'.length }]);
  });

  it('never splits a surrogate pair', () => {
    // U+1F600 and U+1F601 share their high surrogate: only the low one differs.
    expect(changedRuns('a😀b', 'a😁b')).toEqual([{ start: 1, end: 3 }]);
    // A run ending on a high surrogate takes its low one.
    expect(changedRuns('x\ud83d\ude00', 'y\ud83d\ude00')).toEqual([{ start: 0, end: 1 }]);
    expect(changedRuns('\ud83dx', '\ud83ey')).toEqual([{ start: 0, end: 2 }]);
    expect(changedRuns('a\ud83d\ude00', 'a\ud83e\ude00')).toEqual([{ start: 1, end: 3 }]);
  });

  it('refuses texts of different lengths', () => {
    expect(() => changedRuns('ab', 'abc')).toThrow(/different lengths/);
  });
});

describe('mergeRuns', () => {
  const runs = [
    { start: 0, end: 1 },
    { start: 10, end: 12 },
    { start: 13, end: 14 },
    { start: 50, end: 51 },
  ];

  it('keeps runs that are few enough, as copies', () => {
    const out = mergeRuns(runs, 4);
    expect(out).toEqual(runs);
    out[0].end = 99;
    expect(runs[0].end).toBe(1);
  });

  it('joins across the narrowest gaps first', () => {
    expect(mergeRuns(runs, 3)).toEqual([
      { start: 0, end: 1 },
      { start: 10, end: 14 },
      { start: 50, end: 51 },
    ]);
    expect(mergeRuns(runs, 2)).toEqual([
      { start: 0, end: 14 },
      { start: 50, end: 51 },
    ]);
    expect(mergeRuns(runs, 1)).toEqual([{ start: 0, end: 51 }]);
  });
});

describe('sameLengthEdits', () => {
  it('gives indexes and columns in UTF-16 units and rows at \\n only (a CR is a column)', () => {
    const text = 'ab\r\né😀x\r\nyz';
    const x = text.indexOf('x');
    const [a, b] = sameLengthEdits(text, [
      { start: x, end: x + 1 },
      { start: text.indexOf('z'), end: text.length },
    ]);
    expect(a).toEqual({
      startIndex: x,
      oldEndIndex: x + 1,
      newEndIndex: x + 1,
      startPosition: { row: 1, column: 3 },
      oldEndPosition: { row: 1, column: 4 },
      newEndPosition: { row: 1, column: 4 },
    });
    expect(b.startPosition).toEqual({ row: 2, column: 1 });
    expect(b.oldEndPosition).toEqual({ row: 2, column: 2 });
    expect(b.newEndIndex).toBe(text.length);
  });

  it('places an edit after a line break at column 0 of the next row', () => {
    const [e] = sameLengthEdits('a\nb', [{ start: 1, end: 3 }]);
    expect(e.startPosition).toEqual({ row: 0, column: 1 });
    expect(e.oldEndPosition).toEqual({ row: 1, column: 1 });
  });
});
