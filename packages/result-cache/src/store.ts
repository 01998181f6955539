import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeSet, encodeSet } from './codec';
import {
  describeError,
  ensureStoreDir,
  errnoCode,
  listStore,
  pruneReservations,
  removeIfPresent,
  reservedAt,
  reserveSetId,
  setFilePath,
  writeFileAtomic,
} from './directory';
import { parseCursor, parseHandle, quoteInput } from './handles';
import {
  MAX_HITS_PER_SET,
  MAX_SETS,
  MAX_STORE_BYTES,
  RESERVATION_PRUNE_INTERVAL_MS,
  RESULT_TTL_MS,
  SET_ID_COST_CANDIDATES,
  SET_ID_RESERVATION_MS,
  STALE_TEMP_MS,
} from './limits';
import { cheapestDraw, isLegacySetId, normalizeSetId, randomSetId } from './set-id';
import { fail, ok, type Outcome, type ResultEntry, type SetMeta, type StoredSet } from './types';

export interface ResultStoreOptions {
  /** Clock for creation and expiry (configuration: lets tests say "11 minutes later"). */
  now?: () => number;
  ttlMs?: number;
  maxBytes?: number;
  maxSets?: number;
  maxHitsPerSet?: number;
  /** Draws a candidate set id of the given length (configuration: lets tests force collisions). */
  randomId?: (length: number) => string;
  /**
   * What an id costs its reader (the tokenizer's count). When given, each id is the
   * cheapest of SET_ID_COST_CANDIDATES draws of `randomId`.
   */
  idCost?: (id: string) => number;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`ResultStore option ${name} must be an integer >= 1, got ${value}`);
  return value;
}

const SET_ID_FORM =
  'a set id is 6 or more characters of [0-9a-z] (e.g. k3x9qa); use the id from a recent handle or cursor, or run the search again';

