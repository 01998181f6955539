// The paths to suggest for one that names no indexed file (`file:` of an empty search,
// `map`/`show path:` of a path that is not there): the one rule, pure.
import { basename } from '@trufflepig/rank';
import { displayPath } from '@trufflepig/base';
import { editDistance } from '@trufflepig/base/edit-distance';
import { NEAREST_PATHS_MAX } from '../limits';

/**
 * The `max` stored paths nearest `wanted`: the fewest edits from its last segment to a
 * path's base name or one of its directories (`operators/mergMap.ts` → `mergeMap.ts`,
 * `src/internl/` → `src/internal/…`), then the most leading characters shared with it
 * (its own directory first), then path order. A suggestion by shared leading characters
 * alone had named the first files of the directory (`src/internal/nope.ts` →
 * `AnyCatcher.ts, AsyncSubject.ts, …`, an rxjs trial).
 */
export function nearestPaths(wanted: string, paths: readonly string[], max: number = NEAREST_PATHS_MAX): string[] {
  const target = displayPath(wanted).replace(/\/+$/, '');
  const want = target.split('/').pop()!.toLowerCase();
  const shared = (p: string): number => {
    let n = 0;
    while (n < p.length && n < target.length && p[n] === target[n]) n++;
    return n;
  };
  return paths
    .map((p) => {
      const shown = displayPath(p);
      const edits = Math.min(
        editDistance(want, basename(shown).toLowerCase()),
        ...shown.split('/').map((c) => editDistance(want, c.toLowerCase())),
      );
      return { p, edits, shared: shared(shown) };
    })
    .sort((a, b) => a.edits - b.edits || b.shared - a.shared || (a.p < b.p ? -1 : 1))
    .slice(0, max)
    .map((x) => x.p);
}
