// Which definition holds a line of a file: what a `re:` or literal hit's further matches
// outside its span are labelled with (`317 in $ZodCheckNumberFormat: …`). Two agent trials
// read such lines, listed under a hit named `$ZodCheckGreaterThan` (or `in main_inner`), as
// part of that definition. Read from the index while a search has it open, for the page's
// hits only.
import { isEnclosingKind, qualifiedName, type IndexReader } from '@trufflepig/index';
import type { LineOwner } from '@trufflepig/render';
import { innermostHolding } from './spans';

/**
 * The innermost enclosing definition (function, method, type…) of each line of one indexed
 * file, among those starting above the line: a definition's own first line names it
 * already (`5: DEFAULTS = {…}` needs no `in DEFAULTS`).
 */
export function lineOwnersOf(reader: IndexReader, path: string): LineOwner {
  const owners = reader.fileDefinitions(path).filter((d) => isEnclosingKind(d.kind));
  return (line) => {
    const best = innermostHolding(
      owners.filter((d) => d.startLine < line),
      line,
      line,
    );
    return best && qualifiedName(best);
  };
}
