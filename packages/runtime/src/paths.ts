// Where a root's daemon files live: all in the root's cache directory, except a socket
// whose path would be too long to bind.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256Hex } from '@trufflepig/base/sha256';
import { DAEMON_LOCK_FILE_NAME, DAEMON_LOG_FILE_NAME, SOCKET_FILE_NAME, UNIX_SOCKET_PATH_MAX } from './limits';
import { errnoCode, errorText, failure, type Failure } from './errors';

function userTag(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
}

/** Private directory for sockets whose natural path is too long: `<tmpdir>/trufflepig-<uid>`. */
export function shortSocketDirectory(): string {
  return path.join(os.tmpdir(), `trufflepig-${userTag()}`);
}

/**
 * The daemon socket of a cache directory: `<cacheDir>/daemon.sock`, or, when that path is
 * over the 107-byte limit of a unix socket path, `<tmpdir>/trufflepig-<uid>/<hash>.sock`
 * where the hash is the first 24 hex digits of SHA-256 of the resolved cache directory.
 * The fallback depends on os.tmpdir() (TMPDIR): clients and daemon must agree on it.
 */
export function socketPathFor(cacheDir: string): string {
  const natural = path.join(path.resolve(cacheDir), SOCKET_FILE_NAME);
  if (Buffer.byteLength(natural) <= UNIX_SOCKET_PATH_MAX) return natural;
  const hash = sha256Hex(path.resolve(cacheDir)).slice(0, 24);
  return path.join(shortSocketDirectory(), `${hash}.sock`);
}

export function lockPathFor(cacheDir: string): string {
  return path.join(path.resolve(cacheDir), DAEMON_LOCK_FILE_NAME);
}

export function logPathFor(cacheDir: string): string {
  return path.join(path.resolve(cacheDir), DAEMON_LOG_FILE_NAME);
}

/**
 * The directory holding `socketPath` must belong to this user and be closed to others
 * before a daemon binds there or a client talks there: another user's socket in a shared
 * temporary directory would otherwise receive our queries. `create` makes it (0700).
 */
export function checkSocketDirectory(socketPath: string, create: boolean): Failure | undefined {
  const dir = path.dirname(socketPath);
  if (dir !== shortSocketDirectory()) return undefined; // the cache directory: private by construction
  try {
    if (create) {
      try {
        fs.mkdirSync(dir, { mode: 0o700 });
      } catch (err) {
        if (errnoCode(err) !== 'EEXIST') throw err;
      }
    }
    const st = fs.lstatSync(dir);
    const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
    if (!st.isDirectory() || !mine || (st.mode & 0o077) !== 0) {
      return failure(
        'socket_unavailable',
        `${dir} is not a private directory of this user; remove it or use a shorter --cache path`,
      );
    }
    return undefined;
  } catch (err) {
    if (!create && errnoCode(err) === 'ENOENT') return failure('no_daemon', `no daemon socket at ${socketPath}`);
    return failure(
      'socket_unavailable',
      `cannot use ${dir} for the daemon socket (${errorText(err)}); use a shorter --cache path`,
    );
  }
}
