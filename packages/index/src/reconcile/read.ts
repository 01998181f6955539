import { FILE_MAX_BYTES } from '../limits';
import { readInsideRoot } from '../read/inside-root';

/** Why a walked file could not be read as indexable bytes; each is a class of `excluded`. */
export type UnreadableClass = 'symlink' | 'special_file' | 'too_large' | 'read_error';

export type BoundedRead = { bytes: Buffer } | { gone: true } | { excluded: UnreadableClass; message: string };

/**
 * Read a walked file for indexing, at most FILE_MAX_BYTES + 1 bytes, through the one
 * checked reader: a file that became a symlink, FIFO or device since the walk is
 * classified, never followed or waited on.
 */
export function readBounded(root: string, relative: Buffer): BoundedRead {
  const read = readInsideRoot(root, relative, FILE_MAX_BYTES);
  if (read.ok) return { bytes: read.bytes };
  switch (read.reason) {
    case 'missing':
      return { gone: true };
    case 'symlink':
    case 'outside_root':
      return { excluded: 'symlink', message: read.message };
    case 'not_regular':
      return { excluded: 'special_file', message: read.message };
    case 'directory':
      // Replaced by a directory since the walk: unsearched now, walked as one next time.
      return { excluded: 'read_error', message: read.message };
    case 'too_large':
      return { excluded: 'too_large', message: read.message };
    default:
      return { excluded: 'read_error', message: read.message };
  }
}
