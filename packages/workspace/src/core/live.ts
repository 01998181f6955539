// The facade reads a root's files exactly as the index's lanes do: one checked reader
// that hashes the bytes it read (@trufflepig/index readLiveFile), and maps index facts only
// onto the bytes they were taken from (readIndexedBytes).
import { FILE_MAX_BYTES, readIndexedBytes, type IndexedRevision } from '@trufflepig/index';

export { readIndexedBytes, readLiveFile as readOnce, type LiveRead } from '@trufflepig/index';

/** readIndexedBytes' shape: a file's bytes while they are still its indexed revision, within `maxBytes`. */
export type IndexedBytesReader = (root: string, f: IndexedRevision, maxBytes?: number) => Buffer | undefined;

/**
 * readIndexedBytes that reads each file at most once: one search page narrows its hits'
 * spans, labels their lines' definitions and picks their evidence lines, each from the
 * same files (a served kernel search read and hashed each page file two or three times).
 * Only a verified read is kept (the file's whole bytes at that revision), so an answer is
 * the one a fresh read gives: undefined for a bound below the file's size, as then. Meant
 * for one request: a later edit is a new revision, never this one's bytes.
 */
export function readEachOnce(): IndexedBytesReader {
  const read = new Map<string, Buffer>();
  return (root, f, maxBytes) => {
    const key = `${root}\u0000${f.path}\u0000${f.revision ?? ''}`;
    const known = read.get(key);
    // Over the bound asked for, a fresh read is refused as too large: so is this one.
    if (known) return known.length <= (maxBytes ?? FILE_MAX_BYTES) ? known : undefined;
    const bytes = readIndexedBytes(root, f, maxBytes);
    if (bytes && f.revision !== null) read.set(key, bytes);
    return bytes;
  };
}
