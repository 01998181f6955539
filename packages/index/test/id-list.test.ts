// A file's name ids are stored as one id list (store/id-list.ts): it must give back exactly
// the set written, at any magnitude, and refuse a value cut short.
import { decodeIdList, encodeIdList } from '../src/store/id-list';

describe('id lists', () => {
  test('give back the set written: sorted, without duplicates, at any magnitude', () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 200; round++) {
      const ids: number[] = [];
      const n = next() % 300;
      for (let i = 0; i < n; i++) ids.push(next() % [128, 16_384, 2 ** 31, 2 ** 40][round % 4]);
      ids.push(...ids.slice(0, 5));
      const expected = [...new Set(ids)].sort((a, b) => a - b);
      expect(decodeIdList(encodeIdList(ids))).toEqual(expected);
    }
    expect(decodeIdList(encodeIdList([]))).toEqual([]);
    expect(decodeIdList(encodeIdList([0, Number.MAX_SAFE_INTEGER]))).toEqual([0, Number.MAX_SAFE_INTEGER]);
  });

  test('take a byte an id for small gaps', () => {
    expect(encodeIdList([5, 6, 7, 100])).toEqual(Buffer.from([5, 1, 1, 93]));
    expect(encodeIdList([300]).length).toBe(2);
  });

  test('refuse a value cut short and an id that is not one', () => {
    const whole = encodeIdList([1, 1_000_000]);
    expect(() => decodeIdList(whole.subarray(0, whole.length - 1))).toThrow(RangeError);
    expect(() => encodeIdList([-1])).toThrow(RangeError);
    expect(() => encodeIdList([1.5])).toThrow(RangeError);
  });
});
