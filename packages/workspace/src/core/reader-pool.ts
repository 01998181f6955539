// Published indexes as the facade reads them. A one-shot client opens and closes one per
// use; a long-lived host (core/host.ts: a root daemon, the coordinator) keeps each reader
// (its generation's snapshot and the caches built on it) until a newer generation is
// published. The pool is this process's cache; whether it is used is the host's to say.
import {
  IndexReader,
  indexPath,
  publishedStamp,
  sharedScanPool,
  type FileTable,
  type OpenOptions,
} from '@trufflepig/index';
import { explicitCacheBaseOf } from '@trufflepig/member-root';
import { fail, ok, type Outcome } from './errors';
import type { Host } from './host';

interface Pooled {
  readonly reader: IndexReader;
  readonly cacheDir: string;
  /** The publication (index file inode and generation) the reader reads. */
  readonly stamp: string;
  users: number;
  retired: boolean;
}

const pool = new Map<string, Pooled>();
/**
 * The file table of the last reader closed under a key: the next reader of that index
 * reads only the file rows changed since (IndexReader.fileTable), not all of them.
 */
const lastFileTables = new Map<string, FileTable>();
const owners = new WeakMap<IndexReader, Pooled>();
/** Which publication the index holds now (a new generation, or a rebuilt file, changes it). */
function stampOf(cacheDir: string): string | undefined {
  return publishedStamp(indexPath(cacheDir));
}

export interface PublishedOptions {
  /** The root the index must have been built for when it is not `root` (a worktree read through its member's index). */
  readonly builtFor?: string;
}

/**
 * Open options for IndexReader.open: the owner check, the --cache base behind `cacheDir`
 * (when not the default) so an index_warming hint keeps the user's --cache, and the
 * process's `re:` helper thread when the host shares scans.
 */
function openOptions(host: Host, cacheDir: string, options: PublishedOptions, previous?: FileTable): OpenOptions {
  const cacheBase = explicitCacheBaseOf(cacheDir);
  return {
    ...(host.sharesRegexScans ? { regexHelper: sharedScanPool() } : {}),
    ...(cacheBase !== undefined ? { cacheBase } : {}),
    ...(options.builtFor !== undefined ? { builtFor: options.builtFor } : {}),
    ...(previous ? { previous } : {}),
  };
}

/**
 * The published index of `root` in `cacheDir` (IndexReader.open's outcomes: an index of
 * another root is `cache_root_mismatch`). Pair with releaseReader.
 */
export async function openPublished(
  host: Host,
  cacheDir: string,
  root: string,
  options: PublishedOptions = {},
): Promise<Outcome<IndexReader>> {
  if (!host.poolsReaders) {
    const r = await IndexReader.open(cacheDir, root, openOptions(host, cacheDir, options));
    return r.ok ? ok(r.value) : fail(r.error.code, r.error.message);
  }
  const key = `${cacheDir}\u0000${root}\u0000${options.builtFor ?? ''}`;
  const stamp = stampOf(cacheDir);
  const cached = pool.get(key);
  if (cached && stamp !== undefined && cached.stamp === stamp) {
    cached.users++;
    return ok(cached.reader);
  }
  // The replaced reader's file table is where the new reader starts (it is plain data, and
  // outlives the reader's close).
  const previous = cached?.reader.fileTable() ?? lastFileTables.get(key);
  lastFileTables.delete(key);
  // Close the replaced reader first when nobody uses it: it holds the old generation's
  // snapshot (which keeps checkpoints from passing it) and caches built on it.
  if (cached && cached.users === 0) {
    cached.retired = true;
    cached.reader.close();
    pool.delete(key);
  }
  const r = await IndexReader.open(cacheDir, root, openOptions(host, cacheDir, options, previous));
  if (!r.ok) return fail(r.error.code, r.error.message);
  if (cached && !cached.retired) {
    cached.retired = true;
    if (cached.users === 0) cached.reader.close();
  }
  const entry: Pooled = { reader: r.value, cacheDir, stamp: stamp ?? '', users: 1, retired: false };
  pool.set(key, entry);
  owners.set(r.value, entry);
  return ok(r.value);
}

/** Done with a reader from openPublished: closed now, or when its publication is replaced. */
export function releaseReader(reader: IndexReader): void {
  const entry = owners.get(reader);
  if (!entry) {
    reader.close();
    return;
  }
  entry.users = Math.max(0, entry.users - 1);
  if (entry.retired && entry.users === 0) entry.reader.close();
}

/**
 * Close pooled readers nobody uses whose generation is no longer the published one. A
 * daemon calls it after each publication: an idle reader would otherwise hold its old
 * snapshot (and keep checkpoints from moving past it) until the next request.
 */
export function closeIdleStaleReaders(): void {
  for (const [key, entry] of pool) {
    if (entry.users > 0 || entry.retired) continue;
    if (stampOf(entry.cacheDir) === entry.stamp) continue;
    entry.retired = true;
    const table = entry.reader.fileTable();
    if (table) lastFileTables.set(key, table);
    entry.reader.close();
    pool.delete(key);
  }
}
