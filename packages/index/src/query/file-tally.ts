// What a generation's coverage counts of its file rows (reader.ts generationCoverage), kept
// with the rows a reader hands to the next generation's reader and patched with the rows
// that changed: counting the kernel's 78,000 rows again was ~8 ms of the first search
// after every edit. Pure.

/** The row fields the tally reads. */
export interface TalliedRow {
  readonly path: string;
  readonly excluded: string | null;
  readonly parse: string;
  readonly factLimited: boolean;
}

export interface FileTally {
  /** Rows indexed for their content. */
  readonly indexed: number;
  /** Rows excluded, by reason (a read error apart). */
  readonly excluded: Readonly<Record<string, number>>;
  /** Rows that could not be read. */
  readonly readErrors: number;
  /** Rows that parsed partly or not at all. */
  readonly parseFailures: number;
  /** Paths of rows whose facts were cut at the fact limit, in path order. */
  readonly factLimited: readonly string[];
}

/** A row coverage counts under `parse_failures`: no tree, or a tree with errors (its facts may be incomplete). */
export function isParseFailure(f: Pick<TalliedRow, 'parse'>): boolean {
  return f.parse === 'failed' || f.parse === 'partial';
}

export const EMPTY_TALLY: FileTally = { indexed: 0, excluded: {}, readErrors: 0, parseFailures: 0, factLimited: [] };

/** `tally` with `rows` counted in (`sign` 1) or out (-1). */
export function tallied(tally: FileTally, rows: readonly TalliedRow[], sign: 1 | -1): FileTally {
  if (rows.length === 0) return tally;
  const excluded: Record<string, number> = { ...tally.excluded };
  let { indexed, readErrors, parseFailures } = tally;
  const limited: string[] = [];
  for (const f of rows) {
    if (f.excluded === 'read_error') readErrors += sign;
    else if (f.excluded) {
      const n = (excluded[f.excluded] ?? 0) + sign;
      if (n === 0) delete excluded[f.excluded];
      else excluded[f.excluded] = n;
    } else indexed += sign;
    if (isParseFailure(f)) parseFailures += sign;
    if (f.factLimited) limited.push(f.path);
  }
  let factLimited = tally.factLimited;
  if (limited.length > 0) {
    if (sign > 0) factLimited = [...factLimited, ...limited].sort();
    else {
      const out = new Set(limited);
      factLimited = factLimited.filter((p) => !out.has(p));
    }
  }
  return { indexed, excluded, readErrors, parseFailures, factLimited };
}
