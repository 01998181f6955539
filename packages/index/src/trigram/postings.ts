// The value of one trigram postings row: which files of one chunk of TRIGRAM_CHUNK_FILES
// consecutive file ids contain the trigram. Two encodings, told apart by length alone:
// - a list of ascending 16-bit little-endian offsets (file id − chunk × TRIGRAM_CHUNK_FILES),
//   while it is shorter than the bitmap: at most LIST_MAX entries, 2 bytes each;
// - a bitmap of TRIGRAM_CHUNK_FILES bits (bit i of byte i >> 3 for offset i), exactly
//   BITMAP_BYTES long.
// Pure: no I/O, no engine. Rows only ever gain offsets (see store/trigrams.ts for why).
import { TRIGRAM_CHUNK_FILES } from '../limits';

export const BITMAP_BYTES = TRIGRAM_CHUNK_FILES / 8;
/** Longest list: one more entry would be as long as the bitmap. */
export const LIST_MAX = BITMAP_BYTES / 2 - 1;

/** Encode ascending, distinct offsets (each below TRIGRAM_CHUNK_FILES). */
export function encodePostings(offsets: ArrayLike<number>, from = 0, to = offsets.length): Buffer {
  const n = to - from;
  if (n <= LIST_MAX) {
    const out = Buffer.allocUnsafe(2 * n);
    for (let i = 0; i < n; i++) out.writeUInt16LE(offsets[from + i], 2 * i);
    return out;
  }
  const out = Buffer.alloc(BITMAP_BYTES);
  for (let i = from; i < to; i++) out[offsets[i] >> 3] |= 1 << (offsets[i] & 7);
  return out;
}

/** The offsets of a row, ascending. */
export function decodePostings(row: Uint8Array): number[] {
  const out: number[] = [];
  if (row.length === BITMAP_BYTES) {
    for (let byte = 0; byte < BITMAP_BYTES; byte++) {
      const v = row[byte];
      if (v === 0) continue;
      for (let bit = 0; bit < 8; bit++) if (v & (1 << bit)) out.push((byte << 3) | bit);
    }
    return out;
  }
  for (let i = 0; i + 1 < row.length; i += 2) out.push(row[i] | (row[i + 1] << 8));
  return out;
}

/**
 * A row holding its offsets and `added` (ascending, distinct), or undefined when it
 * already held all of them (nothing to write).
 */
export function mergePostings(
  row: Uint8Array,
  added: ArrayLike<number>,
  from = 0,
  to = added.length,
): Buffer | undefined {
  if (row.length === BITMAP_BYTES) {
    let out: Buffer | undefined;
    for (let i = from; i < to; i++) {
      const o = added[i];
      const mask = 1 << (o & 7);
      if (((out ?? row)[o >> 3] & mask) !== 0) continue;
      out ??= Buffer.from(row);
      out[o >> 3] |= mask;
    }
    return out;
  }
  const old = decodePostings(row);
  const merged: number[] = [];
  let i = 0;
  let j = from;
  let grew = false;
  while (i < old.length || j < to) {
    if (j >= to || (i < old.length && old[i] < added[j])) merged.push(old[i++]);
    else if (i >= old.length || added[j] < old[i]) {
      merged.push(added[j++]);
      grew = true;
    } else {
      merged.push(old[i++]);
      j++;
    }
  }
  return grew ? encodePostings(merged) : undefined;
}

/** Set the bits of a row's files in `files`, a bitset over file ids (bit id & 31 of word id >> 5). */
export function addPostingsTo(files: Uint32Array, chunk: number, row: Uint8Array): void {
  const base = chunk * TRIGRAM_CHUNK_FILES;
  const set = (id: number) => {
    if (id >> 5 < files.length) files[id >> 5] |= 1 << (id & 31);
  };
  if (row.length === BITMAP_BYTES) {
    // Bytes of the bitmap land on whole bytes of the bitset: TRIGRAM_CHUNK_FILES is a multiple of 32.
    const word0 = base >> 5;
    for (let w = 0; w < BITMAP_BYTES / 4; w++) {
      const v = row[4 * w] | (row[4 * w + 1] << 8) | (row[4 * w + 2] << 16) | (row[4 * w + 3] << 24);
      if (v !== 0 && word0 + w < files.length) files[word0 + w] |= v;
    }
    return;
  }
  for (let i = 0; i + 1 < row.length; i += 2) set(base + (row[i] | (row[i + 1] << 8)));
}
