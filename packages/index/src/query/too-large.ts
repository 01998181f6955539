// Which files too large to index a query reads live (`re:`, `"literal"`, and the mentions
// check of `refs`, `show sym:` and no_definition), and which it leaves: the one owner of
// that rule, so search and navigation never bound them differently.
import { TOO_LARGE_LIVE_BYTES_MAX, TOO_LARGE_SCAN_MAX_BYTES } from '../limits';
import type { IndexedFile } from './reader';

/** The too-large files a query reads live and the ones it leaves unread, each in path order. */
export interface TooLargeLive {
  readonly read: readonly IndexedFile[];
  /** Eligible, never read by this query: coverage names them (`too_large_unsearched`). */
  readonly unread: readonly IndexedFile[];
}

export const NO_TOO_LARGE: TooLargeLive = { read: [], unread: [] };

/**
 * Split `eligible` (too-large files the query's filters admit, in path order) into those read
 * and those left. A file a `file:` value names exactly (`named`: the query's percent-normalized
 * values) is read first, whatever the others weigh: the agent asked for that file. The rest
 * are read in path order while the recorded sizes summed stay within
 * TOO_LARGE_LIVE_BYTES_MAX; one that does not fit is left and the next smaller one may still
 * fit. A file over TOO_LARGE_SCAN_MAX_BYTES is never read (the per-file bound: show path:
 * refuses it too), named or not, and is counted as left.
 */
export function tooLargeWithinBound(eligible: readonly IndexedFile[], named: readonly string[]): TooLargeLive {
  if (eligible.length === 0) return NO_TOO_LARGE;
  const readable = (f: IndexedFile) => f.size <= TOO_LARGE_SCAN_MAX_BYTES;
  const isNamed = (f: IndexedFile) => named.includes(f.path);
  let spent = 0;
  for (const f of eligible) if (isNamed(f) && readable(f)) spent += f.size;
  const read: IndexedFile[] = [];
  const unread: IndexedFile[] = [];
  for (const f of eligible) {
    if (!readable(f)) unread.push(f);
    else if (isNamed(f)) read.push(f);
    else if (spent + f.size <= TOO_LARGE_LIVE_BYTES_MAX) {
      spent += f.size;
      read.push(f);
    } else unread.push(f);
  }
  return { read, unread };
}
