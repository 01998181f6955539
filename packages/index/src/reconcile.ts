import * as fs from 'node:fs';
import { makeDirectories, percentDecode } from '@trufflepig/base';
import { fail, ok, type Outcome } from './errors';
import type { Extraction } from './extract/facts';
import { exposeGc } from './extract/collect';
import { extractFile } from './extract/extract';
import { createExtractor, defaultParallelism, type Extractor } from './extract/pool';
import { COMPACT_FREE_PAGE_SHARE, FTS_DEAD_REBUILD_FRACTION, type HeapLimits } from './limits';
import { oldFiles, ReconcileSession, type OldFile, type Pending } from './reconcile/session';
import { updateCommitHistory, type CommitHistoryUpdate } from './store/commits';
import {
  compactCopy,
  emptyDatabase,
  freePageShare,
  openDatabase,
  rebuildFts,
  sealStaging,
  seededDatabase,
} from './store/database';
import {
  acquireWriterLock,
  indexPath,
  publishStaging,
  adoptReadyIndex,
  removeAbandonedStaging,
  removeDatabaseFiles,
  stagingPath,
} from './store/publish';
import { recordFileChanges } from './store/file-changes';
import { clearReconcileFailure, recordReconcileFailure } from './store/health';
import { claimForReconcile, ownerUnstamped, recordOwner } from './store/root-owner';
import { createSecondaryIndexes, getMeta, setMeta } from './store/schema';
import { allRows, engineErrorCode, storageEngine, type Database } from './store/sql';
import { walkRoot, walkScope, type WalkedFile } from './walk';
import { rootPrefix } from './walk/root-prefix';
import { scopeOf } from './walk/scope';
import { parseSkipMeta, skipMetaText, withSkipped } from './walk/skip-meta';
import type { SkipSummary } from './walk/skipped';

const collectNow = exposeGc();
/** External-memory growth (bytes) of the storing thread after which it collects. */
const EXTERNAL_GROWTH_COLLECT = 24 * 1024 * 1024;

/** Files read, hashed and handed to the parser pool at once; bounds memory. */
const EXTRACTION_BATCH = 48;
/** Below this many files to parse, worker start-up costs more than it saves. */
const POOL_MIN_FILES = 8;
/** A file this large is parsed in a heap-limited thread even in a small reconcile. */
const POOL_LARGE_FILE_BYTES = 256 * 1024;

export interface ReconcileProgress {
  readonly phase: 'walk' | 'extract' | 'publish';
  readonly done: number;
  readonly total: number;
}

export interface ReconcileOptions {
  readonly cacheDir: string;
  readonly parallelism?: number;
  /** Heap limits of each parser process (defaults to PARSER_HEAP_LIMITS). */
  readonly parserHeapLimits?: HeapLimits;
  readonly onProgress?: (p: ReconcileProgress) => void;
  /**
   * Cache directory of another root whose published facts seed this root's first index
   * (a linked worktree seeded from its member). Only facts are reused, by content hash:
   * every file is still walked and hashed here, and nothing of the donor is published.
   */
  readonly seedFrom?: string;
  /**
   * Root-relative paths (files or directories, with everything below them) that alone may
   * have changed since the published generation: a daemon's watch events. Only they are
   * walked and compared with their published rows; the root is walked whole when they
   * cannot settle the change alone (walkChanged), and the report says which it was.
   */
  readonly changed?: readonly string[];
  /**
   * Rewrite a first index (or a rebuild) compact before it is published, and an index
   * written in place once COMPACT_FREE_PAGE_SHARE of it is free (default true;
   * store/database.ts sealStaging, compactWhenFree). False publishes it as built: for
   * measurements, and a daemon's reconcile of a few files in its serving thread.
   */
  readonly compact?: boolean;
}

/** How a first index was seeded: recorded in the index (meta `seed`) and shown by `ws status`. */
export interface SeedOutcome {
  readonly state: 'seeded' | 'no_parent_index';
  readonly from: string;
  /** The donor's published generation the facts came from. */
  readonly generation?: number;
  /** Files of this root whose facts were reused from the seed rather than parsed. */
  readonly reused?: number;
}

