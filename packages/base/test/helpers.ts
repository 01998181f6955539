import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A fresh directory under the system temp directory, by its realpath. */
export function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-base-')));
}

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
