import { allRows, type Database } from '../store/sql';
import type { FtsTerm } from '@trufflepig/rank';
import { FTS_PHRASE_STATS_CACHED_MAX, LANE_REGION_SCAN_MAX } from '../limits';

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

/** A Uint32Array over a matchinfo blob. */
function words32(info: Uint8Array): Uint32Array {
  // A view needs 4-byte alignment; the engine's Buffer may start anywhere in its pool.
  const aligned = info.byteOffset % 4 === 0 ? info : Uint8Array.prototype.slice.call(info);
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}

/** matchinfo('pcnalx') read as numbers. */
function matchInfo(info: Uint8Array): MatchInfo {
  const v = words32(info);
  const p = v[0];
  const c = v[1];
  return { p, c, n: v[2], avg: v.subarray(3, 3 + c), len: v.subarray(3 + c, 3 + 2 * c), x: v.subarray(3 + 2 * c) };
}

/**
 * What BM25 reads of one row and of the whole table. `hits(i, j)` is phrase i's hits in
 * column j of this row, `len` the row's column lengths; `df(i, j)` the rows whose column j
 * holds phrase i, `n` the rows and `avg` the average column lengths.
 */
interface RowStats {
  readonly p: number;
  readonly c: number;
  readonly len: ArrayLike<number>;
  hits(i: number, j: number): number;
}
interface TableStats {
  readonly n: number;
  readonly avg: ArrayLike<number>;
  df(i: number, j: number): number;
}

function pcnalxRow(m: MatchInfo): RowStats & TableStats {
  return {
    p: m.p,
    c: m.c,
    n: m.n,
    avg: m.avg,
    len: m.len,
    hits: (i, j) => m.x[3 * (i * m.c + j)],
    df: (i, j) => m.x[3 * (i * m.c + j) + 2],
  };
}

/** BM25 over matchinfo('pcnalx'), summed over phrases and weighted columns. */
export function bm25(info: Uint8Array): number {
  const row = pcnalxRow(matchInfo(info));
  return bm25Of(row, row);
}

/** BM25 of the phrases from `first` on (the ones before only select rows: ftsRegions' `selectOnly`). */
function bm25Of(row: RowStats, table: TableStats, first = 0): number {
  const { p, c, len } = row;
  let score = 0;
  for (let i = first; i < p; i++) {
    for (let j = 0; j < c; j++) {
      const tf = row.hits(i, j);
      if (tf === 0) continue;
      const df = table.df(i, j);
      const idf = Math.log(1 + (table.n - df + 0.5) / (df + 0.5));
      const norm = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len[j]) / Math.max(1, table.avg[j])));
      score += COLUMN_WEIGHTS[j] * idf * norm;
    }
  }
  return score;
}

/**
 * The share of the query's words that meet in a row: `words[i]` is the query word the
 * expression's i-th phrase (from `first` on) stands for (a word and its stem prefix stand
 * for one word), or -1 for a phrase that does not count (a stopword). 1 when no phrase
 * counts. Made once per statement; `share` reads one row.
 */
function coordination(words: readonly number[], first: number): (row: RowStats) => number {
  const counted = words.filter((w) => w >= 0);
  const asked = new Set(counted).size;
  if (asked === 0) return () => 1;
  const met = new Uint8Array(Math.max(...counted) + 1);
  return (row) => {
    met.fill(0);
    let share = 0;
    for (let i = first; i < row.p && i - first < words.length; i++) {
      const w = words[i - first];
      if (w < 0 || met[w]) continue;
      for (let j = 0; j < row.c; j++) {
        if (row.hits(i, j) > 0) {
          met[w] = 1;
          share++;
          break;
        }
      }
    }
    return share / asked;
  };
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

function phraseStats(p: number, c: number, table: TableStats, first: number): PhraseStats {
  const df: number[][] = [];
  for (let i = first; i < p; i++) df.push(Array.from({ length: c }, (_, j) => table.df(i, j)));
  return { n: table.n, df };
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

/**
 * The phrases of an expression in matchinfo's order: its quoted strings and bare prefix
 * terms (the only phrase forms ftsExpression and ftsFormsExpression write).
 */
export function expressionPhrases(expression: string): string[] {
  return (expression.match(/"[^"]*"|[^\s()"]+/g) ?? []).filter((t) => t !== 'OR' && t !== 'AND' && t !== 'NOT');
}

/**
 * Table statistics of one read connection (one snapshot, held for the reader's life): the
 * rows and average column lengths, and each phrase's rows per column. matchinfo's `x`
 * recounts a phrase's rows over its whole doclist (every position list of `a`, of `devic*`)
 * in every statement that names it; read once per phrase and kept, a query's common words
 * and stopwords cost that once per generation (docs/benchmarks.md, 2026-12-03 night).
 */
interface TableCache {
  base?: { readonly n: number; readonly avg: Uint32Array };
  readonly df: Map<string, Uint32Array>;
}
const tableCaches = new WeakMap<Database, TableCache>();

