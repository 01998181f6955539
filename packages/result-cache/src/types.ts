/** One ranked hit of a persisted result set. Unknown keys are kept verbatim (JSON). */
export interface ResultEntry {
  tag: 'live_source' | 'commit' | 'change';
  /** Canonical root of the owner (percent-encoded absolute path). */
  root: string;
  member?: string;
  /** Percent-encoded root-relative path. */
  path: string;
  /** sha-256 hex of the file bytes when indexed. */
  revision: string;
  generation: number;
  /** Half-open byte span of the original file. */
  start: number;
  end: number;
  start_line: number;
  end_line: number;
  name?: string;
  kind?: string;
  sources?: string[];
  snippet?: { line: number; text: string };
  [extra: string]: unknown;
}

export interface SetMeta {
  query: string;
  truncated: boolean;
  [extra: string]: unknown;
}

export interface StoredSet {
  /** 6 or more characters of [0-9a-z], reserved in its store for at least a day. */
  id: string;
  createdAt: number;
  meta: SetMeta;
  entries: ResultEntry[];
}

export type CacheErrorCode =
  | 'unknown_result'
  | 'expired_result'
  | 'bad_handle'
  | 'bad_cursor'
  | 'ordinal_out_of_range'
  | 'result_store_error';

/** A failure as a value: stable code plus a one-line message saying what to do next. */
export interface CacheError {
  code: CacheErrorCode;
  message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: CacheError };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail<T>(code: CacheErrorCode, message: string): Outcome<T> {
  return { ok: false, error: { code, message } };
}
