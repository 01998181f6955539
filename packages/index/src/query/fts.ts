import { allRows, type Database } from '../store/sql';
import type { FtsTerm } from '@trufflepig/rank';
import { LANE_REGION_SCAN_MAX } from '../limits';

const K1 = 1.2;
const B = 0.75;
/** Identifier expansions count a little less than body text. */
const COLUMN_WEIGHTS = [1, 0.6];

export interface FtsRegionHit {
  region: number;
  file: number;
  start: number;
  end: number;
  sl: number;
  el: number;
  symbol: string | null;
  score: number;
}

function quote(word: string): string {
  return `"${word.replace(/"/g, '')}"`;
}

export type FtsMode = 'phrase' | 'all' | 'any';

export function ftsExpression(words: readonly string[], mode: FtsMode): string {
  if (mode === 'phrase') return `"${words.map((w) => w.replace(/"/g, '')).join(' ')}"`;
  return words.map(quote).join(mode === 'all' ? ' ' : ' OR ');
}

/** A word quoted, or a stem as a prefix query (`nest*`: letters and digits only, unquoted). */
export function termText(t: FtsTerm): string {
  return t.prefix ? `${t.text.replace(/[^\p{L}\p{N}]/gu, '')}*` : quote(t.text);
}

/** An `any` expression over every form of every query word (word-forms.ts): `"nested" OR nest* OR ...`. */
export function ftsFormsExpression(forms: readonly (readonly FtsTerm[])[]): string {
  return forms.flatMap((f) => f.map(termText)).join(' OR ');
}

interface MatchInfo {
  /** Phrases (terms) of the expression, columns, documents. */
  readonly p: number;
  readonly c: number;
  readonly n: number;
  readonly avg: Uint32Array;
  readonly len: Uint32Array;
  /** Per phrase and column: hits in this row, hits in all rows, rows with a hit. */
  readonly x: Uint32Array;
}

/** matchinfo('pcnalx') read as numbers. */
function matchInfo(info: Uint8Array): MatchInfo {
  // A view needs 4-byte alignment; the engine's Buffer may start anywhere in its pool.
  const aligned = info.byteOffset % 4 === 0 ? info : Uint8Array.prototype.slice.call(info);
  const v = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  const p = v[0];
  const c = v[1];
  return { p, c, n: v[2], avg: v.subarray(3, 3 + c), len: v.subarray(3 + c, 3 + 2 * c), x: v.subarray(3 + 2 * c) };
}

/** BM25 over matchinfo('pcnalx'), summed over phrases and weighted columns. */
export function bm25(info: Uint8Array): number {
  return bm25Of(matchInfo(info));
}

/** BM25 of the phrases from `first` on (the ones before only select rows: ftsRegions' `selectOnly`). */
function bm25Of({ p, c, n, avg, len, x }: MatchInfo, first = 0): number {
  let score = 0;
  for (let i = first; i < p; i++) {
    for (let j = 0; j < c; j++) {
      const base = 3 * (i * c + j);
      const tf = x[base];
      if (tf === 0) continue;
      const df = x[base + 2];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const norm = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len[j]) / Math.max(1, avg[j])));
      score += COLUMN_WEIGHTS[j] * idf * norm;
    }
  }
  return score;
}

/**
 * The share of the query's words that meet in this row: `words[i]` is the query word the
 * expression's i-th phrase stands for (a word and its stem prefix stand for one word), or
 * -1 for a phrase that does not count (a stopword). 1 when no phrase counts.
 */
function coordination({ p, c, x }: MatchInfo, words: readonly number[], first = 0): number {
  const asked = new Set(words.filter((w) => w >= 0));
  if (asked.size === 0) return 1;
  const met = new Set<number>();
  for (let i = first; i < p && i - first < words.length; i++) {
    const w = words[i - first];
    if (w < 0) continue;
    for (let j = 0; j < c; j++) if (x[3 * (i * c + j)] > 0) met.add(w);
  }
  return met.size / asked.size;
}

