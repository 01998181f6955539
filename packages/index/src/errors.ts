import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

export type IndexErrorCode =
  | 'index_warming'
  | 'index_locked'
  | 'index_corrupt'
  | 'cache_unwritable'
  | 'root_unreadable'
  | 'cache_root_mismatch'
  | 'reconcile_failed'
  | 'storage_unavailable'
  | 'bad_query'
  | 'bad_regex'
  | 'unknown_language'
  | 'unknown_kind';

export type IndexError = CodedError<IndexErrorCode>;

export type Outcome<T> = BaseOutcome<T, IndexErrorCode>;

export const fail = failWith<IndexErrorCode>();

export { ok };
