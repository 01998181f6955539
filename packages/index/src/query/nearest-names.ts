// The defined names nearest a name no definition has (docs/spec/retrieval.md §6: `no_definition`
// names them): first the same words in another case or separator (`mergeconfig`,
// `merge_config` → `mergeConfig`), then keys within a small edit distance (`mergeConfg`).
import { identifierKey } from '@trufflepig/rank';
import { NEAREST_NAMES_MAX, NEAREST_NAMES_SCAN_MAX } from '../limits';
import { namesNearKey, namesWithKey } from '../store/definitions';
import { editDistance } from '@trufflepig/base/edit-distance';
import type { IndexReader } from './reader';

/** Edits allowed between keys: one for short names, two from 6 letters. */
function allowedEdits(key: string): number {
  return key.length >= 6 ? 2 : 1;
}

/** Up to NEAREST_NAMES_MAX defined names near `name`, nearest first, never `name` itself. */
export function nearestDefinedNames(reader: IndexReader, name: string): string[] {
  const key = identifierKey(name);
  if (!key) return [];
  const out: string[] = [];
  const add = (n: string) => {
    if (n !== name && !out.includes(n) && out.length < NEAREST_NAMES_MAX) out.push(n);
  };
  for (const n of namesWithKey(reader.db, key, NEAREST_NAMES_MAX + 1)) add(n);
  if (out.length >= NEAREST_NAMES_MAX) return out;
  // Keys of a near length sharing the first letter: bounded, on the error path only.
  const edits = allowedEdits(key);
  const first = String.fromCodePoint(key.codePointAt(0)!);
  const near = namesNearKey(reader.db, first, key.length - edits, key.length + edits, NEAREST_NAMES_SCAN_MAX)
    .map(({ key: k, name: n }) => ({ n, d: editDistance(key, k) }))
    .filter((x) => x.d > 0 && x.d <= edits)
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  for (const x of near) add(x.n);
  return out;
}
