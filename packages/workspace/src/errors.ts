/** Errors of the facade: a stable code and a one-line message saying what to do next. */
export interface TpError {
  readonly code: string;
  readonly message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: TpError };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail<T>(code: string, message: string): Outcome<T> {
  return { ok: false, error: { code, message } };
}
