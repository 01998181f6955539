import { canonicalOrAbsolute, isSameOrInside } from './canonical';

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
  const conflicts: RootConflict[] = [];
  for (let i = 0; i < canonical.length; i++) {
    for (let j = i + 1; j < canonical.length; j++) {
      const a = canonical[i]!;
      const b = canonical[j]!;
      if (a === b) {
        conflicts.push({
          kind: 'duplicate', first: i, second: j, firstCanonical: a, secondCanonical: b,
          message: `roots ${roots[i]} and ${roots[j]} are the same directory ${a}; remove one of them`,
        });
      } else if (isSameOrInside(a, b) || isSameOrInside(b, a)) {
        const [outer, inner] = isSameOrInside(a, b) ? [i, j] : [j, i];
        conflicts.push({
          kind: 'overlapping', first: outer, second: inner,
          firstCanonical: canonical[outer]!, secondCanonical: canonical[inner]!,
          message: `root ${roots[inner]} lies inside root ${roots[outer]}; remove the nested root or the enclosing one`,
        });
      }
    }
  }
  return conflicts;
}
