// Path percent-encoding (spec 4): raw path bytes, pasted back unchanged by agents.

/** Bytes kept literal: printable ASCII except `%`, `:`, `@` and space. */
function keepsLiteral(byte: number): boolean {
  return byte > 0x20 && byte < 0x7f && byte !== 0x25 && byte !== 0x3a && byte !== 0x40;
}

/**
 * Percent-encodes a path's raw bytes: `%`, `:`, `@`, space, control and non-ASCII bytes
 * become `%XX` (uppercase). A string is taken as UTF-8.
 */
export function percentEncodePath(path: Uint8Array | string): string {
  const bytes = typeof path === 'string' ? Buffer.from(path, 'utf8') : path;
  let out = '';
  for (const byte of bytes) {
    out += keepsLiteral(byte) ? String.fromCharCode(byte) : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** The raw bytes of a percent-encoded path (`%XX` in either case); other text as UTF-8. */
export function percentDecodePath(encoded: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < encoded.length; ) {
    if (encoded[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(encoded.slice(i + 1, i + 3))) {
      out.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    const cp = encoded.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    out.push(...Buffer.from(ch, 'utf8'));
    i += ch.length;
  }
  return Uint8Array.from(out);
}

/**
 * `file://` URI of an absolute path given as raw bytes: the path encoding plus `#` and `?`,
 * which would otherwise end a URI's path.
 */
export function fileUri(absolutePath: Uint8Array | string): string {
  return 'file://' + percentEncodePath(absolutePath).replace(/[#?]/g, (c) => (c === '#' ? '%23' : '%3F'));
}
