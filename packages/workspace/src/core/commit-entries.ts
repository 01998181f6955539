// Commit documents in result sets and reads (`source:git-log`): entries tagged `commit`,
// their page hits, and `show HANDLE`, which checks the commit object still exists locally.
import { commitDocument, commitExists, readCommitMessage, type SearchHit } from '@trufflepig/index';
import { fileUri, percentDecode } from '@trufflepig/base/stored-path';
import { pickSnippet, splitRows, type PageHit, type ShowInput } from '@trufflepig/render';
import { formatHandle, type CommitEntry } from '@trufflepig/result-cache';
import { fail, ok, type Outcome } from './errors';
import { checkOwner } from './owner';

/** Changed paths named on a page hit (all stored ones are shown by `show`). */
const PAGE_CHANGED_PATHS = 5;

/** The entry fields of a commit hit (the caller adds root, member, generation and owner fields). */
export function commitEntryFields(h: SearchHit): Omit<CommitEntry, 'root' | 'member' | 'generation'> {
  const c = h.commit!;
  return {
    tag: 'commit',
    path: h.path,
    revision: c.hash,
    start: h.start,
    end: h.end,
    start_line: h.startLine,
    end_line: h.endLine,
    ...(h.name !== undefined ? { name: h.name } : {}),
    sources: [...h.tags],
    lang: h.lang,
    date: c.date,
    changed: [...c.paths],
    more_paths: c.morePaths,
  };
}

/** The page hit of a commit entry: the repository URI with the commit as fragment, its date and changed paths. */
export function commitPageHit(e: CommitEntry, handle: string, words: readonly string[], withSnippet: boolean): PageHit {
  const root = percentDecode(e.root).toString('utf8');
  const changed = e.changed;
  const more = e.more_paths + Math.max(0, changed.length - PAGE_CHANGED_PATHS);
  let snippet: PageHit['snippet'];
  if (withSnippet && words.length > 0) {
    const message = readCommitMessage(root, e.revision);
    if (message !== undefined) {
      const bytes = Buffer.from(message);
      snippet = pickSnippet(splitRows(bytes, 0, bytes.length, 1), words);
    }
  }
  return {
    ...(e.member !== undefined ? { member: e.member } : {}),
    handle,
    path: e.path,
    uri: `${fileUri(root, '')}#commit=${e.revision}`,
    start_line: e.start_line,
    end_line: e.end_line,
    start: e.start,
    end: e.end,
    ...(e.name !== undefined ? { name: e.name } : {}),
    sources: e.sources ?? [],
    ...(snippet ? { snippet } : {}),
    detail: {
      date: e.date,
      changed: [...changed.slice(0, PAGE_CHANGED_PATHS), ...(more > 0 ? [`+${more} more`] : [])],
    },
  };
}

/**
 * `show HANDLE` of a commit entry: the commit object must still exist locally (`git
 * cat-file -e`), else `stale_source`; the document (message, id, date, changed paths) is
 * rebuilt from Git and must have the indexed length.
 */
export function showCommitEntry(
  entry: CommitEntry,
  setId: string,
  ordinal: number,
  from: number | undefined,
): Outcome<ShowInput> {
  const root = percentDecode(entry.root).toString('utf8');
  const owner = checkOwner(entry, root);
  if (!owner.ok) return owner;
  const hash = entry.revision;
  if (!commitExists(root, hash))
    return fail(
      'stale_source',
      `commit ${hash.slice(0, 12)} no longer exists in ${root} (history rewritten or pruned); search again`,
    );
  const message = readCommitMessage(root, hash);
  if (message === undefined)
    return fail('read_error', `cannot read commit ${hash.slice(0, 12)} in ${root}; check the repository with git log`);
  const doc = Buffer.from(
    commitDocument({
      hash,
      date: entry.date,
      message,
      paths: entry.changed,
      morePaths: entry.more_paths,
    }),
  );
  if (doc.length !== entry.end)
    return fail('stale_source', `commit ${hash.slice(0, 12)} reads differently than when it was indexed; search again`);
  const start = from ?? entry.start;
  if (start < entry.start || start > entry.end)
    return fail(
      'bad_handle',
      `continuation byte ${start} lies outside the commit; use the next value exactly as printed`,
    );
  const line = doc.subarray(0, start).toString('latin1').split('\n').length;
  const handle = formatHandle(setId, ordinal);
  return ok({
    ...(entry.member !== undefined ? { member: entry.member } : {}),
    handle,
    path: entry.path,
    uri: `${fileUri(root, '')}#commit=${hash}`,
    revision: hash,
    verified: 'revision',
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    rows: splitRows(doc, start, entry.end, line),
    continuation: (next: number) => `${handle}~${next}`,
  });
}
