/**
 * Errors of the facade: base's one `Outcome` shape, with the code typed as every stable
 * code a workspace answer can carry: the workspace's own and those of the packages it
 * calls (index, result-cache, member-root, config, history, runtime). A code outside the
 * union does not compile; facade/errors.ts gives each its meaning and next step.
 */
import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';
import type { ConfigErrorCode } from '@trufflepig/config';
import type { HistoryErrorCode } from '@trufflepig/history';
import type { IndexErrorCode } from '@trufflepig/index';
import type { RootErrorCode } from '@trufflepig/member-root';
import type { CacheErrorCode } from '@trufflepig/result-cache';
import type { NavigationErrorCode } from '@trufflepig/navigation';
import type { RuntimeErrorCode } from '@trufflepig/runtime';

/** Codes the workspace facade itself answers (beyond those of the packages it builds on). */
export type WorkspaceErrorCode =
  | 'bad_arguments'
  | 'bad_path'
  | 'bad_range'
  | 'binary_file'
  | 'file_too_large'
  | 'internal_error'
  | 'member_required'
  | 'member_unavailable'
  | 'no_home'
  | 'no_indexed_path'
  | 'no_workspace'
  | 'not_regular_file'
  | 'path_outside_root'
  | 'read_error'
  | 'source_missing'
  | 'stale_result'
  | 'stale_source'
  | 'timed_out'
  | 'unknown_member'
  | 'unsupported_result'
  | 'workspace_closed'
  | 'workspace_selected'
  | 'workspace_unavailable';

/**
 * Every stable error code `@trufflepig/workspace` can answer, through the library API or
 * the CLI: the workspace's own and those of config, history, index, member-root,
 * result-cache, runtime and navigation. A string-literal union: switch on it exhaustively.
 */
export type ErrorCode =
  | WorkspaceErrorCode
  | ConfigErrorCode
  | HistoryErrorCode
  | IndexErrorCode
  | NavigationErrorCode
  | RootErrorCode
  | CacheErrorCode
  | RuntimeErrorCode;

export type TpError = CodedError<ErrorCode>;

export type Outcome<T> = BaseOutcome<T, ErrorCode>;

export const fail = failWith<ErrorCode>();

export { ok };
