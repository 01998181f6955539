// Canonical paths and containment of roots: the rules member roots, workspace members and
// cache directories are compared by.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The realpath of a path; for a path that does not exist yet, the realpath of its deepest
 * existing ancestor joined with the missing tail, so a symlinked parent still resolves and
 * aliases of one directory compare equal.
 *
 * Guarantees: always returns an absolute, normalized path (relative input is resolved
 * against the current directory) and never throws; when no ancestor resolves, the
 * normalized absolute path itself.
 */
export function canonicalOrAbsolute(p: string): string {
  const absolute = path.resolve(p);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Whether `inner` equals `outer` or lies beneath it, by whole path segments (`/a/bc` is not
 * inside `/a/b`). Pure path comparison, no I/O: canonicalize both sides first
 * (canonicalOrAbsolute) when symlinks should count.
 */
export function isSameOrInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  if (rel === '') return true;
  // A child named "..foo" is inside; only a leading ".." segment leaves the tree.
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** What probeDirectory found; each owner maps these states to its own errors. */
export type DirectoryProbe =
  /** An existing directory that can be listed and descended: `real` is its realpath. */
  | { readonly state: 'ok'; readonly real: string }
  /**
   * realpath failed: the path or a component is missing, a dangling symlink, not
   * searchable, ... `code` is the errno code (`ENOENT`, `EACCES`, `ENOTDIR`, `ELOOP`, ...).
   */
  | { readonly state: 'unresolved'; readonly path: string; readonly code: string | undefined }
  /** The realpath resolved but could not be stat'ed (e.g. removed in between). */
  | { readonly state: 'vanished'; readonly real: string }
  /** The realpath is not a directory. */
  | { readonly state: 'not_directory'; readonly real: string }
  /** A directory without read and execute permission for this process. */
  | { readonly state: 'unreadable'; readonly real: string };

/**
 * Resolve `p` (used as given: resolve relative paths first when the caller means the
 * current directory) to the realpath of a directory this process can walk, or say which
 * step failed. Guarantees: never throws; `ok` means realpath, stat and the R_OK|X_OK
 * access check all succeeded, in that order, and the first failing step is the state.
 */
export function probeDirectory(p: string): DirectoryProbe {
  let real: string;
  try {
    real = fs.realpathSync.native(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { state: 'unresolved', path: p, code: typeof code === 'string' ? code : undefined };
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    return { state: 'vanished', real };
  }
  if (!stat.isDirectory()) return { state: 'not_directory', real };
  try {
    // Listing needs read, descending needs execute: both are required to walk a root.
    fs.accessSync(real, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return { state: 'unreadable', real };
  }
  return { state: 'ok', real };
}

/** One pair of overlapping paths found by overlappingPairs. */
export interface PathOverlap {
  /** `same`: equal paths; `nested`: one lies inside the other (isSameOrInside). */
  readonly kind: 'same' | 'nested';
  /** Positions of the pair in the checked list, `first < second`. */
  readonly first: number;
  readonly second: number;
  /** Position of the enclosing path and of the enclosed one (`first` and `second` when `same`). */
  readonly outer: number;
  readonly inner: number;
}

/**
 * Every pair of `paths` that are the same or nested, each pair once, ordered by `first`
 * then `second`. Pure string comparison, no I/O: pass canonical paths
 * (canonicalOrAbsolute) so symlink aliases count as the same directory.
 */
export function overlappingPairs(paths: readonly string[]): PathOverlap[] {
  const pairs: PathOverlap[] = [];
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const a = paths[i]!;
      const b = paths[j]!;
      if (a === b) pairs.push({ kind: 'same', first: i, second: j, outer: i, inner: j });
      else if (isSameOrInside(a, b)) pairs.push({ kind: 'nested', first: i, second: j, outer: i, inner: j });
      else if (isSameOrInside(b, a)) pairs.push({ kind: 'nested', first: i, second: j, outer: j, inner: i });
    }
  }
  return pairs;
}
