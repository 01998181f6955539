// Files the index holds text of but no facts for, that mention a name: what `refs` tells
// of the code it cannot read for sites (Objective-C++ `.mm`, Swift, Ruby, shell: text to
// the index). An agent trial on JUCE got 60 call sites of `MessageManager::callAsync` and
// no word of the five in `.mm` files.
import { hasCodeExtension } from '../classify';
import { ftsExpression } from './fts';
import { identifierTokens } from './lanes';
import { readLiveUnhashed } from './live';
import type { FileFilters } from './eligibility';
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

const IDENTIFIER_BYTE = /[\w$]/;

/** Whether `bytes` hold `name` with no identifier character either side (`sqlite3PagerWrite`, not `sqlite3PagerWriteX`). */
function holdsIdentifier(bytes: Buffer, name: Buffer): boolean {
  const isIdent = (b: number | undefined) => b !== undefined && IDENTIFIER_BYTE.test(String.fromCharCode(b));
  for (let at = bytes.indexOf(name); at >= 0; at = bytes.indexOf(name, at + 1)) {
    if (!isIdent(at > 0 ? bytes[at - 1] : undefined) && !isIdent(bytes[at + name.length])) return true;
  }
  return false;
}

/**
 * Code files too large to index (no facts, no text in the index) that `refs`, `show sym:` and
 * no_definition read for `name`, since their sites and definitions are in no answer: those
 * the filters admit, within the query's live bound (reader.tooLargeLive: TOO_LARGE_LIVE_BYTES_MAX
 * summed, a file `file:` names exactly always). `mentioning`: the read ones whose bytes hold
 * `name` as an identifier; `unread`: the ones left, which may hold it too. Both in path order.
 * An agent trial on the SQLite amalgamation read `refs sqlite3PagerWrite`'s `0 sites in 0
 * files` while `sqlite3.c` (9.5 MB) held its definition and 47 calls.
 */
export function tooLargeCodeMentioning(
  reader: IndexReader,
  name: string,
  filters: FileFilters,
): { readonly mentioning: IndexedFile[]; readonly unread: readonly IndexedFile[] } {
  if (!name) return { mentioning: [], unread: [] };
  const live = reader.tooLargeLive(filters, (f) => hasCodeExtension(f.path));
  const needle = Buffer.from(name, 'utf8');
  // Not hashed (readLive would): only whether the name is there is asked, not a revision.
  const mentioning = live.read.filter((f) => {
    const bytes = readLiveUnhashed(reader.root, f);
    return bytes !== undefined && holdsIdentifier(bytes, needle);
  });
  return { mentioning, unread: live.unread };
}