/** The table statistics of `phrases` (index i: phrases[i]) over `columns`; undefined when a phrase cannot be read alone. */
function tableStatsOf(db: Database, phrases: readonly string[], columns: number): TableStats | undefined {
  let cache = tableCaches.get(db);
  if (!cache) tableCaches.set(db, (cache = { df: new Map() }));
  const df: Uint32Array[] = [];
  for (const phrase of phrases) {
    let docs = cache.df.get(phrase);
    if (!docs) {
      docs = new Uint32Array(columns);
      let row: unknown[] | undefined;
      try {
        row = allRows(db, `SELECT matchinfo(fts, 'pcnax') FROM fts WHERE fts MATCH ? LIMIT 1`, [phrase])[0];
      } catch {
        return undefined; // not a phrase FTS reads alone: the statement's own figures serve
      }
      if (row) {
        const v = words32(row[0] as Uint8Array);
        if (v[0] !== 1 || v[1] !== columns) return undefined;
        cache.base ??= { n: v[2], avg: v.slice(3, 3 + columns) };
        for (let j = 0; j < columns; j++) docs[j] = v[3 + columns + 3 * j + 2];
      }
      if (cache.df.size >= FTS_PHRASE_STATS_CACHED_MAX) cache.df.clear();
      cache.df.set(phrase, docs);
    }
    df.push(docs);
  }
  const base = cache.base;
  return base && { n: base.n, avg: base.avg, df: (i, j) => df[i][j] };
}

/** The live regions an FTS match selects, with the matchinfo `format` of each row last. */
function regionRows(db: Database, match: string, format: 'pcly' | 'pcnalx'): unknown[][] {
  return allRows(
    db,
    `SELECT r.id, r.file, r.start, r.end, r.sl, r.el, r.symbol, matchinfo(fts, '${format}')
     FROM fts JOIN region r ON r.id = fts.docid WHERE fts MATCH ? LIMIT ${LANE_REGION_SCAN_MAX}`,
    [match],
  );
}

/**
 * Files whose regions match `expression`, unscored: for each, its number of matching
 * regions and its first such region. No matchinfo is read (a third of an identifier's
 * any-term statement on the kernel was the Buffer each row's matchinfo came in).
 */
export function matchingFiles(
  db: Database,
  expression: string,
): { file: number; regions: number; start: number; end: number; sl: number; el: number }[] {
  return allRows(
    db,
    `SELECT r.file, count(*), min(r.id), r.start, r.end, r.sl, r.el
     FROM fts JOIN region r ON r.id = fts.docid WHERE fts MATCH ? GROUP BY r.file LIMIT ${LANE_REGION_SCAN_MAX}`,
    [expression],
  ).map((r) => ({
    file: Number(r[0]),
    regions: Number(r[1]),
    start: Number(r[3]),
    end: Number(r[4]),
    sl: Number(r[5]),
    el: Number(r[6]),
  }));
}

/** One row's region fields, scored. */
function regionHit(r: readonly unknown[], score: number): FtsRegionHit {
  return {
    region: Number(r[0]),
    file: Number(r[1]),
    start: Number(r[2]),
    end: Number(r[3]),
    sl: Number(r[4]),
    el: Number(r[5]),
    symbol: r[6] == null ? null : String(r[6]),
    score,
  };
}

/**
 * Where scoring reads the table's figures (rows, average lengths, each phrase's rows):
 * `cached`, the connection's cache (tableStatsOf); `statement`, the statement's own
 * matchinfo `x`, recounted every time. Both give the same scores (search-fts-stats.test.ts).
 */
export type TableStatistics = 'cached' | 'statement';

/** ftsRegions, with the expression's statistics when a row matched, and whether the scan stopped at LANE_REGION_SCAN_MAX. */
export function scoredRegions(
  db: Database,
  expression: string,
  words?: readonly number[],
  selectOnly?: SelectOnly,
  statistics: TableStatistics = 'cached',
): { hits: FtsRegionHit[]; stats?: PhraseStats; capped: boolean } {
  // `(SELECT) AND (EXPRESSION)`: the rows SELECT matches, scored by EXPRESSION's phrases
  // alone (SELECT's come first in matchinfo and are skipped).
  const match = selectOnly ? `(${selectOnly.expression}) AND (${expression})` : expression;
  const first = selectOnly?.phrases ?? 0;
  const share = words ? coordination(words, first) : () => 1;
  if (statistics === 'statement') return statementScoredRegions(db, match, first, share);
  // Rows carry their own hits and lengths (`pcly`); the table's figures come from the cache.
  const rows = regionRows(db, match, 'pcly');
  const capped = rows.length >= LANE_REGION_SCAN_MAX;
  if (rows.length === 0) return { hits: [], capped };
  const head = words32(rows[0][7] as Uint8Array);
  const [p, c] = [head[0], head[1]];
  const phrases = expressionPhrases(match);
  const table = phrases.length === p ? tableStatsOf(db, phrases.slice(first), c) : undefined;
  if (!table) return statementScoredRegions(db, match, first, share);
  const shifted: TableStats = { n: table.n, avg: table.avg, df: (i, j) => table.df(i - first, j) };
  const hits = rows.map((r) => {
    const v = words32(r[7] as Uint8Array);
    const row: RowStats = { p, c, len: v.subarray(2, 2 + c), hits: (i, j) => v[2 + c + i * c + j] };
    return regionHit(r, bm25Of(row, shifted, first) * share(row));
  });
  return { hits, stats: phraseStats(p, c, shifted, first), capped };
}

/** scoredRegions over matchinfo('pcnalx') alone: the table's figures as the statement counts them. */
function statementScoredRegions(
  db: Database,
  match: string,
  first: number,
  share: (row: RowStats) => number,
): { hits: FtsRegionHit[]; stats?: PhraseStats; capped: boolean } {
  const rows = regionRows(db, match, 'pcnalx');
  let stats: PhraseStats | undefined;
  const hits = rows.map((r) => {
    const row = pcnalxRow(matchInfo(r[7] as Uint8Array));
    stats ??= phraseStats(row.p, row.c, row, first);
    return regionHit(r, bm25Of(row, row, first) * share(row));
  });
  return { hits, ...(stats ? { stats } : {}), capped: rows.length >= LANE_REGION_SCAN_MAX };
}
