// findLiteral: the case-insensitive byte search of `"literal"` verification, which reads
// every file too large to index a query admits (up to 32 MiB): its candidates come from the
// native indexOf, and it must answer as a plain scan of every offset does.
import { findLiteral } from '../src/query/live';
import { seededBelow } from './helpers';

/** The definition findLiteral must agree with: every offset, ASCII letters folded. */
function everyOffset(hay: Buffer, needle: Buffer, from: number, to: number): number {
  const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 32 : b);
  for (let i = from; i + needle.length <= to; i++) {
    let k = 0;
    while (k < needle.length && lower(hay[i + k]) === lower(needle[k])) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

describe('findLiteral', () => {
  it('answers as a scan of every offset, over seeded random texts, needles and bounds', () => {
    const rand = seededBelow(7);
    const alphabet = 'aAbB_1 xXzQ\u00e9';
    const text = (n: number) => Array.from({ length: n }, () => alphabet[rand(alphabet.length)]).join('');
    for (let t = 0; t < 20_000; t++) {
      const hay = Buffer.from(text(1 + rand(40)));
      const needle = Buffer.from(text(1 + rand(4)));
      const from = rand(5);
      const to = Math.max(from, hay.length - rand(3));
      expect([hay.toString(), needle.toString(), from, to, findLiteral(hay, needle, from, to)]).toEqual([
        hay.toString(),
        needle.toString(),
        from,
        to,
        everyOffset(hay, needle, from, to),
      ]);
    }
  });

  it('finds a needle in another case far into a large buffer, and answers -1 past the bound', () => {
    const hay = Buffer.alloc(8 * 1024 * 1024, 'n');
    hay.write('No_Such_Name', hay.length - 20);
    expect(findLiteral(hay, Buffer.from('no_such_name'))).toBe(hay.length - 20);
    expect(findLiteral(hay, Buffer.from('no_such_name'), 0, hay.length - 10)).toBe(-1);
  });
});
