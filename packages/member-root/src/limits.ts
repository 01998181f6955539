/** Hex characters of the SHA-256 of a canonical root that name its cache directory. */
export const ROOT_HASH_HEX_LENGTH = 16;

/** Directory under the cache base (XDG or ~/.cache) that holds every root's cache. */
export const CACHE_APP_DIR = 'trufflepig';

/** A git probe that takes longer than this is treated as failed rather than hanging a query. */
export const GIT_PROBE_TIMEOUT_MS = 10_000;
