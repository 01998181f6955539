// The trigram table: for each trigram and each chunk of TRIGRAM_CHUNK_FILES file ids, the
// files whose bytes contain it (row values: trigram/postings.ts). `re:` narrows the files
// it reads with it (trigram/regex.ts).
//
// Rows only gain files. A file that changes is stored under a new id with its new trigrams;
// the trigrams of its old id stay until the table is rebuilt with the FTS table (when dead
// documents pass FTS_DEAD_REBUILD_FRACTION). A stale posting can only make a file a
// candidate that the live match then rejects, never hide a match, and it saves an edit from
// reading back what the old bytes held.
import { TRIGRAM_CHUNK_FILES, TRIGRAM_FLUSH_POSTINGS } from '../limits';
import { addPostingsTo, encodePostings, mergePostings } from '../trigram/postings';
import type { Database, Statement } from './sql';
import { oneValue, statement } from './sql';

export const TRIGRAM_DDL =
  'CREATE TABLE trigram(chunk INTEGER NOT NULL, tri INTEGER NOT NULL, ids BLOB NOT NULL, PRIMARY KEY(chunk, tri)) WITHOUT ROWID';

const SELECT_ROW = 'SELECT ids FROM trigram WHERE chunk = ? AND tri = ?';

/** Files of a chunk whose postings share one 32-bit key space: trigram (24 bits) and offset (8 bits). */
const RUN_BITS = 8;
const RUN_FILES = 1 << RUN_BITS;
const RUN_MASK = RUN_FILES - 1;

/** A growable run of 32-bit keys. */
class Run {
  keys = new Uint32Array(256);
  length = 0;

  push(key: number): void {
    if (this.length === this.keys.length) {
      const grown = new Uint32Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys[this.length++] = key;
  }
}

/**
 * Pending postings of one chunk, 4 bytes each: one run per RUN_FILES files, keyed trigram
 * << 8 | offset within the run, so each run sorts natively as 32-bit integers and the
 * chunk's rows come out of a merge of its sorted runs.
 */
class ChunkBuffer {
  readonly runs: Run[] = Array.from({ length: TRIGRAM_CHUNK_FILES / RUN_FILES }, () => new Run());

  push(tri: number, offset: number): void {
    this.runs[offset >> RUN_BITS].push(((tri << RUN_BITS) | (offset & RUN_MASK)) >>> 0);
  }
}

/**
 * Collects files' trigrams during one generation's write and stores them in chunk order.
 * A chunk that holds no row when first flushed is written with plain inserts in key order
 * (a first index appends to the table); later flushes merge into existing rows.
 */
export class TrigramWriter {
  private readonly pending = new Map<number, ChunkBuffer>();
  private postings = 0;
  /**
   * Chunks this writer has met, and whether their next flush may append without reading
   * rows: true only for a chunk that held no row when first met, until that first flush.
   */
  private readonly appendable = new Map<number, boolean>();
  private readonly insert: Statement;
  private readonly update: Statement;

  constructor(private readonly db: Database) {
    this.insert = db.prepare('INSERT INTO trigram(chunk, tri, ids) VALUES (?, ?, ?)');
    this.update = db.prepare('UPDATE trigram SET ids = ? WHERE chunk = ? AND tri = ?');
  }

  /** Record that file `fileId` holds `trigrams` (fileTrigrams: ascending, distinct). */
  add(fileId: number, trigrams: Uint32Array): void {
    if (trigrams.length === 0) return;
    const chunk = Math.floor(fileId / TRIGRAM_CHUNK_FILES);
    const offset = fileId % TRIGRAM_CHUNK_FILES;
    let buf = this.pending.get(chunk);
    if (!buf) {
      buf = new ChunkBuffer();
      this.pending.set(chunk, buf);
    }
    for (let i = 0; i < trigrams.length; i++) buf.push(trigrams[i], offset);
    this.postings += trigrams.length;
    if (this.postings >= TRIGRAM_FLUSH_POSTINGS) this.flush();
  }

  /** Write every pending posting (call before the generation commits). */
  flush(): void {
    for (const chunk of [...this.pending.keys()].sort((a, b) => a - b)) this.flushChunk(chunk);
    this.pending.clear();
    this.postings = 0;
  }

  private flushChunk(chunk: number): void {
    const buf = this.pending.get(chunk)!;
    const append =
      this.appendable.get(chunk) ??
      oneValue(this.db, 'SELECT 1 FROM trigram WHERE chunk = ? LIMIT 1', [chunk]) === undefined;
    // Later flushes of the same chunk must merge with what this one writes.
    this.appendable.set(chunk, false);
    const runs = buf.runs.map((r) => r.keys.subarray(0, r.length).sort());
    const at = new Array<number>(runs.length).fill(0);
    const offsets = new Uint16Array(TRIGRAM_CHUNK_FILES);
    const select = statement(this.db, SELECT_ROW);
    for (;;) {
      // The smallest trigram at the head of any run; its offsets, run by run, ascend.
      let tri = -1;
      for (let k = 0; k < runs.length; k++)
        if (at[k] < runs[k].length) {
          const t = runs[k][at[k]] >>> RUN_BITS;
          if (tri < 0 || t < tri) tri = t;
        }
      if (tri < 0) break;
      let n = 0;
      for (let k = 0; k < runs.length; k++) {
        const run = runs[k];
        while (at[k] < run.length && run[at[k]] >>> RUN_BITS === tri) {
          const o = (k << RUN_BITS) | (run[at[k]] & RUN_MASK);
          if (n === 0 || offsets[n - 1] !== o) offsets[n++] = o;
          at[k]++;
        }
      }
      const old = append ? undefined : (select.pluck().get(chunk, tri) as Buffer | undefined);
      if (old === undefined) this.insert.run(chunk, tri, encodePostings(offsets, 0, n));
      else {
        const merged = mergePostings(old, offsets, 0, n);
        if (merged) this.update.run(merged, chunk, tri);
      }
    }
  }
}

/** Empty the table (a rebuild stores every live file again). */
export function clearTrigrams(db: Database): void {
  db.exec('DELETE FROM trigram');
}

/**
 * The files holding `tri`, as a bitset over file ids below `words × 32` (bit id & 31 of word
 * id >> 5). One indexed read per chunk.
 */
export function trigramFiles(db: Database, tri: number, words: number): Uint32Array {
  const files = new Uint32Array(words);
  const chunks = Math.ceil((words * 32) / TRIGRAM_CHUNK_FILES);
  const select = statement(db, SELECT_ROW);
  for (let chunk = 0; chunk < chunks; chunk++) {
    const row = select.pluck().get(chunk, tri) as Buffer | undefined;
    if (row) addPostingsTo(files, chunk, row);
  }
  return files;
}
