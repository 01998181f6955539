import { lineAt } from '@trufflepig/index';
import { lineStarts, splitRows } from '@trufflepig/render';

/**
 * Context shown before a span that starts deep inside a long line (minified code): the
 * row then starts here, its byte offsets saying so, instead of at a line start megabytes
 * earlier that no budget could show.
 */
const LONG_LINE_CONTEXT_BYTES = 160;

/** The rows of the whole lines holding bytes [from, to) of a file (`show HANDLE` and `show sym:` print these). */
export function rowsOf(bytes: Buffer, from: number, to: number): ReturnType<typeof splitRows> {
  const starts = lineStarts(bytes);
  const lo = lineAt(starts, from) - 1;
  let begin = starts[lo];
  if (from - begin > LONG_LINE_CONTEXT_BYTES) {
    begin = from - LONG_LINE_CONTEXT_BYTES;
    while (begin < from && (bytes[begin] & 0xc0) === 0x80) begin++; // a UTF-8 character boundary
  }
  // Rows are whole lines at the end too: a definition's span stops before a statement's
  // `;` (`var cookieNameRegExp = /.../;` printed without it, an agent trial), and a row
  // must be the file's line, not a cut of it; a minified line's tail past
  // LONG_LINE_CONTEXT_BYTES stays out, as its head does above.
  let finish = Math.max(to, begin);
  if (finish > begin && bytes[finish - 1] !== 0x0a) {
    const lf = bytes.indexOf(0x0a, finish);
    const lineEnd = lf < 0 ? bytes.length : lf;
    if (lineEnd - finish <= LONG_LINE_CONTEXT_BYTES) finish = lineEnd;
  }
  return splitRows(bytes, begin, finish, lo + 1);
}
