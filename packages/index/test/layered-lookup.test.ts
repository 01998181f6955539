// The lookup a reader hands to the reader of the next generation (query/layered-lookup.ts).
import { LayeredLookup } from '../src/query/layered-lookup';

describe('LayeredLookup', () => {
  const base = LayeredLookup.of<string, number>([
    ['a', 1],
    ['b', 2],
  ]);

  it('answers the base, then each change over it, leaving earlier lookups as they were', () => {
    const next = base.with(['b'], [['c', 3]], 10)!;
    expect([next.get('a'), next.get('b'), next.get('c')]).toEqual([1, undefined, 3]);
    const after = next.with(
      ['a'],
      [
        ['b', 20],
        ['a', 10],
      ],
      10,
    )!;
    // A key removed and added again holds its new value.
    expect([after.get('a'), after.get('b'), after.get('c')]).toEqual([10, 20, 3]);
    expect([base.get('a'), base.get('b'), base.get('c')]).toEqual([1, 2, undefined]);
    expect([next.get('a'), next.get('b')]).toEqual([1, undefined]);
    // Its overlay holds the three keys changed since the base (a, b, c): a fourth outgrows a bound of 3, a changed one does not.
    expect(after.with([], [['d', 4]], 3)).toBeUndefined();
    expect(after.with([], [['a', 5]], 3)?.get('a')).toBe(5);
  });

  it('declines once its changes would outgrow the overlay bound', () => {
    const one = base.with([], [['x', 9]], 1)!;
    expect(one.get('x')).toBe(9);
    expect(one.with([], [['y', 8]], 1)).toBeUndefined();
  });
});
