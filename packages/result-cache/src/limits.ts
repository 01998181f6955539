// Limits of the persisted result cache (docs/spec/retrieval.md §5). Every tunable number
// lives here so callers and tests share one definition.

/** A set is served for ten minutes after its creation, then never again. */
export const RESULT_TTL_MS = 10 * 60 * 1000;
/** Total bytes of set files kept in one store directory. */
export const MAX_STORE_BYTES = 32 * 1024 * 1024;
/** Number of sets kept in one store directory. */
export const MAX_SETS = 50;
/** Entries kept per set; longer hit lists are cut and reported as truncated. */
export const MAX_HITS_PER_SET = 10_000;
/** Shortest set id: 6 characters, two syllables (set-id.ts), about 2.1 million ids per store directory. */
export const SET_ID_MIN_CHARS = 6;
/** Longest set id; ids grow past the minimum only after repeated collisions. */
export const SET_ID_MAX_CHARS = 16;
/** Random ids tried at one length before the next id is one character longer. */
export const SET_ID_TRIES_PER_LENGTH = 3;
/** Candidate ids drawn per id when the store is given an `idCost`; the cheapest is kept. */
export const SET_ID_COST_CANDIDATES = 16;
/** A set id stays reserved this long, so it is never reissued for the same store within a day. */
export const SET_ID_RESERVATION_MS = 24 * 60 * 60 * 1000;
/** Reservations past SET_ID_RESERVATION_MS are looked for at most this often. */
export const RESERVATION_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** A temp file untouched this long (wall clock) was left by a crashed writer and may be removed. */
export const STALE_TEMP_MS = 60 * 1000;
/** Longest decimal ordinal/offset accepted; keeps values exact JavaScript integers. */
export const MAX_POSITION_DIGITS = 15;
