export type RootErrorCode =
  | 'root_not_found'
  | 'root_not_directory'
  | 'root_unreadable'
  | 'cache_inside_root'
  | 'git_unavailable'
  | 'git_failed'
  | 'root_not_member';

/** An error as a value: a stable code and a one-line message that says what to do next. */
export interface RootError {
  code: RootErrorCode;
  message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: RootError };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail<T>(code: RootErrorCode, message: string): Outcome<T> {
  return { ok: false, error: { code, message } };
}
