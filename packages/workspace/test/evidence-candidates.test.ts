// The lines a `"literal"` or identifier page reads for its evidence (index linesThatMayHold):
// every line whose display text (render's rows: escapes, decoded UTF-8) the line matchers
// find the needle in must be among them, or a hit would lose an evidence line.
import { linesThatMayHold, literalIndexIn, tokenIndexIn } from '@trufflepig/index';
import { lineStarts, splitRows } from '@trufflepig/render';

describe('linesThatMayHold', () => {
  it('holds every line literalIndexIn or tokenIndexIn matches, over seeded texts with escapes and non-ASCII', () => {
    let seed = 5;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    // Kelvin sign and dotted capital I lower-case into ASCII; \x07 and \xff are displayed escaped.
    const pieces = [
      'a',
      'A',
      'b',
      'B',
      '_',
      ' ',
      'x',
      '0',
      '7',
      '\\',
      '\u212a',
      '\u0130',
      '\u00e9',
      '\x07',
      '\r',
      '\n',
      '\n',
    ];
    const needles = ['a', 'ab', 'AB', 'k', 'x07', 'b_a', 'i', 'x0', 'ff', 'xff', 'a b'];
    let narrower = 0;
    for (let t = 0; t < 4_000; t++) {
      const parts: Buffer[] = [];
      for (let i = 0, n = rand(60); i < n; i++)
        parts.push(rand(25) === 0 ? Buffer.from([0xff]) : Buffer.from(pieces[rand(pieces.length)]));
      const bytes = Buffer.concat(parts);
      const starts = lineStarts(bytes);
      const needle = needles[rand(needles.length)];
      const lines = linesThatMayHold(bytes, starts, needle);
      if (lines === undefined) throw new Error(`no lines for ${needle}`);
      const rows = splitRows(bytes, 0, bytes.length, 1);
      const missed = rows
        .filter((r) => literalIndexIn(r.text, needle) >= 0 || tokenIndexIn(r.text, needle, false) >= 0)
        .map((r) => r.line)
        .filter((l) => !lines.includes(l));
      expect({ t, text: bytes.toString('latin1'), needle, missed }).toEqual({
        t,
        text: bytes.toString('latin1'),
        needle,
        missed: [],
      });
      if (lines.length < rows.length) narrower++;
    }
    expect(narrower).toBeGreaterThan(1_000);
  });

  it('knows no lines for a needle that is not printable ASCII or holds a backslash', () => {
    const bytes = Buffer.from('caf\u00e9\na\\b\n');
    const starts = lineStarts(bytes);
    expect(linesThatMayHold(bytes, starts, 'caf\u00e9')).toBeUndefined();
    expect(linesThatMayHold(bytes, starts, 'a\\b')).toBeUndefined();
    expect(linesThatMayHold(bytes, starts, 'a\tb')).toBeUndefined();
    expect(linesThatMayHold(bytes, starts, 'CAF')).toEqual([1]);
  });
});
