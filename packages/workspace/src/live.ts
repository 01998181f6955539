import { createHash } from 'node:crypto';
import { FILE_MAX_BYTES, percentDecode, readInsideRoot, type ReadRefusal } from '@trufflepig/index';

export type LiveRead =
  | { ok: true; bytes: Buffer; revision: string }
  | { ok: false; reason: ReadRefusal; message: string };

/**
 * Read a root-relative encoded path once, through the index's checked reader (no link
 * followed, regular files only, bounded), and hash exactly the bytes that will be rendered.
 * The default bound is the index's: a handle's file was at most that size when indexed.
 */
export function readOnce(root: string, encodedPath: string, maxBytes: number = FILE_MAX_BYTES): LiveRead {
  const read = readInsideRoot(root, percentDecode(encodedPath), maxBytes);
  if (!read.ok) return read;
  return { ok: true, bytes: read.bytes, revision: createHash('sha256').update(read.bytes).digest('hex') };
}
