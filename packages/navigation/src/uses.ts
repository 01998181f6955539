// Where a name occurs, from the index's one representative occurrence per name and file.
import { ROLE, roleNames, type IndexedFile, type IndexReader } from '@trufflepig/index';
import { fileStanding } from '@trufflepig/rank';
import type { Span } from './entries';
import type { NavTarget } from './target';

export interface NameUseSite {
  readonly target: NavTarget;
  readonly file: IndexedFile;
  readonly span: Span;
  /** The representative occurrence's strongest role. */
  readonly role: string;
  readonly roles: number;
  readonly count: number;
}

/** Files of one index where `name` occurs (any role), with the representative occurrence. */
export function useRowsOf(
  reader: IndexReader,
  name: string,
): { file: IndexedFile; start: number; end: number; line: number; roles: number; count: number }[] {
  return reader.nameUses(name).filter((u) => !u.file.excluded);
}

/** Up to `max` files using `name` beyond declaring or importing it: code before tests, then most uses, then path. */
export function usesOf(
  targets: readonly NavTarget[],
  name: string,
  max: number,
  skip: ReadonlySet<string>,
): NameUseSite[] {
  const all: NameUseSite[] = [];
  for (const target of targets) {
    for (const u of useRowsOf(target.reader, name)) {
      // Declarations and import-only files have their own lists (definitions, imports).
      if (
        (u.roles & ROLE.declaration) !== 0 ||
        (u.roles & ~ROLE.import) === 0 ||
        skip.has(`${target.member ?? ''}|${u.file.path}`)
      )
        continue;
      all.push({
        target,
        file: u.file,
        span: { start: u.start, end: u.end, startLine: u.line, endLine: u.line },
        role: roleNames(u.roles)[0] ?? 'reference',
        roles: u.roles,
        count: u.count,
      });
    }
  }
  return all
    .sort(
      (a, b) =>
        fileStanding(a.file) - fileStanding(b.file) ||
        b.count - a.count ||
        (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0),
    )
    .slice(0, max);
}
