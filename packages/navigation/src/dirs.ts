// How near two places of a root are: the leading directories they share. Where several
// definitions or files could be meant, the nearest one is (show sym:'s invocation
// directory, an #include's header, a resolved site's definition).
import * as path from 'node:path';

/** The directories of a directory path (`src/a` → `src`, `a`; `.` and `` → none). */
function dirsOf(dir: string): string[] {
  return dir.split('/').filter((s) => s !== '' && s !== '.');
}

/** Leading directories two directory paths share: `src/a/b` and `src/a/c` share 2. */
export function sharedLeadingDirs(dirA: string, dirB: string): number {
  const a = dirsOf(dirA);
  const b = dirsOf(dirB);
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Leading directories the directories of two file paths share. */
export function sharedFileDirs(fileA: string, fileB: string): number {
  return sharedLeadingDirs(path.posix.dirname(fileA), path.posix.dirname(fileB));
}
