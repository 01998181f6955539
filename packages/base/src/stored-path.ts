// Stored paths: root-relative paths are stored percent-encoded, so raw bytes stay exact
// (non-UTF-8 names included) and every stored path is one printable key. They are printed
// by @trufflepig/render printedPath: as themselves when that is safe, else in this stored
// form; percentDecode reads either spelling back to the same bytes.

const HEX = '0123456789ABCDEF';

/** Bytes that never appear literally in a stored path. */
function mustEncode(byte: number): boolean {
  return (
    byte <= 0x20 ||
    byte >= 0x7f ||
    byte === 0x25 /* % */ ||
    byte === 0x3a /* : */ ||
    byte === 0x40 /* @ */ ||
    byte === 0x23 /* # */ ||
    byte === 0x3f /* ? */ ||
    byte === 0x5c /* \ */ ||
    byte === 0x22 /* " */
  );
}

/**
 * The stored form of a path given as raw bytes (or as text, taken as UTF-8).
 *
 * Guarantees: the result is printable ASCII (0x21-0x7E) only. Control bytes, space, bytes
 * >= 0x7F and `% : @ # ? \ "` appear only as `%XY` with two uppercase hex digits; every
 * other byte is itself (so `/` and ordinary names are unchanged). One input has exactly
 * one stored form, and `percentDecode(percentEncode(b))` is `b`, byte for byte.
 */
export function percentEncode(raw: Uint8Array | string): string {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (!mustEncode(b)) continue;
    if (plainFrom < i) out += Buffer.from(bytes.subarray(plainFrom, i)).toString('latin1');
    out += '%' + HEX[b >> 4] + HEX[b & 15];
    plainFrom = i + 1;
  }
  if (plainFrom < bytes.length) out += Buffer.from(bytes.subarray(plainFrom)).toString('latin1');
  return out;
}

/**
 * Decode `%XY` escapes to raw bytes; other characters are taken as UTF-8 text.
 *
 * Guarantees: accepts the stored form and the printed form alike (`café` and `caf%C3%A9`
 * decode to the same bytes); hex digits may be either case; a `%` not followed by two hex
 * digits is the literal byte `%`. Never throws.
 */
export function percentDecode(encoded: string): Buffer {
  const parts: Buffer[] = [];
  let textFrom = 0;
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] !== '%' || !/^[0-9A-Fa-f]{2}$/.test(encoded.slice(i + 1, i + 3))) continue;
    if (textFrom < i) parts.push(Buffer.from(encoded.slice(textFrom, i), 'utf8'));
    parts.push(Buffer.from([parseInt(encoded.slice(i + 1, i + 3), 16)]));
    i += 2;
    textFrom = i + 1;
  }
  if (textFrom < encoded.length) parts.push(Buffer.from(encoded.slice(textFrom), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * The canonical stored form of a user-typed path or filter value (`café` and `caf%C3%A9`
 * agree). Idempotent; the identity on any output of percentEncode.
 */
export function normalizeEncodedPath(value: string): string {
  return percentEncode(percentDecode(value));
}

/**
 * A `file://` URI for a stored (encoded) root-relative path under an absolute root. The
 * root is encoded like a stored path (its `/` kept, trailing slashes dropped); the
 * relative path is used as given.
 */
export function fileUri(absoluteRoot: string | Uint8Array, encodedRelative: string): string {
  const root = percentEncode(absoluteRoot).replace(/\/+$/, '');
  return `file://${root}/${encodedRelative}`;
}

const NOT_PLAIN = /[%\u0080-\uffff]/;

/**
 * Lossy text of a stored path, for fuzzy comparisons only (never for I/O): bytes that are
 * not UTF-8 become U+FFFD.
 */
export function displayPath(encoded: string): string {
  // ASCII without an escape decodes to itself: every path of a tree without `%` or
  // non-ASCII names (navigation asks this of each header an include trail passes).
  if (!NOT_PLAIN.test(encoded)) return encoded;
  return percentDecode(encoded).toString('utf8');
}