function describeDuration(ms: number): string {
  if (ms % 60_000 === 0) return ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Persisted result sets in one directory, shared by every process that uses it.
 * Writers never modify a set file after publishing it, readers check the id inside
 * the file, and every race with a concurrent evictor ends in an explicit error value.
 */
export class ResultStore {
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxBytes: number;
  private readonly maxSets: number;
  private readonly maxHitsPerSet: number;
  private readonly randomId: (length: number) => string;

  constructor(
    private readonly dir: string,
    options: ResultStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.ttlMs = positiveInteger('ttlMs', options.ttlMs ?? RESULT_TTL_MS);
    this.maxBytes = positiveInteger('maxBytes', options.maxBytes ?? MAX_STORE_BYTES);
    this.maxSets = positiveInteger('maxSets', options.maxSets ?? MAX_SETS);
    this.maxHitsPerSet = positiveInteger('maxHitsPerSet', options.maxHitsPerSet ?? MAX_HITS_PER_SET);
    const draw = options.randomId ?? randomSetId;
    this.randomId = options.idCost ? cheapestDraw(draw, options.idCost, SET_ID_COST_CANDIDATES) : draw;
  }

  save(meta: SetMeta, entries: readonly ResultEntry[]): Outcome<{ id: string; truncated: boolean; stored: number }> {
    const createdAt = Math.floor(this.now());
    const kept = entries.slice(0, this.maxHitsPerSet);
    let set: StoredSet | undefined;
    try {
      ensureStoreDir(this.dir);
      const id = reserveSetId(this.dir, createdAt, this.randomId);
      set = {
        id,
        createdAt,
        meta: { ...meta, truncated: meta.truncated || kept.length < entries.length },
        entries: kept,
      };
      const text = this.encodeWithinBytes(set);
      this.evict(Buffer.byteLength(text));
      writeFileAtomic(this.dir, path.basename(setFilePath(this.dir, id)), text, createdAt);
    } catch (err) {
      return fail(
        'result_store_error',
        `cannot save result set in ${this.dir}: ${describeError(err)}; check the cache directory is writable, then run the search again`,
      );
    }
    return ok({ id: set.id, truncated: set.meta.truncated, stored: set.entries.length });
  }

  load(setId: string): Outcome<StoredSet> {
    if (isLegacySetId(setId))
      return fail(
        'bad_handle',
        `result set id ${quoteInput(setId)} is in the old 32-hex form, which is no longer issued; ${SET_ID_FORM}`,
      );
    const id = normalizeSetId(setId);
    if (!id) return fail('bad_handle', `bad result set id ${quoteInput(setId)}: ${SET_ID_FORM}`);
    const file = setFilePath(this.dir, id);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return this.missingError(id);
      return fail(
        'result_store_error',
        `cannot read result set file ${file}: ${describeError(err)}; run the search again`,
      );
    }
    const decoded = decodeSet(text, id);
    if (typeof decoded === 'string') {
      return fail('result_store_error', `corrupt result set file ${file}: ${decoded}; run the search again`);
    }
    // An expired set is never served, even while its file remains.
    if (this.isExpired(decoded.createdAt)) return this.expiredError(id);
    return ok(decoded);
  }

  /**
   * Replaces provisional entries (`unsettled`) of a set by their settled form, keyed by
   * 0-based position, and returns the set as stored afterwards. A replacement must be the
   * same hit (tag, root, member, path, revision, generation) without the mark, and only an
   * entry still unsettled in the file is replaced: once settled, an entry (and so every
   * handle printed for it) never changes. The file is read again just before it is
   * rewritten, so a concurrent settle of other entries is kept.
   */
  settle(setId: string, replacements: ReadonlyMap<number, ResultEntry>): Outcome<StoredSet> {
    const loaded = this.load(setId);
    if (!loaded.ok || replacements.size === 0) return loaded;
    const set = loaded.value;
    const entries = set.entries.slice();
    let changed = 0;
    for (const [at, next] of replacements) {
      const current = entries[at];
      if (!current || !isUnsettled(current)) continue;
      if (isUnsettled(next) || !sameHit(current, next)) {
        return fail(
          'result_store_error',
          `settling entry ${at + 1} of result set ${set.id} would change which bytes it names; run the search again`,
        );
      }
      entries[at] = next;
      changed++;
    }
    if (changed === 0) return ok(set);
    const settled: StoredSet = { ...set, entries };
    try {
      writeFileAtomic(this.dir, path.basename(setFilePath(this.dir, set.id)), encodeSet(settled), set.createdAt);
    } catch (err) {
      return fail(
        'result_store_error',
        `cannot settle result set ${set.id} in ${this.dir}: ${describeError(err)}; check the cache directory is writable, then run the search again`,
      );
    }
    return ok(settled);
  }

  resolve(handle: string): Outcome<{ set: StoredSet; entry: ResultEntry; ordinal: number }> {
    const parsed = parseHandle(handle);
    if (!parsed.ok) return parsed;
    const loaded = this.load(parsed.value.setId);
    if (!loaded.ok) return loaded;
    const { ordinal } = parsed.value;
    const set = loaded.value;
    if (ordinal > set.entries.length) {
      const valid =
        set.entries.length === 0 ? 'the set has no entries' : `use an ordinal from 1 to ${set.entries.length}`;
      return fail(
        'ordinal_out_of_range',
        `handle ${quoteInput(handle)} names entry ${ordinal} but result set ${set.id} has ${set.entries.length}; ${valid}`,
      );
    }
    return ok({ set, entry: set.entries[ordinal - 1], ordinal });
  }

  page(cursor: string): Outcome<{ set: StoredSet; offset: number }> {
    const parsed = parseCursor(cursor);
    if (!parsed.ok) return parsed;
    const loaded = this.load(parsed.value.setId);
    if (!loaded.ok) return loaded;
    const { offset } = parsed.value;
    const set = loaded.value;
    if (offset > set.entries.length) {
      return fail(
        'bad_cursor',
        `cursor ${quoteInput(cursor)} is past the end of result set ${set.id} (${set.entries.length} entries); use the cursor printed after the previous page`,
      );
    }
    return ok({ set, offset });
  }

  private isExpired(createdAt: number): boolean {
    return this.now() - createdAt >= this.ttlMs;
  }

  private expiredError<T>(setId: string): Outcome<T> {
    return fail(
      'expired_result',
      `result set ${setId} expired after ${describeDuration(this.ttlMs)}; run the search again`,
    );
  }

  // The reservation outlives the set: a young one means the set was evicted (nobody holds
  // the id of a save still in progress), an old one that it expired.
  private missingError<T>(setId: string): Outcome<T> {
    const createdAt = reservedAt(this.dir, setId);
    if (createdAt !== undefined && this.isExpired(createdAt)) return this.expiredError(setId);
    if (createdAt !== undefined) {
      return fail(
        'expired_result',
        `result set ${setId} was evicted to keep the result cache within its limits (${this.maxSets} sets, ${describeBytes(this.maxBytes)}); run the search again`,
      );
    }
    return fail(
      'unknown_result',
      `no result set ${setId} in this result cache; use a handle from a recent search or run the search again`,
    );
  }

  /** Encodes the set, dropping trailing entries (and marking it truncated) if it alone exceeds maxBytes. */
  private encodeWithinBytes(set: StoredSet): string {
    const full = encodeSet(set);
    if (Buffer.byteLength(full) <= this.maxBytes) return full;
    const withCount = (count: number) =>
      encodeSet({ ...set, meta: { ...set.meta, truncated: true }, entries: set.entries.slice(0, count) });
    let fits = 0;
    let tooMany = set.entries.length;
    while (tooMany - fits > 1) {
      const middle = Math.floor((fits + tooMany) / 2);
      if (Buffer.byteLength(withCount(middle)) <= this.maxBytes) fits = middle;
      else tooMany = middle;
    }
    set.entries = set.entries.slice(0, fits);
    set.meta = { ...set.meta, truncated: true };
    // With no entries left the set is still stored: a search always gets a set id.
    return withCount(fits);
  }

  /** Removes expired sets, then the oldest sets until one more of `incomingBytes` fits the caps. */
  private evict(incomingBytes: number): void {
    const listing = listStore(this.dir);
    const live = listing.sets.filter((set) => {
      if (!this.isExpired(set.createdAt)) return true;
      removeIfPresent(setFilePath(this.dir, set.id));
      return false;
    });
    let totalBytes = live.reduce((sum, set) => sum + set.bytes, 0);
    while (live.length > 0 && (live.length + 1 > this.maxSets || totalBytes + incomingBytes > this.maxBytes)) {
      // The id stays reserved, so a reader that then misses the file is told it was evicted.
      const victim = live.shift()!;
      removeIfPresent(setFilePath(this.dir, victim.id));
      totalBytes -= victim.bytes;
    }
    for (const file of listing.legacyFiles) removeIfPresent(file);
    for (const temp of listing.tempFiles) {
      // Wall clock on purpose: temp files belong to live writers in other processes.
      if (Date.now() - temp.modifiedMs > STALE_TEMP_MS) removeIfPresent(temp.file);
    }
    pruneReservations(this.dir, this.now(), Math.max(SET_ID_RESERVATION_MS, this.ttlMs), RESERVATION_PRUNE_INTERVAL_MS);
  }
}

function isUnsettled(e: ResultEntry): boolean {
  return e.tag === 'live_source' && e.unsettled === true;
}

/** Whether two entries name the same hit: the same bytes of the same file, as indexed. */
function sameHit(a: ResultEntry, b: ResultEntry): boolean {
  return (
    a.tag === b.tag &&
    a.root === b.root &&
    a.member === b.member &&
    a.path === b.path &&
    a.revision === b.revision &&
    a.generation === b.generation
  );
}
