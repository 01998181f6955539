// Patching a reader's path-ordered rows (query/file-rows.ts): the splicing path and the
// merging path give what sorting the rows anew gives, on random edits.
import { patchRows } from '../src/query/file-rows';
import { SPLICED_ROW_CHANGES_MAX } from '../src/limits';
import { seededBelow } from './helpers';

interface Row {
  readonly path: string;
  readonly v: number;
}

const sorted = (rows: Row[]) => [...rows].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
const lower = (r: Row) => r.path.toUpperCase();

describe('patchRows', () => {
  it.each([3, SPLICED_ROW_CHANGES_MAX * 2])(
    'equals a fresh sort after %i changes, with its aligned values',
    (changes) => {
      const below = seededBelow(changes);
      const next = () => below(1_000_000) / 1_000_000;
      for (let round = 0; round < 20; round++) {
        const paths = new Set<string>();
        while (paths.size < 600) paths.add(`d${Math.floor(next() * 40)}/f${Math.floor(next() * 1000)}.c`);
        const previous = sorted([...paths].map((path, v) => ({ path, v })));
        const gone = previous.filter(() => next() < changes / 2 / previous.length);
        const goneSet = new Set(gone);
        const fresh: Row[] = [];
        // New paths, and rows changed in place (same path, a new row).
        for (let i = 0; fresh.length < changes / 2; i++) {
          const path = `d${Math.floor(next() * 40)}/n${round}_${i}.c`;
          if (!paths.has(path)) fresh.push({ path, v: -1 - i });
        }
        for (const g of gone.slice(0, 3)) fresh.push({ path: g.path, v: 10_000 + g.v });
        const expected = sorted([...previous.filter((r) => !goneSet.has(r)), ...fresh]);
        const out = patchRows(previous, previous.map(lower), gone, fresh, lower);
        expect(out.rows).toEqual(expected);
        expect(out.aligned).toEqual(expected.map(lower));
        expect(patchRows(previous, undefined, gone, fresh, lower).aligned).toBeUndefined();
      }
    },
  );

  it('leaves the lists it is given as they were', () => {
    const previous = [
      { path: 'a', v: 1 },
      { path: 'c', v: 2 },
    ];
    const aligned = ['A', 'C'];
    patchRows(previous, aligned, [previous[0]], [{ path: 'b', v: 3 }], lower);
    expect(previous.map((r) => r.path)).toEqual(['a', 'c']);
    expect(aligned).toEqual(['A', 'C']);
  });
});
