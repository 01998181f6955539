// Source rows: lines of a file buffer as display text, with exact original byte coordinates.
//
// Conventions (docs/spec/retrieval.md §4, "Coordinates"):
// - LF ends a line; CRLF is one break (the CR is not part of the row). A lone CR is NOT a
//   break: it stays inside the row and is displayed escaped as `\x0D`, so line numbers agree
//   with git, grep and editors in their default (LF) mode.
// - A UTF-8 BOM at file offset 0 counts in offsets (the first row starts at 0) but is not
//   part of the row's `text`.
// - Invalid UTF-8 never shifts coordinates: each invalid byte is displayed as `\xNN`.
// - Control characters (C0 except tab, DEL, C1), U+2028/U+2029 and bidi controls are
//   displayed escaped (see escape.ts), so file content cannot drive the terminal.
// - A row whose text contains any escape has `escaped: true`; in such a row a literal
//   backslash is shown as `\\`, so the text reads back unambiguously. Rows with
//   `escaped: false` are the file's bytes verbatim (minus the BOM).

import { escapeByte, escapeCodePoint, hasUnsafeText, isUnsafeCodePoint } from './escape';
import { EVIDENCE_TAB_COLUMNS } from './limits';

export interface SourceRow {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the original file. */
  start: number;
  /** Byte offset just past the line content (line break excluded). */
  end: number;
  /** Display text of bytes [start, end); see the module comment for escaping. */
  text: string;
  /** Whether `text` contains escapes (invalid UTF-8, control characters). */
  escaped: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Byte offsets where each line begins (the first is 0; one more after every LF). */
export function lineStarts(buf: Uint8Array): number[] {
  const starts = [0];
  let at = buf.indexOf(LF);
  while (at >= 0) {
    starts.push(at + 1);
    at = buf.indexOf(LF, at + 1);
  }
  return starts;
}

/** 1-based line number of the line containing byte `offset`, given `lineStarts(buf)`. */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  // Number of line starts <= offset (binary search for the upper bound).
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(1, lo);
}

/**
 * Displayed 1-based inclusive lines of the half-open byte span [start, end): the line of its
 * last byte ends it (a span ending with its line break stays on that line); an empty span
 * is on the line of `start`.
 */
export function lineRange(
  starts: readonly number[],
  start: number,
  end: number,
): { start_line: number; end_line: number } {
  const startLine = lineOfOffset(starts, start);
  const endLine = end > start ? lineOfOffset(starts, end - 1) : startLine;
  return { start_line: startLine, end_line: endLine };
}

/**
 * Rows of the byte range [spanStart, spanEnd) of `buf`. `spanStart` must be a line start and
 * `firstLine` its 1-based line number. A span ending mid-line ends its last row there; a
 * trailing line break does not add an empty row.
 */
export function splitRows(buf: Uint8Array, spanStart: number, spanEnd: number, firstLine: number): SourceRow[] {
  const end = Math.min(Math.max(spanEnd, 0), buf.length);
  let pos = Math.min(Math.max(spanStart, 0), end);
  let line = firstLine;
  const rows: SourceRow[] = [];
  while (pos < end) {
    const lf = buf.indexOf(LF, pos);
    let contentEnd: number;
    let next: number;
    if (lf >= 0 && lf < end) {
      contentEnd = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
      next = lf + 1;
    } else {
      // The span ends inside this line; a CR whose LF lies just outside still is a break.
      contentEnd = end > pos && buf[end - 1] === CR && buf[end] === LF ? end - 1 : end;
      next = end;
    }
    rows.push(makeRow(buf, line, pos, contentEnd));
    pos = next;
    line++;
  }
  return rows;
}

/**
 * Rows of the given 1-based `lines` (ascending) of `buf`, given `lineStarts(buf)`: exactly
 * the rows splitRows gives for them over the whole buffer, without decoding the others.
 * Lines past the last row are left out.
 */
export function rowsOfLines(buf: Uint8Array, starts: readonly number[], lines: readonly number[]): SourceRow[] {
  const rows: SourceRow[] = [];
  for (let i = 0; i < lines.length;) {
    // One splitRows per run of consecutive lines: its bounds are line starts, as it requires.
    let j = i + 1;
    while (j < lines.length && lines[j] === lines[j - 1] + 1) j++;
    const first = lines[i];
    const last = lines[j - 1];
    if (first >= 1 && first <= starts.length) {
      const to = last < starts.length ? starts[last] : buf.length;
      rows.push(...splitRows(buf, starts[first - 1], to, first));
    }
    i = j;
  }
  return rows;
}

function makeRow(buf: Uint8Array, line: number, start: number, end: number): SourceRow {
  const textStart = start === 0 && hasBom(buf) && end >= BOM.length ? BOM.length : start;
  const { text, escaped } = displayText(buf.subarray(textStart, end));
  return { line, start, end, text, escaped };
}

function hasBom(buf: Uint8Array): boolean {
  return buf.length >= 3 && buf[0] === BOM[0] && buf[1] === BOM[1] && buf[2] === BOM[2];
}

/** Display text of raw bytes: verbatim when valid and safe, else escaped byte by byte. */
export function displayText(bytes: Uint8Array): { text: string; escaped: boolean } {
  let decoded: string | undefined;
  try {
    decoded = strictUtf8.decode(bytes);
  } catch {
    decoded = undefined;
  }
  if (decoded !== undefined && !hasUnsafeText(decoded)) return { text: decoded, escaped: false };
  return { text: escapeBytes(bytes), escaped: true };
}

/** Decodes UTF-8 strictly, escaping invalid bytes and unsafe code points; `\` becomes `\\`. */
function escapeBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      if (b === 0x5c) out += '\\\\';
      else out += isUnsafeCodePoint(b) ? escapeByte(b) : String.fromCharCode(b);
      i++;
      continue;
    }
    const seq = decodeSequence(bytes, i);
    if (seq === undefined) {
      out += escapeByte(b);
      i++;
      continue;
    }
    out += isUnsafeCodePoint(seq.cp) ? escapeCodePoint(seq.cp) : String.fromCodePoint(seq.cp);
    i += seq.length;
  }
  return out;
}

/** One well-formed multi-byte UTF-8 sequence at `i` (no overlongs, surrogates or > U+10FFFF). */
function decodeSequence(bytes: Uint8Array, i: number): { cp: number; length: number } | undefined {
  const b0 = bytes[i];
  let length: number;
  let cp: number;
  let min: number;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    length = 2;
    cp = b0 & 0x1f;
    min = 0x80;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    length = 3;
    cp = b0 & 0x0f;
    min = 0x800;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    length = 4;
    cp = b0 & 0x07;
    min = 0x10000;
  } else {
    return undefined;
  }
  if (i + length > bytes.length) return undefined;
  for (let k = 1; k < length; k++) {
    const b = bytes[i + k];
    if ((b & 0xc0) !== 0x80) return undefined;
    cp = (cp << 6) | (b & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return { cp, length };
}

/**
 * Columns of a line's leading whitespace, a tab counting EVIDENCE_TAB_COLUMNS; undefined for
 * a blank line, which has no indentation of its own (relative indentation of `-C` evidence,
 * block-aware windows).
 */
export function indentColumns(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  let columns = 0;
  for (const c of text) {
    if (c === ' ') columns++;
    else if (c === '\t') columns += EVIDENCE_TAB_COLUMNS;
    else break;
  }
  return columns;
}
