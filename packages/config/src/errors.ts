export type ConfigErrorCode =
  | 'config_not_found'
  | 'config_unreadable'
  | 'config_too_large'
  | 'config_parse_error'
  | 'config_unknown_field'
  | 'config_invalid_type'
  | 'config_missing_field'
  | 'config_invalid_name'
  | 'config_member_count'
  | 'config_members_mismatch'
  | 'config_budget_range'
  | 'config_invalid_scopes'
  | 'config_invalid_path'
  | 'config_duplicate_root'
  | 'config_overlapping_root'
  | 'workspace_conflicting_flags'
  | 'workspace_not_found'
  | 'workspace_ambiguous'
  | 'registry_stale_entry';

/**
 * A configuration error as a value: a stable code, a one-line message naming the file and
 * what to change, and where known the 1-based line and the dotted field.
 */
export interface ConfigError {
  code: ConfigErrorCode;
  message: string;
  file?: string;
  line?: number;
  field?: string;
}

/** `error` is the first problem in document order; `errors` lists every one found. */
export type ConfigOutcome<T> = { ok: true; value: T } | { ok: false; error: ConfigError; errors: ConfigError[] };

export function success<T>(value: T): ConfigOutcome<T> {
  return { ok: true, value };
}

export function failure<T>(errors: ConfigError[]): ConfigOutcome<T> {
  const sorted = [...errors].sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return { ok: false, error: sorted[0]!, errors: sorted };
}

/** "FILE:LINE: " prefix so every message names where to look. */
export function where(file: string | undefined, line: number | undefined): string {
  if (!file) return '';
  return line ? `${file}:${line}: ` : `${file}: `;
}

export function configError(
  code: ConfigErrorCode,
  what: string,
  at: { file?: string; line?: number; field?: string },
): ConfigError {
  const error: ConfigError = { code, message: `${where(at.file, at.line)}${what}` };
  if (at.file !== undefined) error.file = at.file;
  if (at.line !== undefined) error.line = at.line;
  if (at.field !== undefined) error.field = at.field;
  return error;
}
