// Rank lookup for byte sequences. The fast path reads the hash table that the build writes
// (scripts/build-ranks.js, dist/o200k.ranks.bin): a file read, no per-entry work. The
// fallback builds a Map from js-tiktoken's ranks text, keyed by base64 (no decoding).
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RankLookup {
  /** Rank of bytes[start, end), or -1 when it is not a token. */
  rank(bytes: Uint8Array, start: number, end: number): number;
  /** The pre-tokenizer pattern (`pat_str`). */
  readonly pattern: string;
  readonly source: 'table' | 'map';
}

interface RanksFile {
  pat_str: string;
  bpe_ranks: string;
}

export function ranksFile(): RanksFile {
  return require('js-tiktoken/ranks/o200k_base') as RanksFile;
}

const TABLE_FILE = 'o200k.ranks.bin';
const MAGIC = 'TPR1';

function tablePath(): string | undefined {
  try {
    const file = path.join(path.dirname(require.resolve('@trufflepig/render/package.json')), 'dist', TABLE_FILE);
    return fs.existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function tableLookup(file: string): RankLookup | undefined {
  const buf = fs.readFileSync(file);
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== MAGIC) return undefined;
  const slots = buf.readUInt32LE(4);
  const blobSize = buf.readUInt32LE(8);
  const patternAt = 12 + slots * 8 + blobSize;
  const pattern = buf.toString('utf8', patternAt + 4, patternAt + 4 + buf.readUInt32LE(patternAt));
  const copy = new Uint8Array(buf.length);
  copy.set(buf);
  const table = new Uint32Array(copy.buffer, 12, slots * 2);
  const blob = 12 + slots * 8;
  const mask = slots - 1;
  return {
    source: 'table',
    pattern,
    rank(bytes, start, end) {
      const length = end - start;
      let slot = fnv1a(bytes, start, end) & mask;
      for (;;) {
        const entry = table[slot * 2];
        if (entry === 0) return -1;
        const at = blob + entry - 1;
        if ((copy[at] | (copy[at + 1] << 8)) === length) {
          let same = true;
          for (let i = 0; i < length; i++) {
            if (copy[at + 2 + i] !== bytes[start + i]) {
              same = false;
              break;
            }
          }
          if (same) return table[slot * 2 + 1];
        }
        slot = (slot + 1) & mask;
      }
    },
  };
}

function mapLookup(): RankLookup {
  const ranks = new Map<string, number>();
  const file = ranksFile();
  const text = file.bpe_ranks;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    // Line shape: "! OFFSET tok tok ..." with ranks consecutive from OFFSET.
    const fields = text.slice(lineStart, lineEnd).split(' ');
    if (fields.length >= 2) {
      const offset = Number.parseInt(fields[1], 10);
      for (let i = 2; i < fields.length; i++) if (fields[i] !== '') ranks.set(fields[i], offset + i - 2);
    }
    lineStart = lineEnd + 1;
  }
  return {
    source: 'map',
    pattern: file.pat_str,
    rank: (bytes, start, end) =>
      ranks.get(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('base64')) ?? -1,
  };
}

/** The table written by the build when present, else the Map built from js-tiktoken's data. */
export function loadRankLookup(preferTable = true): RankLookup {
  const file = preferTable ? tablePath() : undefined;
  return (file && tableLookup(file)) || mapLookup();
}
