// Paths are stored percent-encoded: raw bytes stay exact (non-UTF-8 names included) and
// every stored path is one printable key. They are printed by @trufflepig/render
// printedPath: as themselves when that is safe, else in this stored form; percentDecode
// reads either spelling back to the same bytes.

const HEX = '0123456789ABCDEF';

function mustEncode(byte: number): boolean {
  return (
    byte <= 0x20 || byte >= 0x7f ||
    byte === 0x25 /* % */ || byte === 0x3a /* : */ || byte === 0x40 /* @ */ ||
    byte === 0x23 /* # */ || byte === 0x3f /* ? */ || byte === 0x5c /* \ */ || byte === 0x22 /* " */
  );
}

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

/** Decode `%XY` escapes to raw bytes; other characters are taken as UTF-8 text. */
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

/** The canonical encoded form of a user-typed path or filter value (`café` and `caf%C3%A9` agree). */
export function normalizeEncodedPath(value: string): string {
  return percentEncode(percentDecode(value));
}

/** A `file://` URI for an encoded root-relative path under an absolute root. */
export function fileUri(absoluteRoot: string | Uint8Array, encodedRelative: string): string {
  const root = percentEncode(absoluteRoot).replace(/\/+$/, '');
  return `file://${root}/${encodedRelative}`;
}

/** Lossy text of an encoded path, for fuzzy comparisons only (never for I/O). */
export function displayPath(encoded: string): string {
  return percentDecode(encoded).toString('utf8');
}
