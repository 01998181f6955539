// Trigrams of bytes and of pattern strings, in one folding: three bytes, ASCII letters
// lower-cased, as one 24-bit number. Every other byte (UTF-8 continuation bytes included) is
// kept as it is, so the trigrams of a string are the trigrams of its UTF-8 bytes wherever it
// occurs in a file, whatever the file's other bytes are.

const FOLD = new Uint8Array(256);
for (let b = 0; b < 256; b++) FOLD[b] = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;

/** One past the largest trigram value (2^24). */
export const TRIGRAM_SPACE = 1 << 24;

// Membership over the whole trigram space as one 2 MiB bitset per process, cleared after each
// file by walking the trigrams found (a Set per file cost more than reading the file).
let seen: Uint32Array | undefined;

/** The distinct trigrams of `bytes`, ascending. Linear in the bytes. */
export function fileTrigrams(bytes: Uint8Array): Uint32Array {
  if (bytes.length < 3) return new Uint32Array(0);
  seen ??= new Uint32Array(TRIGRAM_SPACE >> 5);
  const bits = seen;
  let out = new Uint32Array(Math.min(bytes.length, 4096));
  let n = 0;
  let t = (FOLD[bytes[0]] << 8) | FOLD[bytes[1]];
  for (let i = 2; i < bytes.length; i++) {
    t = ((t << 8) | FOLD[bytes[i]]) & 0xffffff;
    const mask = 1 << (t & 31);
    if ((bits[t >>> 5] & mask) !== 0) continue;
    bits[t >>> 5] |= mask;
    if (n === out.length) {
      const grown = new Uint32Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    out[n++] = t;
  }
  for (let k = 0; k < n; k++) bits[out[k] >>> 5] = 0;
  return out.subarray(0, n).sort();
}

/** Trigrams of a string's UTF-8 bytes (folded as fileTrigrams), in order, repeats kept out. */
export function stringTrigrams(s: string): number[] {
  const b = Buffer.from(s, 'utf8');
  const out = new Set<number>();
  for (let i = 2; i < b.length; i++) out.add((FOLD[b[i - 2]] << 16) | (FOLD[b[i - 1]] << 8) | FOLD[b[i]]);
  return [...out];
}

/** Byte length of a string in UTF-8 (a string shorter than 3 bytes has no trigram). */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
