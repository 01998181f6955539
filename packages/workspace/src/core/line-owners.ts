// Which definition holds a line of a file: what a `re:` or literal hit's further matches
// outside its span are labelled with (`317 in $ZodCheckNumberFormat: …`). Two agent trials
// read such lines, listed under a hit named `$ZodCheckGreaterThan` (or `in main_inner`), as
// part of that definition. Read from the index while a search has it open, for the page's
// hits only.
import {
  isEnclosingKind,
  lineStartOffsets,
  qualifiedName,
  readIndexedBytes,
  type IndexReader,
} from '@trufflepig/index';
import { isCommentLine, type LineOwner } from '@trufflepig/render';
import { innermostHolding, isDecorationLine, outermostStartingAt } from './spans';

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
export function lineOwnersOf(reader: IndexReader, path: string): LineOwner {
  const owners = reader.fileDefinitions(path).filter((d) => isEnclosingKind(d.kind));
  let lines: string[] | undefined;
  const textOf = (line: number): string | undefined => {
    if (lines === undefined) {
      const f = reader.fileByPath(path);
      const bytes = f && readIndexedBytes(reader.root, f);
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
