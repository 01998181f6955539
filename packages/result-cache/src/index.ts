export {
  RESULT_TTL_MS,
  MAX_STORE_BYTES,
  MAX_SETS,
  MAX_HITS_PER_SET,
  SET_ID_MIN_CHARS,
  SET_ID_MAX_CHARS,
  SET_ID_RESERVATION_MS,
} from './limits';
export type {
  ResultEntry,
  EntryBase,
  OwnerFields,
  SearchHitFields,
  NavigationRowFields,
  LiveSourceEntry,
  CommitEntry,
  ChangeEntry,
  ChangeRecord,
  ChangeSide,
  SetMeta,
  SetPageShape,
  SetLineMatch,
  SetSection,
  SetVerb,
  StoredSet,
  CacheErrorCode,
  CacheError,
  Outcome,
} from './types';
export { changeOf } from './types';
export { isChangeRecord } from './codec';
export { parseHandle, parseCursor, formatHandle, formatCursor } from './handles';
export { ResultStore, type ResultStoreOptions } from './store';
// Re-exported for callers that still import it from here; @trufflepig/base owns it.
export { makeDirectories } from '@trufflepig/base';
