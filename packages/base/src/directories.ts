import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Create `dir` and its missing parents, one level at a time, each with `mode` (default
 * 0700, less the umask). Node's recursive mkdir never returns when a parent refuses a child
 * with ENOENT (e.g. under /proc): it retries the parent, gets EEXIST, and tries the child
 * again, forever. Here each missing level is created once, so the call always returns.
 *
 * Guarantees:
 * - On return `dir` exists and is a directory (a symlink to a directory counts).
 * - Existing levels are left as they are: their mode is never changed.
 * - A level created meanwhile by another process (`EEXIST`) is not an error, so concurrent
 *   callers on one path all succeed.
 * - Any other failure is thrown as Node's error (`EACCES`, `ENOENT` from a parent that
 *   refuses children, `ENOTDIR` when a parent is a file, ...). When `dir` itself exists but
 *   is not a directory, an `Error` with `code: 'ENOTDIR'` naming `dir` is thrown.
 */
export function makeDirectories(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
}
