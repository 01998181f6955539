import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

export type RootErrorCode =
  | 'root_not_found'
  | 'root_not_directory'
  | 'root_unreadable'
  | 'cache_inside_root'
  | 'git_unavailable'
  | 'git_failed'
  | 'root_not_member';

/** An error as a value: a stable code and a one-line message that says what to do next. */
export type RootError = CodedError<RootErrorCode>;

export type Outcome<T> = BaseOutcome<T, RootErrorCode>;

export const fail = failWith<RootErrorCode>();

export { ok };
