// Folding in definition reads (`show sym:`, docs/spec/retrieval.md §4 "tokens-to-evidence"): a
// Python docstring of more than SYM_DOC_FOLD_MIN_LINES lines keeps its summary line and
// the rest stands as one marker row naming the exact read that prints it. On the agent
// replay `url_for` printed 35 docstring lines around 8 lines of code. Pure: rows in, rows out.
import { docCommentLine, type ShownRow, type SourceRow } from '@trufflepig/render';
import {
  SYM_DOC_COMMENT_WHOLE_MAX_LINES,
  SYM_DOC_FOLD_MIN_LINES,
  SYM_DOC_SUMMARY_MAX_LINES,
  SYM_DOC_TAGS_MAX_LINES,
} from './limits';

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

/** A doc comment row's text after its marker (`/**`, `*`, `///`, `//`, `#`, `--`), trimmed. */
function docText(text: string): string {
  return text
    .trim()
    .replace(/^(?:\/\*\*?|\*\/|\*|\/\/\/?|#|---?)/, '')
    .replace(/\*\/$/, '')
    .trim();
}

/**
 * The rows of a definition read with the doc comment it starts with folded, when that
 * comment is longer than SYM_DOC_COMMENT_WHOLE_MAX_LINES: its summary (the first
 * paragraph, at most SYM_DOC_SUMMARY_MAX_LINES rows) and its tag block (from the first
 * `@param`/`@return`/`@throws` row to the end, when at most SYM_DOC_TAGS_MAX_LINES rows)
 * stay, one marker row names the read of the rest. Rows unchanged otherwise. Java's
 * `ThreadPoolExecutor::execute` and PHP's `Request::getClientIp` had lost their whole
 * Javadoc and PHPDoc, `@throws` and `@return` included (agent trials).
 */
export function foldDocComment(
  rows: readonly SourceRow[],
  read: (startLine: number, endLine: number) => string,
): ShownRow[] {
  let end = 0;
  while (end < rows.length && docCommentLine(rows[end].text)) end++;
  if (end <= SYM_DOC_COMMENT_WHOLE_MAX_LINES) return [...rows];
  const doc = rows.slice(0, end);
  // The summary: the opening marker row when it holds no text, then up to the first blank row.
  let summary = docText(doc[0].text) === '' ? 1 : 0;
  const summaryEnd = Math.min(end, summary + SYM_DOC_SUMMARY_MAX_LINES);
  while (summary < summaryEnd && docText(doc[summary].text) !== '') summary++;
  let tags = doc.findIndex((r, i) => i >= summary && /^@\w/.test(docText(r.text)));
  if (tags < 0 || end - tags > SYM_DOC_TAGS_MAX_LINES) {
    // No tag block to keep: the closing row stays, so the comment reads as closed.
    tags = /\*\/\s*$/.test(doc[end - 1].text) ? end - 1 : end;
  }
  if (tags - summary < 2) return [...rows];
  const first = doc[summary];
  const last = doc[tags - 1];
  return [
    ...rows.slice(0, summary),
    {
      line: first.line,
      endLine: last.line,
      start: first.start,
      end: last.end,
      folded: 'doc comment',
      read: read(first.line, last.line),
    },
    ...rows.slice(tags),
  ];
}
