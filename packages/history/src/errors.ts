import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

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
export type HistoryError = CodedError<HistoryErrorCode>;

export type Outcome<T> = BaseOutcome<T, HistoryErrorCode>;

export const fail = failWith<HistoryErrorCode>();

export { ok };