export interface ReconcileReport {
  readonly generation: number;
  readonly published: boolean;
  readonly files: number;
  readonly parsed: number;
  readonly reused: number;
  readonly removed: number;
  /** Files excluded per reason, and entries the walk left out per class (`ignored`, `untracked_vendor`). */
  readonly excluded: Readonly<Record<string, number>>;
  /** The largest directories the walk left out (docs/spec/retrieval.md §3). */
  readonly skippedDirs: SkipSummary['largest'];
  readonly parseFailures: number;
  readonly unsearched: Readonly<Record<string, number>>;
  readonly sourceBytes: number;
  readonly durationMs: number;
  /** What was walked: the whole root, or only the paths given as `changed` (walkChanged). */
  readonly walk: 'root' | 'paths';
  readonly seed?: SeedOutcome;
  /** Commit documents (`source:git-log`): why there are none, or how many and how many were added. */
  readonly gitLog: { readonly state: string; readonly commits: number; readonly added: number };
}

/** A file whose parser failed (e.g. its thread ran out of memory) keeps lexical coverage and counts as a parse failure. */
function lexicalOnly(p: Pending): Extraction {
  return { ...extractFile('text', p.bytes), parse: 'failed' };
}

type Batch = { items: Pending[]; results: Promise<(Extraction | undefined)[]> };

/**
 * Read, hash and parse the examined files in batches. The next batch parses in the worker
 * pool while this thread stores the previous one, so both cores stay busy.
 */
async function extractAll(
  session: ReconcileSession,
  examined: readonly Parameters<ReconcileSession['examine']>[0][],
  extractor: () => Extractor,
  onProgress?: (p: ReconcileProgress) => void,
): Promise<void> {
  let previous: Batch | undefined;
  let externalAtCollect = process.memoryUsage().external;
  const drain = async (b: Batch) => {
    const results = await b.results;
    b.items.forEach((item, k) => session.insert(item, results[k]));
    // The batches' file buffers are garbage V8 only counts as external memory, and a
    // kernel's worth of them outgrows the heap's own pressure. Collect once they add up.
    const external = process.memoryUsage().external;
    if (collectNow && external - externalAtCollect > EXTERNAL_GROWTH_COLLECT) {
      collectNow();
      externalAtCollect = process.memoryUsage().external;
    }
  };
  for (let i = 0; i < examined.length; i += EXTRACTION_BATCH) {
    const items: Pending[] = [];
    for (const file of examined.slice(i, i + EXTRACTION_BATCH)) {
      const p = session.examine(file);
      if (p) items.push(p);
    }
    const results = Promise.all(
      items.map((p) =>
        p.donor
          ? Promise.resolve(undefined)
          : extractor()
              .extract(p.lang, p.bytes)
              .catch(() => lexicalOnly(p)),
      ),
    );
    if (previous) await drain(previous);
    previous = { items, results };
    onProgress?.({ phase: 'extract', done: Math.min(i + EXTRACTION_BATCH, examined.length), total: examined.length });
  }
  if (previous) await drain(previous);
}

/** The files a reconcile compares with the published rows it compares them with. */
interface Walked {
  readonly files: readonly WalkedFile[];
  readonly old: Map<string, OldFile>;
  readonly walkErrors: number;
  readonly skipped: SkipSummary;
  /** Set when only these paths were walked. */
  readonly scope?: readonly Buffer[];
}

/**
 * The walk of `changed` alone, with the published rows of the same paths; what the walk
 * did not look at (the skip summary, walk errors) stays as published. Undefined when only
 * a whole walk can answer: the paths do not form a scope (walk/scope.ts), the scope holds
 * something ignored or unreadable (walkScope), or a published file there was not listed
 * yet is still on disk: it became ignored, or a directory became a link, which only the
 * whole walk's rules settle. A published file not listed and not on disk is removed.
 */
function walkChanged(db: Database, root: string, changed: readonly string[]): Walked | undefined {
  const scope = scopeOf(changed);
  const walked = scope && walkScope(root, scope);
  if (!scope || !walked) return undefined;
  const old = oldFiles(db, scope);
  const listed = new Set(walked.map((f) => f.path));
  const rootSlash = rootPrefix(root);
  for (const path of old.keys()) {
    if (listed.has(path)) continue;
    try {
      if (fs.lstatSync(Buffer.concat([rootSlash, percentDecode(path)]), { throwIfNoEntry: false })) return undefined;
    } catch {
      return undefined; // ENOTDIR and the like are not proof that it is gone
    }
  }
  return {
    files: walked,
    old,
    walkErrors: Number(getMeta(db, 'walk_errors') ?? '0'),
    skipped: parseSkipMeta(getMeta(db, 'skipped')),
    scope,
  };
}

