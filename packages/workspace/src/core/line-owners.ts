// Which definition holds a line of a file: what a `re:` or literal hit's further matches
// outside its span are labelled with (`317 in $ZodCheckNumberFormat: …`). Two agent trials
// read such lines, listed under a hit named `$ZodCheckGreaterThan` (or `in main_inner`), as
// part of that definition. Read from the index while a search has it open, for the page's
// hits only; a `more` page opens the index again (pageLineOwners).
import {
  enclosingDefinitions,
  lineStartOffsets,
  qualifiedName,
  readIndexedBytes,
  type IndexReader,
} from '@trufflepig/index';
import { percentDecode } from '@trufflepig/base/stored-path';
import type { ResultEntry } from '@trufflepig/result-cache';
import type { Host } from './host';
import { ownerIndexOptions } from './owner';
import { openPublished, releaseReader } from './reader-pool';
import { isCommentLine, isDecorationLine, type LineOwner } from '@trufflepig/render';
import { innermostHolding, outermostStartingAt } from './spans';
import type { IndexedBytesReader } from './live';

/** What may stand between a decoration and its definition: more decorations, comments, blank lines. */
const isBetweenLine = (text: string): boolean => isDecorationLine(text) || isCommentLine(text) || text.trim() === '';

/**
 * The innermost enclosing definition (function, method, type…) of each line of one indexed
 * file, among those starting above the line: a definition's own first line names it
 * already (`5: DEFAULTS = {…}` needs no `in DEFAULTS`). A decorator or attribute line names
 * the definition it decorates (`257 in do_xmlattr: @pass_eval_context`): the grammar puts it
 * outside the definition's lines, and an agent trial's `re:^@pass_eval_context` listed eleven
 * bare `@pass_eval_context` lines it had to re-read with `-C 1` to learn which functions.
 */
export function lineOwnersOf(
  reader: IndexReader,
  path: string,
  read: IndexedBytesReader = readIndexedBytes,
): LineOwner {
  const owners = enclosingDefinitions(reader.fileDefinitions(path));
  // Taken now: the labels may be asked for after the reader is released.
  const f = reader.fileByPath(path);
  const root = reader.root;
  let lines: string[] | undefined;
  const textOf = (line: number): string | undefined => {
    if (lines === undefined) {
      const bytes = f && read(root, f);
      if (!bytes) lines = [];
      else {
        const starts = lineStartOffsets(bytes);
        lines = starts.map((s, i) => bytes.toString('utf8', s, i + 1 < starts.length ? starts[i + 1] : bytes.length));
      }
    }
    return lines[line - 1];
  };
  const decorated = (line: number): string | undefined => {
    if (!isDecorationLine(textOf(line) ?? '')) return undefined;
    let next = line + 1;
    while (textOf(next) !== undefined && isBetweenLine(textOf(next)!)) next++;
    const below = outermostStartingAt(owners, next);
    return below && qualifiedName(below);
  };
  return (line) => {
    const decoratedBy = decorated(line);
    if (decoratedBy !== undefined) return decoratedBy;
    const best = innermostHolding(
      owners.filter((d) => d.startLine < line),
      line,
      line,
    );
    return best && qualifiedName(best);
  };
}

/**
 * The line owners of a page read back from its result set (`more`): each entry's index
 * opened again, labels only where it still holds the entry's revision of the file. A
 * search's first page takes them from the reader it ran on; `more` pages printed further
 * matching lines bare, as if inside the hit's definition (`46: $height = getenv('LINES')`
 * under `Terminal::getWidth`, an agent trial on Symfony Console).
 */
export async function pageLineOwners(
  host: Host,
  entries: readonly ResultEntry[],
): Promise<(e: ResultEntry) => LineOwner | undefined> {
  const owners = new Map<ResultEntry, LineOwner>();
  const readers = new Map<string, IndexReader | null>();
  try {
    for (const e of entries) {
      if (e.tag !== 'live_source' || !e.cache) continue;
      const root = percentDecode(e.root).toString('utf8');
      const key = `${e.cache}\0${root}`;
      if (!readers.has(key)) {
        const opened = await openPublished(host, e.cache, root, ownerIndexOptions(e));
        readers.set(key, opened.ok ? opened.value : null);
      }
      const reader = readers.get(key);
      if (reader && reader.fileByPath(e.path)?.revision === e.revision) owners.set(e, lineOwnersOf(reader, e.path));
    }
  } finally {
    for (const r of readers.values()) if (r) releaseReader(r);
  }
  return (e) => owners.get(e);
}
