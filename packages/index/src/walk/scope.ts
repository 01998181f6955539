// Which paths a scoped reconcile walks: the paths a daemon's file watcher reported, made
// into a small set of root-relative subtrees, or nothing when only a whole walk can answer.
import { SCOPED_WALK_MAX_PATHS } from '../limits';

/** The per-directory ignore file; a change to one changes what every path below it means. */
export const IGNORE_FILE_NAME = '.gitignore';

/**
 * `paths` (root-relative, '/'-separated, a file or a directory each) as the raw subtrees a
 * scoped walk lists: trailing slashes dropped, duplicates and paths inside another path of
 * the set dropped, sorted. Undefined when the whole root must be walked instead: no paths,
 * more than SCOPED_WALK_MAX_PATHS, a path that names no place precisely (empty, absolute,
 * `.` or `..`, a character the watcher could not decode), anything in `.git`, or an
 * ignore file (its rules decide about paths outside the set).
 */
export function scopeOf(paths: readonly string[]): Buffer[] | undefined {
  if (paths.length === 0 || paths.length > SCOPED_WALK_MAX_PATHS) return undefined;
  const texts: string[] = [];
  for (const path of paths) {
    const text = path.replace(/\/+$/, '');
    if (text === '' || text.includes('\uFFFD') || text.includes('\u0000')) return undefined;
    const parts = text.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git')) return undefined;
    if (parts[parts.length - 1] === IGNORE_FILE_NAME) return undefined;
    texts.push(text);
  }
  const set = new Set(texts);
  const inside = (text: string) => {
    for (let i = text.indexOf('/'); i !== -1; i = text.indexOf('/', i + 1)) if (set.has(text.slice(0, i))) return true;
    return false;
  };
  return [...set]
    .filter((t) => !inside(t))
    .sort()
    .map((t) => Buffer.from(t, 'utf8'));
}
