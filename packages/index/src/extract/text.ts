import { isAscii, isUtf8 } from 'node:buffer';

/**
 * Decoded text of a file with an exact map back to byte offsets. Parsers and the FTS
 * index work on text; every coordinate we store is a byte offset of the original file,
 * so invalid UTF-8 becomes one U+FFFD per invalid byte and never shifts anything.
 */
export interface DecodedText {
  readonly text: string;
  /** Byte offset of UTF-16 code unit `unit` (unit may equal text.length). */
  byteAt(unit: number): number;
  readonly validUtf8: boolean;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(bytes)) {
    return { text: buf.toString('latin1'), byteAt: (u) => u, validUtf8: true };
  }
  if (isUtf8(buf)) {
    const text = buf.toString('utf8');
    // A `re:` scan asks one offset per file, a parse thousands: the first few are measured
    // natively on the text before them, the map is built once more are asked.
    let map: Uint32Array | undefined;
    let asked = 0;
    const byteAt = (u: number): number => {
      if (map) return map[u];
      const c = u > 0 ? text.charCodeAt(u - 1) : 0;
      if (++asked <= BYTE_OFFSETS_WITHOUT_MAP && !(c >= 0xd800 && c <= 0xdbff))
        return Buffer.byteLength(text.slice(0, u), 'utf8');
      map = utf8OffsetMap(text);
      return map[u];
    };
    return { text, byteAt, validUtf8: true };
  }
  return decodeLossy(bytes);
}

/** Offsets asked of a valid UTF-8 text before decodeText builds its unit-to-byte map. */
const BYTE_OFFSETS_WITHOUT_MAP = 4;

/** Byte offset of every UTF-16 unit of a text that came from valid UTF-8. */
function utf8OffsetMap(text: string): Uint32Array {
  const map = new Uint32Array(text.length + 1);
  let byte = 0;
  for (let u = 0; u < text.length; u++) {
    map[u] = byte;
    const c = text.charCodeAt(u);
    if (c < 0x80) byte += 1;
    else if (c < 0x800) byte += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      map[u + 1] = byte + 2; // the low surrogate maps inside the 4-byte sequence
      byte += 4;
      u++;
    } else byte += 3;
  }
  map[text.length] = byte;
  return map;
}

function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 0;
  if (need === 0 || (b >= 0xe0 && b < 0xf0 && need !== 3)) return 0;
  if (i + need > bytes.length) return 0;
  for (let k = 1; k < need; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0;
  const b1 = bytes[i + 1];
  if (b === 0xe0 && b1 < 0xa0) return 0; // overlong
  if (b === 0xed && b1 >= 0xa0) return 0; // surrogate
  if (b === 0xf0 && b1 < 0x90) return 0; // overlong
  if (b === 0xf4 && b1 >= 0x90) return 0; // > U+10FFFF
  return need;
}

function decodeLossy(bytes: Uint8Array): DecodedText {
  // Typed arrays, not number arrays: a 2 MiB file decoded through arrays of numbers took
  // 60-90 MB of JavaScript heap (and exhausted the `re:` helper thread's); these live
  // outside it. A byte gives at most one unit (a 4-byte sequence gives two).
  const units = new Uint16Array(bytes.length);
  const offsets = new Uint32Array(bytes.length + 1);
  let n = 0;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      units[n] = b;
      offsets[n++] = i;
      i += 1;
      continue;
    }
    const len = sequenceLength(bytes, i);
    if (len === 0) {
      units[n] = 0xfffd;
      offsets[n++] = i;
      i += 1;
      continue;
    }
    let cp = len === 2 ? b & 0x1f : len === 3 ? b & 0x0f : b & 0x07;
    for (let k = 1; k < len; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
    if (cp >= 0x10000) {
      const v = cp - 0x10000;
      units[n] = 0xd800 + (v >> 10);
      offsets[n++] = i;
      units[n] = 0xdc00 + (v & 0x3ff);
      offsets[n++] = i + 2;
    } else {
      units[n] = cp;
      offsets[n++] = i;
    }
    i += len;
  }
  offsets[n] = bytes.length;
  // The units' bytes as UTF-16LE (the byte order of every platform Node runs on here); a
  // leading U+FEFF stays in the text, as the offsets count it.
  const text = Buffer.from(units.buffer, 0, n * 2).toString('utf16le');
  const map = offsets.subarray(0, n + 1);
  return { text, byteAt: (u) => map[u], validUtf8: false };
}

/**
 * The UTF-16 index in `decoded.text` of `byte` (where a character starts), the inverse of
 * `byteAt`; undefined when the text is not valid UTF-8, whose units are not a prefix's.
 */
export function unitAtByte(decoded: DecodedText, bytes: Uint8Array, byte: number): number | undefined {
  if (!decoded.validUtf8) return undefined;
  if (byte === 0 || decoded.text.length === bytes.length) return byte;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', 0, byte).length;
}

/** Byte offsets where lines start: `\n` ends a line (so CRLF is one break); a lone CR does not. */
export function lineStartOffsets(bytes: Uint8Array): number[] {
  const starts = [0];
  // indexOf runs natively: a loop over every byte here was most of a `re:` scan's time.
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * 1-based line of a byte offset, counted without building lineStartOffsets (a `re:` hit
 * needs one line of a file it read, and the array of a 2 MiB file is garbage at once).
 */
export function lineNumberAt(bytes: Uint8Array, offset: number): number {
  return 1 + newlinesIn(bytes, 0, offset);
}

/** Line breaks in bytes [from, to). */
export function newlinesIn(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a, from); i >= 0 && i < to; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** 1-based line of a byte offset. */
export function lineAt(starts: readonly number[], offset: number): number {
  return lastAtOrBefore(starts, offset) + 1;
}

/** Index of the last of ascending `sorted` (whose first is at most `value`) at or before `value`. */
export function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
