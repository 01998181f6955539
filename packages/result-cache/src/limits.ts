// Limits of the persisted result cache (retrieval spec section 5). Every tunable number
// lives here so callers and tests share one definition.

/** A set is served for ten minutes after its creation, then never again. */
export const RESULT_TTL_MS = 10 * 60 * 1000;
/** Total bytes of set files kept in one store directory. */
export const MAX_STORE_BYTES = 32 * 1024 * 1024;
/** Number of sets kept in one store directory. */
export const MAX_SETS = 50;
/** Entries kept per set; longer hit lists are cut and reported as truncated. */
export const MAX_HITS_PER_SET = 10_000;
/** Eviction tombstones kept so an evicted id still answers expired_result, not unknown_result. */
export const MAX_TOMBSTONES = 1_000;
/** A temp file untouched this long (wall clock) was left by a crashed writer and may be removed. */
export const STALE_TEMP_MS = 60 * 1000;
/** Longest decimal ordinal/offset accepted; keeps values exact JavaScript integers. */
export const MAX_POSITION_DIGITS = 15;
