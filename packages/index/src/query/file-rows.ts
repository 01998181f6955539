// A reader's file rows in path order, patched from its predecessor's (reader.ts filesFrom):
// a later generation changes a few of the kernel's 78,000 rows, and filtering and merging
// the whole list (with the list aligned to it, the lowercased paths) was ~25 ms of the first
// search after every edit. Pure: the lists passed in are never changed.

import { SPLICED_ROW_CHANGES_MAX } from '../limits';

/** What a row must have to be kept in path order. */
export interface PathRow {
  readonly path: string;
}

/** Path order (stored paths are ASCII, so JavaScript's order is SQLite's). */
export const byPath = (a: PathRow, b: PathRow): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The first index of `rows` (path order) whose path is not below `path`. */
function lowerBound(rows: readonly PathRow[], path: string): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].path < path) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `previous` (in path order, paths unique) without the rows at the paths of `gone` and with
 * `fresh`, in path order; and `aligned` (one value per row of `previous`)
 * edited alike, a fresh row's value being `valueOf(row)`.
 */
export function patchRows<R extends PathRow, V>(
  previous: readonly R[],
  aligned: readonly V[] | undefined,
  gone: readonly R[],
  fresh: readonly R[],
  valueOf: (row: R) => V,
): { readonly rows: R[]; readonly aligned?: V[] } {
  const added = [...fresh].sort(byPath);
  if (gone.length + added.length > SPLICED_ROW_CHANGES_MAX) return merged(previous, aligned, gone, added, valueOf);
  const rows = previous.slice();
  const values = aligned?.slice();
  // A gone row is dropped by its path (a path not in `previous` drops nothing).
  const at = gone
    .map((g) => lowerBound(previous, g.path))
    .filter((i, n) => previous[i]?.path === gone[n].path)
    .sort((a, b) => b - a);
  for (const i of at) {
    rows.splice(i, 1);
    values?.splice(i, 1);
  }
  for (const row of added) {
    const i = lowerBound(rows, row.path);
    rows.splice(i, 0, row);
    values?.splice(i, 0, valueOf(row));
  }
  return values ? { rows, aligned: values } : { rows };
}

function merged<R extends PathRow, V>(
  previous: readonly R[],
  aligned: readonly V[] | undefined,
  gone: readonly R[],
  added: readonly R[],
  valueOf: (row: R) => V,
): { readonly rows: R[]; readonly aligned?: V[] } {
  const dropped = new Set(gone.map((g) => g.path));
  const rows: R[] = [];
  const values: V[] = [];
  let j = 0;
  for (let i = 0; i < previous.length; i++) {
    const row = previous[i];
    if (dropped.has(row.path)) continue;
    while (j < added.length && byPath(added[j], row) < 0) {
      rows.push(added[j]);
      if (aligned) values.push(valueOf(added[j]));
      j++;
    }
    rows.push(row);
    if (aligned) values.push(aligned[i]);
  }
  for (; j < added.length; j++) {
    rows.push(added[j]);
    if (aligned) values.push(valueOf(added[j]));
  }
  return aligned ? { rows, aligned: values } : { rows };
}
