// A set of non-negative integer ids as one compact value: ascending, each stored as its
// distance from the previous one in LEB128 (7 bits a byte, high bit set while more follow).
// A file's name ids (store/uses.ts) take ~2 bytes each this way, where an index entry per
// (file, name) pair took ~12. Pure: no I/O, no engine.

/** Encode a set of ids (any order, duplicates ignored; each a safe non-negative integer). */
export function encodeIdList(ids: Iterable<number>): Buffer {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const bytes: number[] = [];
  let previous = 0;
  for (const id of sorted) {
    if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not an id: ${id}`);
    let gap = id - previous;
    previous = id;
    while (gap >= 0x80) {
      bytes.push((gap % 0x80) | 0x80);
      gap = Math.floor(gap / 0x80);
    }
    bytes.push(gap);
  }
  return Buffer.from(bytes);
}

/** The ids of a value encodeIdList wrote, ascending. Throws on a value it could not have written. */
export function decodeIdList(value: Uint8Array): number[] {
  const out: number[] = [];
  let previous = 0;
  let gap = 0;
  let scale = 1;
  for (let i = 0; i < value.length; i++) {
    const b = value[i];
    gap += (b & 0x7f) * scale;
    if (b & 0x80) {
      scale *= 0x80;
      continue;
    }
    previous += gap;
    out.push(previous);
    gap = 0;
    scale = 1;
  }
  if (scale !== 1) throw new RangeError('truncated id list');
  return out;
}
