/**
 * Errors as values, one shape for every package: an `Outcome` is a value or a
 * `CodedError` with a stable code and a one-line message that says what to do next.
 *
 * The code is a type parameter so each package keeps its own closed union
 * (`IndexErrorCode`, `CacheErrorCode`, ...) and a caller that combines packages gets the
 * union of theirs, never a bare `string`. Nothing here throws.
 */

/** A failure: `code` is stable (documented, tested, matched by callers); `message` is for people. */
export interface CodedError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}

export type Outcome<T, C extends string = string> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: CodedError<C> };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** A failure outcome; it is an `Outcome<T, C>` for every `T`. */
export function fail<C extends string>(
  code: C,
  message: string,
): { readonly ok: false; readonly error: CodedError<C> } {
  return { ok: false, error: { code, message } };
}

/**
 * `fail` restricted to one package's codes, typed as that package's `Outcome`: a
 * package writes `export const fail = failWith<MyCode>()` once instead of a copy of `fail`.
 */
export function failWith<C extends string>(): <T = never>(code: C, message: string) => Outcome<T, C> {
  return fail;
}