/**
 * Bring the published index of `root` up to date with the working tree and publish a new
 * generation when anything changed. Unchanged files (same size, mtime and inode) are
 * trusted; changed ones are hashed and only new revisions are parsed.
 */
export async function reconcile(root: string, options: ReconcileOptions): Promise<Outcome<ReconcileReport>> {
  const out = await reconcileLocked(root, options);
  // index_locked: another writer is at work, not a failure of this cache. A failure is
  // recorded where readers look, so a daemon whose reconciles keep failing never passes
  // for complete; the next success clears it.
  if (out.ok) clearReconcileFailure(options.cacheDir);
  // cache_root_mismatch: the directory is another root's, whose health this must not touch;
  // storage_unavailable: the installation's fault, not this cache's.
  else if (
    out.error.code !== 'index_locked' &&
    out.error.code !== 'cache_root_mismatch' &&
    out.error.code !== 'storage_unavailable'
  )
    recordReconcileFailure(options.cacheDir, out.error.code, out.error.message);
  return out;
}

/** Errors that say the cache directory refuses writes, as opposed to a defect of the reconcile. */
const UNWRITABLE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'ENOTDIR', 'EFBIG']);
/** The engine's codes for the same (a full disk is SQLITE_FULL, a read-only file SQLITE_READONLY_*). */
const UNWRITABLE_ENGINE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|PERM)/;

