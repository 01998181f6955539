import { REGION_MAX_BYTES } from '../limits';

/** A preferred place to cut: a byte offset (always a line start or char boundary) and its priority. */
export interface CutPoint {
  readonly offset: number;
  readonly priority: number;
}

function isCharBoundary(bytes: Uint8Array, offset: number): boolean {
  return offset >= bytes.length || (bytes[offset] & 0xc0) !== 0x80;
}

/**
 * Cut [0, bytes.length) into regions of at most `max` bytes. Within each window the cut
 * goes to the highest-priority point, the latest of equal ones; line starts are the
 * fallback and a UTF-8 character boundary the last resort, so every byte is covered once.
 */
export function cutRegions(
  bytes: Uint8Array,
  cuts: readonly CutPoint[],
  lineStarts: readonly number[],
  max = REGION_MAX_BYTES,
): [number, number][] {
  const best = new Map<number, number>();
  for (const c of cuts) {
    if (c.offset <= 0 || c.offset >= bytes.length) continue;
    if ((best.get(c.offset) ?? -1) < c.priority) best.set(c.offset, c.priority);
  }
  for (const s of lineStarts) if (s > 0 && s < bytes.length && !best.has(s)) best.set(s, 1);
  const points = [...best.entries()].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let start = 0;
  let i = 0;
  while (start < bytes.length) {
    if (bytes.length - start <= max) {
      out.push([start, bytes.length]);
      break;
    }
    const limit = start + max;
    while (i < points.length && points[i][0] <= start) i++;
    let cut = -1;
    let cutPriority = -1;
    for (let j = i; j < points.length && points[j][0] <= limit; j++) {
      if (points[j][1] >= cutPriority) {
        cut = points[j][0];
        cutPriority = points[j][1];
      }
    }
    if (cut < 0) {
      cut = limit;
      while (cut > start + 1 && !isCharBoundary(bytes, cut)) cut--;
    }
    out.push([start, cut]);
    start = cut;
  }
  return out;
}
