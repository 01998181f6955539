// widenByLines (core/show.ts): the byte range `show HANDLE -C N` reads, on real bytes.
import { widenByLines } from '../src/core/show';

const TEXT = Buffer.from('l1\nl2\nl3 word\nl4\nl5');
const at = (s: string) => TEXT.indexOf(s);
const shown = (r: { start: number; end: number }) => TEXT.subarray(r.start, r.end).toString();

test('whole lines around the span, clipped at both ends of the file', () => {
  // `word` on line 3: one line each side.
  expect(shown(widenByLines(TEXT, at('word'), at('word') + 4, 1))).toBe('l2\nl3 word\nl4');
  // More lines than the file has: the file, its last line without a newline included.
  expect(shown(widenByLines(TEXT, at('word'), at('word') + 4, 10))).toBe('l1\nl2\nl3 word\nl4\nl5');
  // A span of the first line, and one of the last.
  expect(shown(widenByLines(TEXT, 0, 2, 1))).toBe('l1\nl2');
  expect(shown(widenByLines(TEXT, at('l5'), TEXT.length, 1))).toBe('l4\nl5');
});

test('a span ending with its newline ends on that line; an empty span widens around its line; 0 lines is the span itself', () => {
  expect(shown(widenByLines(TEXT, at('l2'), at('l3'), 1))).toBe('l1\nl2\nl3 word');
  expect(shown(widenByLines(TEXT, at('word'), at('word'), 0))).toBe('l3 word');
  expect(widenByLines(TEXT, at('word'), at('word') + 4, 0)).toEqual({ start: at('l3'), end: at('\nl4') });
});