async function reconcileLocked(root: string, options: ReconcileOptions): Promise<Outcome<ReconcileReport>> {
  const started = Date.now();
  const { cacheDir } = options;
  const engine = storageEngine();
  if (!engine.ok) return fail(engine.error.code, engine.error.message);
  try {
    makeDirectories(cacheDir);
  } catch (err) {
    return fail(
      'cache_unwritable',
      `cannot create cache directory ${cacheDir}: ${(err as Error).message}; pass --cache DIR`,
    );
  }
  let lock: ReturnType<typeof acquireWriterLock>;
  try {
    lock = acquireWriterLock(cacheDir);
  } catch (err) {
    return fail(
      'cache_unwritable',
      `cannot lock the cache directory ${cacheDir}: ${(err as Error).message}; pass a writable --cache DIR`,
    );
  }
  if ('heldBy' in lock) {
    const holder =
      lock.heldBy === process.pid
        ? `this process (pid ${lock.heldBy}) is already indexing this root`
        : lock.heldBy === -1
          ? `the writer lock of ${cacheDir} kept changing hands`
          : `another process (pid ${lock.heldBy}) is indexing this root`;
    return fail('index_locked', `${holder}; wait for it and retry`);
  }
  let pool: Extractor | undefined;
  let db: Database | undefined;
  // A first index (or a rebuild) is built in this file and renamed into place; otherwise
  // the published file is written in place, one transaction per generation.
  let staging: string | undefined;
  // A failure while committing or renaming the new generation is the cache's, whatever it says.
  let publishing = false;
  try {
    removeAbandonedStaging(cacheDir);
    adoptReadyIndex(cacheDir);
    // Another root's index is refused, never overwritten; one of a directory since deleted
    // and recreated at this path is rebuilt from nothing (docs/cli.md, "Root and cache").
    const claim = claimForReconcile(openDatabase(indexPath(cacheDir), 'write'), root, cacheDir);
    if (!claim.ok) return fail(claim.error.code, claim.error.message);
    db = claim.value.db;
    let seed: SeedOutcome | undefined;
    if (!db && options.seedFrom !== undefined) {
      staging = stagingPath(cacheDir);
      db = seededDatabase(indexPath(options.seedFrom), staging);
      const donorGeneration = db ? Number(getMeta(db, 'generation') ?? '0') : 0;
      if (db && donorGeneration > 0) {
        // The donor's rows become this root's starting point; its generation is not
        // ours, so this root's first publication is generation 1.
        setMeta(db, 'generation', '0');
        seed = { state: 'seeded', from: options.seedFrom, generation: donorGeneration };
      } else {
        db?.close();
        db = undefined;
        removeDatabaseFiles(staging);
        staging = undefined;
        seed = { state: 'no_parent_index', from: options.seedFrom };
      }
    }
    if (!db) {
      staging = stagingPath(cacheDir);
      db = emptyDatabase(staging);
    }
    const floor = claim.value.generationFloor;
    if (floor !== undefined)
      setMeta(db, 'generation', String(Math.max(floor, Number(getMeta(db, 'generation') ?? '0'))));
    // A rebuild publishes even an empty tree; so does an owner record to be stamped with this directory's identity.
    const mustPublish = floor !== undefined || ownerUnstamped(db, root);
    const previousGeneration = Number(getMeta(db, 'generation') ?? '0');
    options.onProgress?.({ phase: 'walk', done: 0, total: 0 });
    // Watch events name what changed: walk only that, unless this is a first index, a
    // rebuild, or a change only a whole walk can settle (walkChanged).
    let walked =
      options.changed && !staging && !mustPublish && previousGeneration > 0
        ? walkChanged(db, root, options.changed)
        : undefined;
    if (!walked) {
      const whole = walkRoot(root);
      const rootIssue = whole.issues.find((i) => i.path === '');
      if (rootIssue) return fail('root_unreadable', `cannot read the root ${root}: ${rootIssue.message}; check --root`);
      walked = { files: whole.files, old: oldFiles(db), walkErrors: whole.issues.length, skipped: whole.skipped };
    }
    options.onProgress?.({ phase: 'walk', done: walked.files.length, total: walked.files.length });
    const session = new ReconcileSession(db, root, walked.old, walked.walkErrors, walked.scope !== undefined);
    const examined = walked.files.filter((f) => session.needsExamination(f));
    // IMMEDIATE: the write lock now, not at the first write; readers go on reading the
    // previous generation until COMMIT.
    db.exec(staging ? 'BEGIN' : 'BEGIN IMMEDIATE');
    createSecondaryIndexes(db);
    // Parser processes carry heap limits, so a pathological file (a megabyte of minified
    // code on one line) fails alone and stays lexical instead of inflating this process.
    const usePool = examined.length >= POOL_MIN_FILES || examined.some((f) => f.size > POOL_LARGE_FILE_BYTES);
    const makePool = () =>
      createExtractor({
        parallelism: usePool ? (options.parallelism ?? Math.max(2, defaultParallelism())) : 1,
        heapLimits: options.parserHeapLimits,
      });
    await extractAll(session, examined, () => (pool ??= makePool()), options.onProgress);
    // Parser processes are done: let their memory go before the largest writes.
    await pool?.close();
    pool = undefined;
    collectNow?.();
    const removed = session.finish();
    // New commits are new documents: they publish a generation even when no file changed.
    const history = updateCommitHistory(db, root);
    if (seed?.state === 'seeded') seed = { ...seed, reused: session.statOnly + session.reused };
    const stats = {
      parsed: session.parsed,
      reused: session.reused,
      removed,
      unsearched: session.unsearched,
      started,
      seed,
      history,
      skipped: walked.skipped,
      walk: walked.scope ? ('paths' as const) : ('root' as const),
    };
    // What was left out is part of the generation: a new untracked `node_modules` publishes.
    const skippedText = skipMetaText(walked.skipped);
    if (
      !staging &&
      !mustPublish &&
      !session.changed &&
      !history.changed &&
      getMeta(db, 'skipped') === skippedText &&
      previousGeneration > 0
    ) {
      db.exec('ROLLBACK');
      const unchanged = report(db, previousGeneration, false, stats);
      // An index left with much of it free (by a build before this rule) is compacted once.
      if (options.compact !== false && compactWhenFree(db, cacheDir)) db = undefined;
      return ok(unchanged);
    }
    const ftsDocs = Number(getMeta(db, 'fts_docs') ?? '0') + session.ftsInserted;
    const generation = previousGeneration + 1;
    setMeta(db, 'fts_docs', String(ftsDocs));
    setMeta(db, 'generation', String(generation));
    recordOwner(db, root);
    setMeta(db, 'published_at', new Date().toISOString());
    setMeta(db, 'walk_errors', String(session.unsearched.walk_error));
    setMeta(db, 'skipped', skippedText);
    if (seed) setMeta(db, 'seed', JSON.stringify(seed));
    recordFileChanges(db, generation, session.changedFileIds(), staging !== undefined);
    const live = session.regionsLive();
    if (ftsDocs > 0 && (ftsDocs - live) / ftsDocs > FTS_DEAD_REBUILD_FRACTION) rebuildFts(db, root);
    const result = report(db, generation, true, stats);
    publishing = true;
    options.onProgress?.({ phase: 'publish', done: 0, total: 1 });
    db.exec('COMMIT');
    if (staging) {
      // A seeded index is the donor's compact copy plus this root's few changes: copying
      // it again would double a worktree's first index for little.
      const sealing = db;
      db = undefined;
      const sealed = sealStaging(
        sealing,
        staging,
        stagingPath(cacheDir),
        options.compact !== false && seed?.state !== 'seeded',
      );
      staging = sealed;
      publishStaging(cacheDir, sealed);
      staging = undefined;
    } else {
      // Never waits for readers: what a reader still holds is copied by a later checkpoint.
      db.pragma('wal_checkpoint(PASSIVE)');
      if (options.compact !== false && compactWhenFree(db, cacheDir)) db = undefined;
    }
    return ok(result);
  } catch (err) {
    const errno = (err as NodeJS.ErrnoException).code;
    const message = String((err as Error).message ?? err).split('\n')[0];
    const engineCode = engineErrorCode(err);
    if (
      (errno !== undefined && UNWRITABLE_ERRNO.has(errno)) ||
      (engineCode !== undefined && UNWRITABLE_ENGINE_CODES.test(engineCode)) ||
      publishing
    ) {
      return fail(
        'cache_unwritable',
        `cannot write the index in ${cacheDir} (${message}); the previous generation stays published; free space or pass a writable --cache DIR`,
      );
    }
    return fail(
      'reconcile_failed',
      `indexing failed, the previous generation stays published: ${message}; run trufflepig index again, and report this if it repeats`,
    );
  } finally {
    // Closing rolls back an open transaction: the published generation stays as it was.
    db?.close();
    if (staging) removeDatabaseFiles(staging);
    await pool?.close();
    lock.release();
  }
}