/** A row's score: BM25, scaled by its coordination when the query's words are given. */
function rowScore(info: Uint8Array, words: readonly number[] | undefined, first: number): number {
  const m = matchInfo(info);
  return words ? bm25Of(m, first) * coordination(m, words, first) : bm25Of(m, first);
}

/**
 * A narrower expression that selects the rows a scored expression may score (a query's
 * content words, without its stopwords), and its phrase count. A row it leaves out is one
 * whose coordination is 0 anyway: it only holds words that never count toward the share.
 */
export interface SelectOnly {
  readonly expression: string;
  readonly phrases: number;
}

/**
 * An expression's global statistics, read off any matching row's matchinfo: the documents,
 * and per phrase (from the scoring expression's first) and column the documents holding it.
 */
export interface PhraseStats {
  readonly n: number;
  readonly df: readonly (readonly number[])[];
}

function phraseStats({ p, c, n, x }: MatchInfo, first: number): PhraseStats {
  const df: number[][] = [];
  for (let i = first; i < p; i++) df.push(Array.from({ length: c }, (_, j) => x[3 * (i * c + j) + 2]));
  return { n, df };
}

/**
 * The highest score a row can have that holds only `phrases` (indexes among the scoring
 * expression's phrases) and whose coordination is `share`: each phrase's BM25 is below
 * idf × (K1 + 1) in each column, whatever its frequency and the row's length.
 */
export function scoreBound(stats: PhraseStats, phrases: readonly number[], share: number): number {
  let bound = 0;
  for (const i of phrases) {
    const df = stats.df[i];
    if (!df) continue;
    for (let j = 0; j < df.length; j++) {
      if (df[j] === 0) continue;
      const idf = Math.log(1 + (stats.n - df[j] + 0.5) / (df[j] + 0.5));
      bound += (COLUMN_WEIGHTS[j] ?? 1) * idf * (K1 + 1);
    }
  }
  return bound * share;
}

/**
 * Live regions matching an FTS expression, scored; dead documents (no region row) drop out.
 * With `words` (see coordination), a region's BM25 is scaled by the share of the query's
 * words it holds: several words meeting in one definition's region outrank one word
 * repeated, or a long region where a few of them are scattered.
 */
export function ftsRegions(
  db: Database,
  expression: string,
  words?: readonly number[],
  selectOnly?: SelectOnly,
): FtsRegionHit[] {
  return scoredRegions(db, expression, words, selectOnly).hits;
}

/** ftsRegions, with the expression's statistics when a row matched, and whether the scan stopped at LANE_REGION_SCAN_MAX. */
export function scoredRegions(
  db: Database,
  expression: string,
  words?: readonly number[],
  selectOnly?: SelectOnly,
): { hits: FtsRegionHit[]; stats?: PhraseStats; capped: boolean } {
  // `(SELECT) AND (EXPRESSION)`: the rows SELECT matches, scored by EXPRESSION's phrases
  // alone (SELECT's come first in matchinfo and are skipped).
  const match = selectOnly ? `(${selectOnly.expression}) AND (${expression})` : expression;
  const first = selectOnly?.phrases ?? 0;
  const rows = allRows(
    db,
    `SELECT r.id, r.file, r.start, r.end, r.sl, r.el, r.symbol, matchinfo(fts, 'pcnalx')
     FROM fts JOIN region r ON r.id = fts.docid WHERE fts MATCH ? LIMIT ${LANE_REGION_SCAN_MAX}`,
    [match],
  );
  const hits = rows.map((r) => ({
    region: Number(r[0]),
    file: Number(r[1]),
    start: Number(r[2]),
    end: Number(r[3]),
    sl: Number(r[4]),
    el: Number(r[5]),
    symbol: r[6] == null ? null : String(r[6]),
    score: rowScore(r[7] as Uint8Array, words, first),
  }));
  return {
    hits,
    ...(rows.length > 0 ? { stats: phraseStats(matchInfo(rows[0][7] as Uint8Array), first) } : {}),
    capped: rows.length >= LANE_REGION_SCAN_MAX,
  };
}
