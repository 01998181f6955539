// How near two places of a root are: the leading directories they share. Where several
// definitions or files could be meant, the nearest one is (show sym:'s invocation
// directory, an #include's header, a resolved site's definition, a class's base).
import * as path from 'node:path';
import { byPath, type IndexedDefinition, type IndexedFile } from '@trufflepig/index';
import { fileStanding } from '@trufflepig/rank';

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

/**
 * Of several definitions of one name, the one `file` most likely means when nothing named
 * which: its own file's, else the one sharing most leading directories with it (a build's
 * copy calls the build's), then hand-written code's before tests' and build output's,
 * then by path.
 */
export function nearestDefinition(
  defs: readonly IndexedDefinition[],
  file: IndexedFile,
): IndexedDefinition | undefined {
  const shared = (d: IndexedDefinition) => sharedFileDirs(file.path, d.file.path);
  const before = (a: IndexedDefinition, b: IndexedDefinition): boolean =>
    (Number(a.file.id !== file.id) - Number(b.file.id !== file.id) ||
      shared(b) - shared(a) ||
      fileStanding(a.file) - fileStanding(b.file) ||
      byPath(a.file, b.file)) < 0;
  let best: IndexedDefinition | undefined;
  for (const d of defs) if (best === undefined || before(d, best)) best = d;
  return best;
}
