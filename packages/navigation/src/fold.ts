// Folding in definition reads (`show sym:`, docs/spec/retrieval.md §4 "tokens-to-evidence"): a
// Python docstring of more than SYM_DOC_FOLD_MIN_LINES lines keeps its summary line and
// the rest stands as one marker row naming the exact read that prints it. On the agent
// replay `url_for` printed 35 docstring lines around 8 lines of code. Pure: rows in, rows out.
import type { ShownRow, SourceRow } from '@trufflepig/render';
import { SYM_DOC_FOLD_MIN_LINES } from './limits';

/** A string statement opening: optional prefix (r, u, b, f, rb, ...) and a triple quote. */
const TRIPLE_OPEN = /^[rRuUbBfF]{0,2}("""|''')/;

/**
 * The rows of a Python definition read with its docstring folded, or the rows unchanged when
 * there is none or it is short. The docstring is the first statement after the signature:
 * the first row that opens a triple-quoted string after the row that ends the signature
 * (its text ends with `:` outside a trailing comment). `read(a, b)` names the command that
 * prints lines a..b.
 */
export function foldDocstring(
  rows: readonly SourceRow[],
  read: (startLine: number, endLine: number) => string,
): ShownRow[] {
  const signatureEnd = rows.findIndex((r) => /:\s*(#.*)?$/.test(r.text));
  if (signatureEnd < 0 || signatureEnd + 1 >= rows.length) return [...rows];
  const open = signatureEnd + 1;
  const opened = TRIPLE_OPEN.exec(rows[open].text.trimStart());
  if (!opened) return [...rows];
  const quote = opened[1];
  const afterOpen = rows[open].text.trimStart().slice(opened[0].length);
  // A one-row docstring (`"""Text."""`) closes on its own row.
  if (afterOpen.includes(quote)) return [...rows];
  let close = -1;
  for (let i = open + 1; i < rows.length; i++) {
    if (rows[i].text.includes(quote)) {
      close = i;
      break;
    }
  }
  if (close < 0 || close - open + 1 <= SYM_DOC_FOLD_MIN_LINES) return [...rows];
  // The summary: the opening row, and the next one when the opening row holds only quotes.
  const keep = afterOpen.trim() === '' ? 2 : 1;
  const from = open + keep;
  if (from > close) return [...rows];
  const first = rows[from];
  const last = rows[close];
  return [
    ...rows.slice(0, from),
    {
      line: first.line,
      endLine: last.line,
      start: first.start,
      end: last.end,
      folded: 'docstring',
      read: read(first.line, last.line),
    },
    ...rows.slice(close + 1),
  ];
}
