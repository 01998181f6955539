// Which definition holds a line of a file: what a `re:` or literal hit's further matches
// outside its span are labelled with (`317 in $ZodCheckNumberFormat: …`). Two agent trials
// read such lines, listed under a hit named `$ZodCheckGreaterThan` (or `in main_inner`), as
// part of that definition. Read from the index while a search has it open, for the page's
// hits only.
import { isEnclosingKind, qualifiedName, type IndexReader } from '@trufflepig/index';
import type { LineOwner } from '@trufflepig/render';

interface Owner {
  readonly startLine: number;
  readonly endLine: number;
  readonly name: string;
}

/**
 * The innermost enclosing definition (function, method, type…) of each line of one indexed
 * file, among those starting above the line: a definition's own first line names it
 * already (`5: DEFAULTS = {…}` needs no `in DEFAULTS`).
 */
export function lineOwnersOf(reader: IndexReader, path: string): LineOwner {
  const owners: Owner[] = reader
    .fileDefinitions(path)
    .filter((d) => isEnclosingKind(d.kind))
    .map((d) => ({ startLine: d.startLine, endLine: d.endLine, name: qualifiedName(d) }));
  return (line) => {
    let best: Owner | undefined;
    for (const o of owners)
      if (o.startLine < line && line <= o.endLine && (!best || o.endLine - o.startLine < best.endLine - best.startLine))
        best = o;
    return best?.name;
  };
}
