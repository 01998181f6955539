export type IndexErrorCode =
  | 'index_warming' | 'index_locked' | 'index_corrupt' | 'cache_unwritable'
  | 'root_unreadable' | 'cache_root_mismatch' | 'reconcile_failed' | 'storage_unavailable' | 'bad_query' | 'bad_regex' | 'unknown_language' | 'unknown_kind';

export interface IndexError {
  readonly code: IndexErrorCode;
  readonly message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: IndexError };

export function fail<T>(code: IndexErrorCode, message: string): Outcome<T> {
  return { ok: false, error: { code, message } };
}

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}
