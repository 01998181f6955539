import { canonicalOrAbsolute, overlappingPairs } from '@trufflepig/base';

export interface RootConflict {
  /** duplicate: both name one directory (symlink aliases included); overlapping: `first` contains `second`. */
  kind: 'duplicate' | 'overlapping';
  /** Index into the checked list. */
  first: number;
  second: number;
  firstCanonical: string;
  secondCanonical: string;
  message: string;
}

/**
 * Duplicate and overlapping roots among `roots`, compared by canonical path so symlink
 * aliases are caught. Missing roots compare by their normalized absolute path (with any
 * existing ancestor resolved). Every conflicting pair is reported once.
 */
export function checkRoots(roots: readonly string[]): RootConflict[] {
  const canonical = roots.map((root) => canonicalOrAbsolute(root));
  return overlappingPairs(canonical).map((pair): RootConflict => {
    if (pair.kind === 'same') {
      const { first, second } = pair;
      return {
        kind: 'duplicate',
        first,
        second,
        firstCanonical: canonical[first]!,
        secondCanonical: canonical[second]!,
        message: `roots ${roots[first]} and ${roots[second]} are the same directory ${canonical[first]}; remove one of them`,
      };
    }
    const { outer, inner } = pair;
    return {
      kind: 'overlapping',
      first: outer,
      second: inner,
      firstCanonical: canonical[outer]!,
      secondCanonical: canonical[inner]!,
      message: `root ${roots[inner]} lies inside root ${roots[outer]}; remove the nested root or the enclosing one`,
    };
  });
}