/**
 * Replace the committed in-place index of `cacheDir` with a compact copy when
 * COMPACT_FREE_PAGE_SHARE of it is free: the same generation (handles stay valid), without
 * the pages SQLite keeps but never returns. Answers true when it published the copy and
 * closed `db`; false, `db` open and the index as it was, when there was nothing to do or the
 * copy could not be written (a full disk).
 */
function compactWhenFree(db: Database, cacheDir: string): boolean {
  if (freePageShare(db) <= COMPACT_FREE_PAGE_SHARE) return false;
  const copy = stagingPath(cacheDir);
  if (!compactCopy(db, copy)) return false;
  db.close();
  publishStaging(cacheDir, copy);
  return true;
}

function report(
  db: Database,
  generation: number,
  published: boolean,
  x: {
    parsed: number;
    reused: number;
    removed: number;
    unsearched: Record<string, number>;
    started: number;
    seed?: SeedOutcome;
    history: CommitHistoryUpdate;
    skipped: SkipSummary;
    walk: ReconcileReport['walk'];
  },
): ReconcileReport {
  // One pass over the file rows (78,000 on the kernel): each reconcile reports these.
  const byReason: Record<string, number> = {};
  let files = 0;
  let bytes = 0;
  let parseFailures = 0;
  for (const [reason, n, size, failed] of allRows(
    db,
    "SELECT excluded, count(*), coalesce(sum(size), 0), sum(parse IN ('failed', 'partial')) FROM file GROUP BY excluded",
  )) {
    if (reason == null) {
      files = Number(n);
      bytes = Number(size);
    } else byReason[String(reason)] = Number(n);
    parseFailures += Number(failed);
  }
  const excluded = withSkipped(byReason, x.skipped);
  return {
    generation,
    published,
    files,
    parsed: x.parsed,
    reused: x.reused,
    removed: x.removed,
    excluded,
    skippedDirs: x.skipped.largest,
    parseFailures,
    unsearched: x.unsearched,
    sourceBytes: bytes,
    durationMs: Date.now() - x.started,
    walk: x.walk,
    ...(x.seed ? { seed: x.seed } : {}),
    gitLog: { state: x.history.state, commits: x.history.commits, added: x.history.added },
  };
}
