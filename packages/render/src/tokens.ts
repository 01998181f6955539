// Exact o200k_base token counting without js-tiktoken's Tiktoken constructor.
//
// Why not `new Tiktoken(o200k_base)`: its constructor base64-decodes all 200k ranks and
// builds maps keyed by comma-joined byte strings (~600 ms per process), more than the whole
// one-shot CLI latency target. Here ranks come from a hash table file written by the build
// (read in a few ms, see rank-table.ts), or else from a Map keyed by the base64 text of
// js-tiktoken's ranks (no decoding, ~60-120 ms), loaded lazily on first use.
// The merge below mirrors js-tiktoken's bytePairMerge (lowest rank first, leftmost on ties),
// so counts equal js-tiktoken's `encode(text, [], []).length`: special-token strings such as
// `<|endoftext|>` are ordinary text.

import { loadRankLookup, type RankLookup } from './rank-table';

interface Encoder {
  ranks: RankLookup;
  pattern: RegExp;
}

// Pieces recur constantly (keywords, punctuation, indentation); cap the memo so a long-lived
// daemon cannot grow it without bound.
const PIECE_MEMO_MAX = 50_000;
const pieceMemo = new Map<string, number>();

let encoder: Encoder | undefined;

function loadEncoder(): Encoder {
  if (encoder !== undefined) return encoder;
  const ranks = loadRankLookup();
  encoder = { ranks, pattern: new RegExp(ranks.pattern, 'gu') };
  return encoder;
}

/** Which rank table this process uses: the build's hash table, or the Map fallback. */
export function tokenizerSource(): 'table' | 'map' {
  return loadEncoder().ranks.source;
}

/** Loads the rank table now (e.g. in a daemon at start-up) instead of on first count. */
export function warmTokenizer(): void {
  loadEncoder();
}

/** Whether the rank table is already loaded in this process (for measurements and tests). */
export function tokenizerLoaded(): boolean {
  return encoder !== undefined;
}

/** Number of o200k_base tokens of `text` (special-token strings count as ordinary text). */
export function countTokens(text: string): number {
  return countUpTo(text, Number.POSITIVE_INFINITY);
}

/**
 * Whether `text` has at most `budget` tokens. Cheap when the answer is obvious: every token
 * covers at least one byte, so a text of at most `budget` UTF-8 bytes fits without loading
 * the ranks; otherwise counting stops as soon as the budget is exceeded.
 */
export function withinBudget(text: string, budget: number): boolean {
  if (Buffer.byteLength(text, 'utf8') <= budget) return true;
  if (budget < 1) return false;
  return countUpTo(text, budget) <= budget;
}

/** Counts tokens but may stop early once the count exceeds `limit` (returns a value > limit). */
function countUpTo(text: string, limit: number): number {
  if (text.length === 0) return 0;
  const { ranks, pattern } = loadEncoder();
  pattern.lastIndex = 0;
  let total = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    const piece = match[0];
    if (piece.length === 0) {
      // Defensive: the o200k pattern never matches empty, but never loop forever.
      pattern.lastIndex++;
      continue;
    }
    total += countPiece(piece, ranks);
    if (total > limit) break;
  }
  return total;
}

function countPiece(piece: string, ranks: RankLookup): number {
  const memo = pieceMemo.get(piece);
  if (memo !== undefined) return memo;
  // Buffer's UTF-8 encoder turns lone surrogates into U+FFFD, as TextEncoder does.
  const bytes = Buffer.from(piece, 'utf8');
  const count = ranks.rank(bytes, 0, bytes.length) >= 0 ? 1 : mergeCount(bytes, ranks);
  if (pieceMemo.size >= PIECE_MEMO_MAX) pieceMemo.clear();
  pieceMemo.set(piece, count);
  return count;
}

/**
 * Byte-pair merge of one piece, returning the number of resulting parts. Same choice rule as
 * js-tiktoken (merge the adjacent pair with the lowest rank, the leftmost on ties), but each
 * merge only re-ranks the two pairs it touches, and a heap finds the minimum, so long pieces
 * (whitespace runs, rulers of `=`) stay O(n log n) instead of quadratic.
 */
function mergeCount(bytes: Buffer, ranks: RankLookup): number {
  const n = bytes.length;
  if (n <= 1) return n;
  // Parts form a linked list over their start offsets; partEnd[s] is the end of the part at s.
  const partEnd = new Int32Array(n);
  const prevStart = new Int32Array(n);
  const nextStart = new Int32Array(n);
  const alive = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    partEnd[i] = i + 1;
    prevStart[i] = i - 1;
    nextStart[i] = i + 1 < n ? i + 1 : -1;
    alive[i] = 1;
  }
  // Heap entries: (rank of the pair starting at part `start`, start, end of that pair).
  const heap = new PairHeap();
  const pairRank = (start: number): number | undefined => {
    const next = nextStart[start];
    if (next < 0) return undefined;
    const rank = ranks.rank(bytes, start, partEnd[next]);
    return rank < 0 ? undefined : rank;
  };
  for (let i = 0; i + 1 < n; i++) {
    const rank = pairRank(i);
    if (rank !== undefined) heap.push(rank, i, i + 2);
  }
  let parts = n;
  while (heap.size > 0) {
    const [, start, end] = heap.pop();
    const next = nextStart[start];
    // Skip stale entries: the part or its right neighbour changed since the entry was pushed.
    if (!alive[start] || next < 0 || partEnd[next] !== end) continue;
    partEnd[start] = end;
    alive[next] = 0;
    const after = nextStart[next];
    nextStart[start] = after;
    if (after >= 0) prevStart[after] = start;
    parts--;
    const left = prevStart[start];
    if (left >= 0) {
      const rank = pairRank(left);
      if (rank !== undefined) heap.push(rank, left, partEnd[start]);
    }
    if (after >= 0) {
      const rank = pairRank(start);
      if (rank !== undefined) heap.push(rank, start, partEnd[after]);
    }
  }
  return parts;
}

/** Min-heap ordered by (rank, start): the lowest rank, then the leftmost pair. */
class PairHeap {
  private readonly items: Array<[number, number, number]> = [];

  get size(): number {
    return this.items.length;
  }

  push(rank: number, start: number, end: number): void {
    const items = this.items;
    items.push([rank, start, end]);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): [number, number, number] {
    const items = this.items;
    const top = items[0];
    const last = items.pop() as [number, number, number];
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && less(items[l], items[best])) best = l;
        if (r < items.length && less(items[r], items[best])) best = r;
        if (best === i) break;
        [items[i], items[best]] = [items[best], items[i]];
        i = best;
      }
    }
    return top;
  }
}

function less(a: [number, number, number], b: [number, number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}
