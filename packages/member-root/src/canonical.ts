import * as fs from 'node:fs';
import * as path from 'node:path';
import { fail, ok, type Outcome } from './outcome';

/**
 * The canonical form of a root: the realpath of an existing, readable directory.
 * Symlink aliases of one directory therefore share one canonical path (and one cache).
 */
export function canonicalRoot(dir: string): Outcome<string> {
  const absolute = path.resolve(dir);
  let real: string;
  try {
    real = fs.realpathSync.native(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES') {
      return fail('root_unreadable', `cannot resolve ${absolute}: permission denied; grant read access or choose another root`);
    }
    if (code === 'ENOTDIR') {
      return fail('root_not_directory', `${absolute} is not a directory; pass a directory as the root`);
    }
    return fail('root_not_found', `${absolute} does not exist; check the path or create the directory`);
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    return fail('root_not_found', `${absolute} does not exist; check the path or create the directory`);
  }
  if (!stat.isDirectory()) {
    return fail('root_not_directory', `${absolute} is not a directory; pass a directory as the root`);
  }
  try {
    // Listing needs read, descending needs execute: both are required to walk a root.
    fs.accessSync(real, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return fail('root_unreadable', `${real} is not readable; grant read and execute permission or choose another root`);
  }
  return ok(real);
}

/**
 * The realpath of a path; for a path that does not exist yet, the realpath of its deepest
 * existing ancestor joined with the missing tail, so a symlinked parent still resolves.
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

/** Whether `inner` equals `outer` or lies beneath it; pure path comparison, no I/O. */
export function isSameOrInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  if (rel === '') return true;
  // A child named "..foo" is inside; only a leading ".." segment leaves the tree.
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
