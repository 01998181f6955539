// Files whose bytes changed since the index read them: counted where an answer read them,
// and said in one wording by every verb that counts them (search, refs).
import type { IndexedBytesReader } from './live';

/**
 * How many of a page's files changed (or went) since the index read them: their spans, lines
 * and names are the index's, not the file's. A one-shot search answers the last publication,
 * and a served one may run before the daemon's reconcile; either way the page says so (a
 * Ruby trial's `--no-daemon` search printed `filters.rb:13-15 String::squish` two lines above
 * the method after an edit, `coverage: complete`). Reads through the page's own reader.
 */
export function staleFilesOf(root: string, page: readonly PageFile[], read: IndexedBytesReader): number {
  const paths = new Set<string>();
  for (const f of page) if (f.revision && !f.excluded && !read(root, f)) paths.add(f.path);
  return paths.size;
}

/** A page's file as a hit or a live-source entry names it; an excluded file has no indexed bytes to compare. */
export interface PageFile {
  readonly path: string;
  readonly revision: string | null;
  readonly excluded?: string | null;
}

/** The coverage words for `n` such files (refs skipped them, a search page printed the index's lines). */
export function staleFilesWords(n: number): string {
  return `${n} ${n === 1 ? 'file' : 'files'} changed since indexing (run index)`;
}
