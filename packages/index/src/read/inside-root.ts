// The one way Trufflepig reads a file of a root: the bytes a search lane scans, a snippet
// shows, `show` prints and a reconcile hashes all come through `readInsideRoot`.
//
// Repository content is untrusted. Between indexing and reading, a checkout can replace
// an indexed file (or one of its directories) with a symlink to `/etc/passwd`, with a
// FIFO that blocks every reader, or with a link to `/dev/zero` that never ends. Checking a
// path and then opening it is a race, so this module opens once and checks what it
// opened:
//
// 0. `lstat`: a FIFO, socket or device already in place is refused without being opened.
// 1. `open(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)`: a symlink as the last
//    component fails (ELOOP), a FIFO opens without waiting for a writer.
// 2. `fstat` of the descriptor: anything but a regular file is refused before a read.
// 3. Where the descriptor lives: on Linux `/proc/self/fd/N` names the opened file's real
//    path; it must be exactly the canonical root, `/`, and the requested relative path.
//    A directory swapped for a link (inside the root or out of it) changes that path and
//    is refused; no component is trusted because it was fine a moment ago.
// 4. Read at most `maxBytes + 1` bytes from that descriptor: a file over the bound is
//    reported, not loaded.
//
// Without `/proc` (not Linux) step 3 falls back to comparing the descriptor's device and
// inode with the canonical path's, which closes the final-component race but not a
// directory swapped during the call; docs/reliability.md states this.

import * as fs from 'node:fs';

export type ReadRefusal =
  /** Nothing at that path any more. */
  | 'missing'
  /** The last component is a symlink: never followed. */
  | 'symlink'
  /** A directory (a file replaced by one since it was listed). */
  | 'directory'
  /** A FIFO, socket or device: never read. */
  | 'not_regular'
  /** The opened file is not where the path says inside the root (a swapped link). */
  | 'outside_root'
  /** Larger than the caller's bound. */
  | 'too_large'
  /** Permission or I/O error. */
  | 'unreadable';

export type InsideRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: ReadRefusal; readonly message: string };

const OPEN_FLAGS =
  fs.constants.O_RDONLY |
  (fs.constants.O_NOFOLLOW ?? 0) |
  (fs.constants.O_NONBLOCK ?? 0) |
  (fs.constants.O_NOCTTY ?? 0);
const SLASH = Buffer.from('/');
const PROC_FD = '/proc/self/fd/';

/**
 * Roots already in canonical form. Only those are remembered: a root spelled through a
 * link is resolved on every read, so retargeting the link can never make a long-lived
 * daemon read another tree's files under this root's index.
 */
const canonicalRoots = new Set<string>();

function canonicalRoot(root: string): Buffer | undefined {
  if (canonicalRoots.has(root)) return Buffer.from(root);
  try {
    const real = fs.realpathSync.native(root, { encoding: 'buffer' });
    if (real.equals(Buffer.from(root))) canonicalRoots.add(root);
    return real;
  } catch {
    return undefined;
  }
}

let procFdUsable: boolean | undefined;

/** The real path of an open descriptor, or undefined where the platform cannot tell. */
function descriptorPath(fd: number): Buffer | undefined {
  if (procFdUsable === false) return undefined;
  try {
    const p = fs.readlinkSync(PROC_FD + fd, { encoding: 'buffer' });
    procFdUsable = true;
    return p;
  } catch {
    if (procFdUsable === undefined) procFdUsable = false;
    return undefined;
  }
}

function refusal(reason: ReadRefusal, message: string): InsideRead {
  return { ok: false, reason, message };
}

function describeType(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

/** Whether the descriptor is the file at `expected`, checked without trusting any path component. */
function descriptorIsAt(fd: number, st: fs.Stats, expected: Buffer): boolean {
  const actual = descriptorPath(fd);
  if (actual) return actual.equals(expected);
  try {
    const real = fs.realpathSync.native(expected, { encoding: 'buffer' });
    if (!real.equals(expected)) return false;
    const now = fs.lstatSync(expected);
    return now.isFile() && now.dev === st.dev && now.ino === st.ino;
  } catch {
    return false;
  }
}

/**
 * Read the regular file at `relative` (raw bytes, no leading slash, no `..`) under `root`.
 *
 * Guarantees: never follows a symlink in any component; never reads anything but a regular
 * file whose real path is the root's canonical path joined with `relative`; never blocks
 * on a FIFO or device; never reads more than `maxBytes + 1` bytes. The bytes returned are
 * exactly the bytes read from the checked descriptor.
 */
export function readInsideRoot(root: string, relative: Buffer, maxBytes: number): InsideRead {
  const base = canonicalRoot(root);
  if (!base) return refusal('missing', `the root ${root} is gone`);
  if (relative.length === 0 || relative[0] === 0x2f || relative.includes(0))
    return refusal('outside_root', 'not a root-relative path');
  const expected = Buffer.concat([base, SLASH, relative]);
  let fd: number | undefined;
  try {
    // Opening a FIFO, even without blocking, makes this process its reader for a moment: a
    // writer waiting on it would be released into our descriptor. A special file already
    // in place is refused from its lstat without an open; one swapped in after the lstat
    // is still caught by the fstat below, and O_NONBLOCK keeps that open from waiting.
    const seen = fs.lstatSync(expected);
    if (seen.isSymbolicLink()) return refusal('symlink', 'a symlink; it is not followed');
    if (seen.isDirectory()) return refusal('directory', 'a directory, not a regular file');
    if (!seen.isFile()) return refusal('not_regular', `${describeType(seen)}, not a regular file; it is not read`);
    fd = fs.openSync(expected, OPEN_FLAGS);
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) return refusal('directory', 'a directory, not a regular file');
    if (!st.isFile()) return refusal('not_regular', `${describeType(st)}, not a regular file; it is not read`);
    if (!descriptorIsAt(fd, st, expected))
      return refusal('outside_root', 'reached through a symlink that leads elsewhere; it is not read');
    if (st.size > maxBytes) return refusal('too_large', `${st.size} bytes, over the ${maxBytes}-byte bound`);
    const buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, null);
    // The file grew between fstat and read: the bound holds on what was read, not on what was stat'ed.
    if (got > maxBytes) return refusal('too_large', `over the ${maxBytes}-byte bound`);
    return { ok: true, bytes: buf.subarray(0, got) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return refusal('missing', 'no such file');
    if (code === 'ELOOP') return refusal('symlink', 'a symlink; it is not followed');
    if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return refusal('not_regular', 'would block; it is not read');
    return refusal('unreadable', (err as Error).message.split('\n')[0]);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
