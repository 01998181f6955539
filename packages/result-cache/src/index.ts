export { RESULT_TTL_MS, MAX_STORE_BYTES, MAX_SETS, MAX_HITS_PER_SET, MAX_TOMBSTONES } from './limits';
export type { ResultEntry, SetMeta, StoredSet, CacheErrorCode, CacheError, Outcome } from './types';
export { parseHandle, parseCursor, formatHandle, formatCursor } from './handles';
export { ResultStore, type ResultStoreOptions } from './store';
export { makeDirectories } from './directory';
