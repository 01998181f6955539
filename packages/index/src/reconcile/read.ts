import * as fs from 'node:fs';
import { FILE_MAX_BYTES } from '../limits';

/** Read at most FILE_MAX_BYTES + 1 bytes: enough to tell an over-cap file without loading it. */
export function readBounded(abs: Buffer): { bytes?: Buffer; error?: string; gone?: boolean } {
  let fd: number | undefined;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { error: 'not a regular file any more' };
    const buf = Buffer.allocUnsafe(Math.min(st.size, FILE_MAX_BYTES) + 1);
    let got = 0;
    for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, null);
    return { bytes: buf.subarray(0, got) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { gone: true };
    return { error: (err as Error).message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

