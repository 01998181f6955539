/** Hex characters of the SHA-256 of a canonical root that name its cache directory. */
export const ROOT_HASH_HEX_LENGTH = 16;

/** Directory under the cache base (XDG or ~/.cache) that holds every root's cache. */
export const CACHE_APP_DIR = 'trufflepig';
