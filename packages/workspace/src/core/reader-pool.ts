// Published indexes as the facade reads them. A one-shot client opens and closes one per
// use; a host with a ReaderPool (core/host.ts: a root daemon and the coordinator share the
// process's; a library Workspace has its own until it is closed) keeps each reader (its
// generation's snapshot and the caches built on it) until a newer generation is published.
import {
  IndexReader,
  indexPath,
  publishedStamp,
  releaseStampProbe,
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
  readonly key: string;
  readonly pool: ReaderPool;
  /** The publication (index file inode and generation) the reader reads. */
  readonly stamp: string;
  users: number;
  retired: boolean;
  /** Closes the reader once it has been unused for the pool's idleMs. */
  idle?: NodeJS.Timeout;
}

/** The pooled entry of each reader a pool opened, whichever pool (releaseReader needs no host). */
const owners = new WeakMap<IndexReader, Pooled>();

/** Which publication the index holds now (a new generation, or a rebuilt file, changes it). */
function stampOf(cacheDir: string): string | undefined {
  return publishedStamp(indexPath(cacheDir));
}

/**
 * Open readers kept between uses, one per (cache, root, built-for), each checked against
 * the published stamp before it is handed out again.
 */
export class ReaderPool {
  /**
   * @param idleMs close a reader unused this long (it holds its generation's snapshot, which
   *   keeps a writer's checkpoints from passing it); undefined: keep it until a newer
   *   generation replaces it (a daemon, which calls closeIdleStale after publishing).
   */
  constructor(private readonly idleMs?: number) {}

  private readonly pool = new Map<string, Pooled>();
  /** Every cache this pool read (closeAll releases publishedStamp's connection to each). */
  private readonly cacheDirs = new Set<string>();
  /**
   * The file table of the last reader closed under a key: the next reader of that index
   * reads only the file rows changed since (IndexReader.fileTable), not all of them.
   */
  private readonly lastFileTables = new Map<string, FileTable>();

  /** A reader of the published index, the pooled one while its publication stands. */
  async open(host: Host, cacheDir: string, root: string, options: PublishedOptions): Promise<Outcome<IndexReader>> {
    const key = `${cacheDir}\u0000${root}\u0000${options.builtFor ?? ''}`;
    this.cacheDirs.add(cacheDir);
    const stamp = stampOf(cacheDir);
    const cached = this.pool.get(key);
    if (cached && stamp !== undefined && cached.stamp === stamp) {
      cached.users++;
      clearTimeout(cached.idle);
      return ok(cached.reader);
    }
    // The replaced reader's file table is where the new reader starts (it is plain data, and
    // outlives the reader's close).
    const previous = cached?.reader.fileTable() ?? this.lastFileTables.get(key);
    this.lastFileTables.delete(key);
    // Close the replaced reader first when nobody uses it: it holds the old generation's
    // snapshot (which keeps checkpoints from passing it) and caches built on it.
    if (cached && cached.users === 0) {
      cached.retired = true;
      clearTimeout(cached.idle);
      cached.reader.close();
      this.pool.delete(key);
    }
    const r = await IndexReader.open(cacheDir, root, openOptions(host, cacheDir, options, previous));
    if (!r.ok) return fail(r.error.code, r.error.message);
    if (cached && !cached.retired) {
      cached.retired = true;
      if (cached.users === 0) cached.reader.close();
    }
    const entry: Pooled = { reader: r.value, cacheDir, key, pool: this, stamp: stamp ?? '', users: 1, retired: false };
    this.pool.set(key, entry);
    owners.set(r.value, entry);
    return ok(r.value);
  }

  /**
   * Close pooled readers nobody uses whose generation is no longer the published one. A
   * daemon calls it after each publication: an idle reader would otherwise hold its old
   * snapshot (and keep checkpoints from moving past it) until the next request.
   */
  closeIdleStale(): void {
    for (const entry of this.pool.values()) {
      if (entry.users > 0 || entry.retired) continue;
      if (stampOf(entry.cacheDir) !== entry.stamp) this.closeUnused(entry);
    }
  }

  /** Close an unused reader, keeping its file table for the next reader of its index. */
  private closeUnused(entry: Pooled): void {
    entry.retired = true;
    clearTimeout(entry.idle);
    const table = entry.reader.fileTable();
    if (table) this.lastFileTables.set(entry.key, table);
    entry.reader.close();
    this.pool.delete(entry.key);
  }

  /**
   * Close every reader: now when unused, else when its last user releases it; and the
   * connection publishedStamp keeps for each index this pool read.
   */
  closeAll(): void {
    for (const entry of this.pool.values()) {
      entry.retired = true;
      clearTimeout(entry.idle);
      if (entry.users === 0) entry.reader.close();
    }
    for (const cacheDir of this.cacheDirs) releaseStampProbe(indexPath(cacheDir));
    this.cacheDirs.clear();
    this.pool.clear();
    this.lastFileTables.clear();
  }

  /** An entry's last user released it: closed if retired, else on idle expiry when the pool has one. */
  released(entry: Pooled): void {
    if (entry.retired) {
      entry.reader.close();
      return;
    }
    if (this.idleMs === undefined) return;
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      if (entry.users === 0 && !entry.retired && this.pool.get(entry.key) === entry) this.closeUnused(entry);
    }, this.idleMs);
    // An idle reader never keeps the process alive.
    entry.idle.unref();
  }
}

/** The pool of this process's daemon hosts (ROOT_DAEMON_HOST, COORDINATOR_HOST). */
export const PROCESS_READER_POOL = new ReaderPool();

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
 * another root is `cache_root_mismatch`): the host's pooled reader, or a new one. Pair
 * with releaseReader.
 */
export async function openPublished(
  host: Host,
  cacheDir: string,
  root: string,
  options: PublishedOptions = {},
): Promise<Outcome<IndexReader>> {
  if (host.readers) return host.readers.open(host, cacheDir, root, options);
  const r = await IndexReader.open(cacheDir, root, openOptions(host, cacheDir, options));
  return r.ok ? ok(r.value) : fail(r.error.code, r.error.message);
}

/** Done with a reader from openPublished: closed now, or when its publication is replaced. */
export function releaseReader(reader: IndexReader): void {
  const entry = owners.get(reader);
  if (!entry) {
    reader.close();
    return;
  }
  entry.users = Math.max(0, entry.users - 1);
  if (entry.users === 0) entry.pool.released(entry);
}

/** PROCESS_READER_POOL.closeIdleStale: after each publication of a daemon. */
export function closeIdleStaleReaders(): void {
  PROCESS_READER_POOL.closeIdleStale();
}
