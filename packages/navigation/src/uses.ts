// Where a name occurs, from the index's one representative occurrence per name and file.
import {
  byPath,
  lineNumberAt,
  readLiveFile,
  ROLE,
  roleNames,
  type IndexedFile,
  type IndexReader,
} from '@trufflepig/index';
import { NAV_UNINDEXED_READ_MAX } from './limits';
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

/**
 * Whether a file's name rows may lack a name its bytes hold: its uses were cut at the
 * per-file fact limit, or its parse failed.
 */
function namesIncomplete(f: IndexedFile): boolean {
  return f.factLimited || f.parse === 'failed';
}

/** Bytes that continue an identifier (ASCII word characters, `$`, and any byte of a UTF-8 sequence). */
function identifierByte(b: number | undefined): boolean {
  return (
    b !== undefined &&
    ((b >= 0x30 && b <= 0x39) ||
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      b === 0x5f ||
      b === 0x24 ||
      b >= 0x80)
  );
}

/** The 1-based line of the first whole-word occurrence of `word` in `bytes`, if any. */
function firstWordLine(bytes: Buffer, word: Buffer): number | undefined {
  for (let at = bytes.indexOf(word); at >= 0; at = bytes.indexOf(word, at + 1)) {
    if (identifierByte(bytes[at - 1]) || identifierByte(bytes[at + word.length])) continue;
    return lineNumberAt(bytes, at);
  }
  return undefined;
}

/** A file whose name rows lack a name its current bytes hold, and the line of its first occurrence. */
export interface UnindexedMention {
  readonly file: IndexedFile;
  readonly line: number;
}

/**
 * Files passing `ok` whose name rows may lack `name` (namesIncomplete) and whose current
 * bytes hold it as a whole word, other than `skip` (files the rows already name): what the
 * rows alone would hide. An agent trial's `refs md_begin file:gas/config/tc-arm.c` answered
 * 0 sites, the file's uses past line ~5,100 being over the fact limit. At most
 * NAV_UNINDEXED_READ_MAX files are read; `unread` counts the others.
 */
export function unindexedMentions(
  reader: IndexReader,
  root: string,
  name: string,
  ok: (f: IndexedFile) => boolean,
  skip: ReadonlySet<number> = new Set(),
): { mentions: UnindexedMention[]; unread: number } {
  const word = Buffer.from(name, 'utf8');
  const mentions: UnindexedMention[] = [];
  let read = 0;
  let unread = 0;
  for (const f of reader.files()) {
    if (f.excluded || !namesIncomplete(f) || skip.has(f.id) || !ok(f)) continue;
    if (read >= NAV_UNINDEXED_READ_MAX) {
      unread++;
      continue;
    }
    read++;
    const live = readLiveFile(root, f.path);
    if (!live.ok) continue;
    const line = firstWordLine(live.bytes, word);
    if (line !== undefined) mentions.push({ file: f, line });
  }
  return { mentions, unread };
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
    .sort((a, b) => fileStanding(a.file) - fileStanding(b.file) || b.count - a.count || byPath(a.file, b.file))
    .slice(0, max);
}
