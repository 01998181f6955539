/** Codes of the history verbs' errors (docs/cli.md lists them). */
export type HistoryErrorCode =
  | 'not_git'
  | 'history_missing'
  | 'history_corrupt'
  | 'side_missing'
  | 'file_too_large'
  | 'bad_handle'
  | 'bad_revision'
  | 'stale_source'
  | 'git_unavailable'
  | 'git_failed';

/** A failure as a value: a stable code and a one-line message that says what to do next. */
export interface HistoryError {
  readonly code: HistoryErrorCode;
  readonly message: string;
}

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HistoryError };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail<T>(code: HistoryErrorCode, message: string): Outcome<T> {
  return { ok: false, error: { code, message } };
}
