import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { percentDecode } from '@trufflepig/index';

export type LiveRead =
  | { ok: true; bytes: Buffer; revision: string }
  | { ok: false; reason: 'missing' | 'unreadable'; message: string };

/** Read a root-relative encoded path once and hash exactly the bytes that will be rendered. */
export function readOnce(root: string, encodedPath: string): LiveRead {
  try {
    const bytes = fs.readFileSync(Buffer.concat([Buffer.from(root), Buffer.from('/'), percentDecode(encodedPath)]));
    return { ok: true, bytes, revision: createHash('sha256').update(bytes).digest('hex') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable', message: (err as Error).message };
  }
}
