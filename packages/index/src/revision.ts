import { createHash } from 'node:crypto';

/**
 * A file's revision: the SHA-256 of its bytes, hex. What the index records per file, what a
 * hit and a handle carry, and what `show` compares against the bytes it reads.
 */
export function revisionOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
