import { lineOfOffset, lineRange, lineStarts, splitRows } from '../src/rows';

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('lineStarts / lineOfOffset', () => {
  test('CRLF is one break, a lone CR is none', () => {
    const buf = bytes('a\r\nbb\rcc\nd');
    expect(lineStarts(buf)).toEqual([0, 3, 9]);
    const starts = lineStarts(buf);
    expect([0, 1, 2, 3, 8, 9, 10].map((o) => lineOfOffset(starts, o))).toEqual([1, 1, 1, 2, 2, 3, 3]);
  });

  test('lineRange ends on the line of the last byte', () => {
    const starts = lineStarts(bytes('ab\ncd\nef'));
    expect(lineRange(starts, 0, 3)).toEqual({ start_line: 1, end_line: 1 });
    expect(lineRange(starts, 0, 4)).toEqual({ start_line: 1, end_line: 2 });
    expect(lineRange(starts, 6, 6)).toEqual({ start_line: 3, end_line: 3 });
  });
});

describe('splitRows', () => {
  test('CRLF rows exclude the CR; offsets are the original bytes', () => {
    const buf = bytes('one\r\ntwo\r\n\r\nfour');
    expect(splitRows(buf, 0, buf.length, 1)).toEqual([
      { line: 1, start: 0, end: 3, text: 'one', escaped: false },
      { line: 2, start: 5, end: 8, text: 'two', escaped: false },
      { line: 3, start: 10, end: 10, text: '', escaped: false },
      { line: 4, start: 12, end: 16, text: 'four', escaped: false },
    ]);
  });

  test('a lone CR stays inside the row and is shown escaped', () => {
    const buf = bytes('a\rb\n');
    expect(splitRows(buf, 0, buf.length, 1)).toEqual([{ line: 1, start: 0, end: 3, text: 'a\\x0Db', escaped: true }]);
  });

  test('a BOM counts in offsets but is not shown', () => {
    const buf = bytes([0xef, 0xbb, 0xbf], 'x = 1\ny\n');
    const rows = splitRows(buf, 0, buf.length, 1);
    expect(rows).toEqual([
      { line: 1, start: 0, end: 8, text: 'x = 1', escaped: false },
      { line: 2, start: 9, end: 10, text: 'y', escaped: false },
    ]);
    // A U+FEFF that is not at file offset 0 is content and is kept.
    const inner = bytes('a\n', [0xef, 0xbb, 0xbf], 'b');
    expect(splitRows(inner, 2, inner.length, 2)[0].text).toBe('\ufeffb');
  });

  test('invalid UTF-8 is escaped byte by byte without shifting coordinates', () => {
    const buf = bytes(
      'ok\n',
      'caf',
      [0xe9],
      ' ',
      [0xc3, 0xa9],
      ' ',
      [0xed, 0xa0, 0x80],
      ' ',
      [0xc0, 0xaf],
      ' \\ ',
      [0xf0, 0x9f, 0x98],
      '\nend',
    );
    const rows = splitRows(buf, 3, buf.length, 2);
    expect(rows[0]).toEqual({
      line: 2,
      start: 3,
      end: 23,
      text: 'caf\\xE9 é \\xED\\xA0\\x80 \\xC0\\xAF \\\\ \\xF0\\x9F\\x98',
      escaped: true,
    });
    expect(rows[1]).toEqual({ line: 3, start: 24, end: 27, text: 'end', escaped: false });
    expect(buf.subarray(rows[1].start, rows[1].end).toString()).toBe('end');
  });

  test('control characters cannot reach the terminal', () => {
    const buf = bytes('\u001b[31mred\u0007\tok\u007f \u009b1m \u2028 \u202e\n');
    const [row] = splitRows(buf, 0, buf.length, 1);
    expect(row.escaped).toBe(true);
    expect(row.text).toBe('\\x1B[31mred\\x07\tok\\x7F \\u{9B}1m \\u{2028} \\u{202E}');
    expect(row.text).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/);
  });

  test('a span ending mid-line or before an LF ends the last row there', () => {
    const buf = bytes('abc\r\ndef\r\nghi');
    expect(splitRows(buf, 0, 2, 1)).toEqual([{ line: 1, start: 0, end: 2, text: 'ab', escaped: false }]);
    // Span [0,4) ends between CR and LF: the CR is still part of the break.
    expect(splitRows(buf, 0, 4, 1)).toEqual([{ line: 1, start: 0, end: 3, text: 'abc', escaped: false }]);
    expect(splitRows(buf, 5, 10, 2)).toEqual([{ line: 2, start: 5, end: 8, text: 'def', escaped: false }]);
    expect(splitRows(buf, 5, 5, 2)).toEqual([]);
    expect(splitRows(buf, 0, 999, 1).map((r) => r.line)).toEqual([1, 2, 3]);
  });

  test('row offsets agree with lineStarts on a mixed file', () => {
    const buf = bytes([0xef, 0xbb, 0xbf], 'a\r\n\n', [0xff], '\r\r\nz\n\n');
    const rows = splitRows(buf, 0, buf.length, 1);
    const starts = lineStarts(buf);
    for (const row of rows) {
      expect(starts[row.line - 1]).toBe(row.start);
      expect(lineOfOffset(starts, row.end)).toBe(row.line);
    }
    expect(rows.map((r) => r.text)).toEqual(['a', '', '\\xFF\\x0D', 'z', '']);
  });
});
