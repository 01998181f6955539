// Files the index holds text of but no facts for, that mention a name: what `refs` tells
// of the code it cannot read for sites (Objective-C++ `.mm`, Swift, Ruby, shell: text to
// the index). An agent trial on JUCE got 60 call sites of `MessageManager::callAsync` and
// no word of the five in `.mm` files.
import { hasCodeExtension } from '../classify';
import { ftsExpression } from './fts';
import { identifierTokens } from './lanes';
import type { IndexedFile, IndexReader } from './reader';
import { allRows } from '../store/sql';

/**
 * Files of a programming language no extractor reads (hasCodeExtension: a test's `.sh`, not
 * its `.txt` data) whose text holds `name` as the FTS tokenizes it, in path order.
 */
export function unparsedCodeMentioning(reader: IndexReader, name: string): IndexedFile[] {
  const tokens = identifierTokens(name);
  if (tokens.length === 0) return [];
  const ids = allRows(
    reader.db,
    `SELECT DISTINCT r.file FROM fts JOIN region r ON r.id = fts.docid JOIN file f ON f.id = r.file
     WHERE fts MATCH ? AND f.lang = 'text'`,
    [ftsExpression(tokens, 'phrase')],
  ).map((r) => Number(r[0]));
  return ids
    .map((id) => reader.file(id))
    .filter((f): f is IndexedFile => f !== undefined && !f.excluded && hasCodeExtension(f.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
