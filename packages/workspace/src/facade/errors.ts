// The typed errors of the library API (api.ts): every code the workspace can answer, as
// one string-literal union, each with its meaning and the next step, and the error class
// the API throws. The union is built from the codes the packages below own (their
// `*ErrorCode` types) plus the workspace's own, so a code added below without an entry
// here fails the build (ERROR_TABLE is a Record over the whole union).
import type { ErrorCode } from '../core/errors';

export type { ErrorCode, WorkspaceErrorCode } from '../core/errors';

/** What an error code means, and what to do next. */
export interface ErrorHelp {
  readonly meaning: string;
  readonly next: string;
}

/** Every error code with its meaning and next step (the README's error table is this table). */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorHelp>> = {
  // Arguments and queries
  bad_arguments: {
    meaning: 'An argument or option is malformed or missing (e.g. context lines outside 0..10, map without one PATH).',
    next: 'Fix the call as the message says.',
  },
  bad_query: {
    meaning:
      'The query cannot be parsed or is empty for this verb (too many words, an over-long word, refs without a name).',
    next: 'Shorten or fix the query; the message gives an example.',
  },
  bad_regex: {
    meaning: 'A `re:` pattern is empty, malformed or uses an unsupported construct.',
    next: 'Fix the pattern, or search the text as a "literal".',
  },
  unknown_language: {
    meaning: 'A `lang:` filter names no known language.',
    next: 'Use one of the languages the message lists.',
  },
  unknown_kind: {
    meaning: 'A `kind:` filter names no known definition kind.',
    next: 'Use one of the kinds the message lists.',
  },
  no_definition: {
    meaning: '`show sym:NAME` found no indexed definition of the name.',
    next: 'Try the nearest names it suggests, a text search, or refs NAME.',
  },
  no_indexed_path: {
    meaning: '`map PATH` matched no indexed file or directory prefix.',
    next: 'Use one of the nearest paths it names, or index again if the file is new.',
  },
  // Handles, cursors and result sets
  bad_handle: {
    meaning: 'The handle is not of the form SET:ORDINAL (or its ~BYTE continuation lies outside the hit).',
    next: 'Pass a handle exactly as a page returned it.',
  },
  bad_cursor: {
    meaning: 'The cursor is not of the form SET@OFFSET, or lies past the end of its set.',
    next: 'Pass the cursor exactly as the previous page returned it.',
  },
  unknown_result: {
    meaning: "No result set of that id is in this root's or workspace's result cache (another cache, or pruned).",
    next: 'Search again, with the same root, workspace and cache.',
  },
  expired_result: {
    meaning: 'The result set outlived its time to live (10 minutes).',
    next: 'Search again for a new handle.',
  },
  ordinal_out_of_range: {
    meaning: 'The handle names an entry past the end of its set.',
    next: 'Use a handle of a hit the page listed.',
  },
  result_store_error: {
    meaning: 'A result set could not be written or read in the cache directory.',
    next: 'Check that the cache directory is writable, then search again.',
  },
  stale_result: {
    meaning:
      'The index a handle came from is gone, or the handle is a historical entry the verb cannot read (ctx of a commit).',
    next: 'Search again.',
  },
  unsupported_result: {
    meaning:
      'The handle or cursor belongs to a history verb (hist, blame, since, diff), which the typed API does not read yet.',
    next: 'Read it with the CLI (`trufflepig show` / `more`).',
  },
  // Reading files
  stale_source: {
    meaning:
      'The file (or commit) changed since the search: its bytes no longer hash to the revision the hit was found at.',
    next: 'Run the `show sym:` the message names (the definition as it is now), or search again (or index, then retry).',
  },
  source_missing: {
    meaning: 'The file was moved or deleted since the search, or a `path:` read names no file.',
    next: 'Search again; search with kind:file to find a path.',
  },
  read_error: {
    meaning: 'The file exists but could not be read (permissions, I/O error).',
    next: "Fix the file's permissions, then retry.",
  },
  bad_path: {
    meaning: 'A `path:` read is empty or too long.',
    next: 'Give a root-relative path, e.g. path:src/lib.rs:10-40.',
  },
  bad_range: {
    meaning: 'A `path:P:A-B` range lies outside the file.',
    next: 'Ask for lines within the range the message gives.',
  },
  path_outside_root: {
    meaning: 'A `path:` read is absolute, climbs out with `..`, or resolves outside the root through a symlink.',
    next: 'Give a path inside the root.',
  },
  not_regular_file: {
    meaning: 'A `path:` read names a directory or another non-regular file.',
    next: 'Read a regular file; map a directory instead.',
  },
  binary_file: {
    meaning: 'A `path:` read names a binary file (it contains NUL bytes).',
    next: 'Nothing to show; search inside text files.',
  },
  file_too_large: { meaning: 'The file is over the read limit.', next: 'Search inside it, or read a smaller range.' },
  // Roots, caches and indexes
  root_not_found: { meaning: 'The root directory does not exist.', next: 'Pass an existing directory as root.' },
  root_not_directory: { meaning: 'The root is not a directory.', next: 'Pass a directory as root.' },
  root_unreadable: {
    meaning: 'The root (or a directory the index needs) cannot be read.',
    next: 'Fix its permissions.',
  },
  cache_inside_root: {
    meaning: 'The cache directory lies inside a root it would index.',
    next: 'Choose a cache directory outside every root.',
  },
  cache_unwritable: {
    meaning: 'The cache directory (or a daemon socket in it) cannot be created or written.',
    next: 'Choose a writable cache directory.',
  },
  cache_root_mismatch: {
    meaning: 'The cache directory holds the index of another root.',
    next: "Use the root's own cache directory (or a fresh --cache).",
  },
  index_warming: {
    meaning:
      'No index is published for the root yet (the API indexes in the foreground; a daemon answers this while it builds one).',
    next: 'Run index, or retry once the daemon published.',
  },
  index_locked: { meaning: 'Another process is indexing this root.', next: 'Wait for it and retry.' },
  index_corrupt: {
    meaning: 'The published index is unreadable or from another schema version.',
    next: 'Run index to rebuild it.',
  },
  reconcile_failed: {
    meaning: 'Indexing failed; the previous generation stays published.',
    next: 'Run index again, and report it if it repeats.',
  },
  storage_unavailable: {
    meaning: "The SQLite engine (better-sqlite3's native addon) cannot be loaded.",
    next: 'Run `npm rebuild better-sqlite3` where trufflepig is installed.',
  },
  git_unavailable: { meaning: 'Git is not installed or cannot be run.', next: 'Install Git, or put it on PATH.' },
  git_failed: {
    meaning: 'A Git command failed.',
    next: "Check the repository with git status; the message has Git's reason.",
  },
  // Workspaces
  no_workspace: {
    meaning: 'A workspace selector (in:NAME, ws:home, ws:all, member) was used where no workspace is selected.',
    next: 'Open with { workspace: FILE } or from inside a member, or drop the selector.',
  },
  no_home: {
    meaning: '`ws:home` was asked for outside every member.',
    next: 'Open from inside a member, or use in:NAME or ws:all.',
  },
  unknown_member: {
    meaning: 'A member name (in:NAME or the member option) is not in the workspace file.',
    next: 'Use one of the member names the message lists.',
  },
  member_required: {
    meaning: 'The read needs one member (a `path:` read) and none is selected.',
    next: 'Open with { member: NAME } or from inside a member.',
  },
  member_unavailable: {
    meaning: "The member's root is missing, was replaced by another checkout, or has no index.",
    next: 'Fix its path in the workspace file, or search again.',
  },
  root_not_member: {
    meaning: 'An explicit root is no member of the selected workspace (while a member was asked for).',
    next: 'Drop the root or the member option.',
  },
  workspace_unavailable: {
    meaning: 'No selected member is available (or none could be indexed).',
    next: 'Fix the member paths in the workspace file, or select another member.',
  },
  workspace_selected: {
    meaning: 'A single-root operation (a root daemon) was asked for where a workspace is selected.',
    next: 'Run it with noWorkspace, or inside one member.',
  },
  workspace_conflicting_flags: {
    meaning: 'Options that exclude each other were given (workspace and noWorkspace, member and noWorkspace).',
    next: 'Pass only one of them.',
  },
  workspace_not_found: {
    meaning: 'The workspace file given does not exist.',
    next: 'Pass an existing trufflepig.workspace.toml (or its directory).',
  },
  workspace_ambiguous: {
    meaning: 'More than one workspace claims this directory.',
    next: 'Pass { workspace: FILE } to choose one.',
  },
  registry_stale_entry: {
    meaning: 'The workspace registry names a workspace file that no longer exists.',
    next: 'Remove the entry, or pass { workspace: FILE }.',
  },
  timed_out: {
    meaning: 'No selected member (or daemon) answered within the deadline.',
    next: 'Retry, or select fewer members.',
  },
  // Workspace files
  config_not_found: {
    meaning: 'The workspace file does not exist.',
    next: 'Create it (trufflepig ws discover DIR...) or fix the path.',
  },
  config_unreadable: { meaning: 'The workspace file cannot be read.', next: 'Fix its permissions.' },
  config_too_large: { meaning: 'The workspace file is over the size limit.', next: 'Shorten it.' },
  config_parse_error: { meaning: 'The workspace file is not valid TOML.', next: 'Fix the line the message names.' },
  config_unknown_field: {
    meaning: 'The workspace file has a field Trufflepig does not know.',
    next: 'Remove or rename the field the message names.',
  },
  config_invalid_type: {
    meaning: 'A field of the workspace file has the wrong type.',
    next: 'Fix the field the message names.',
  },
  config_missing_field: {
    meaning: 'A required field of the workspace file is missing.',
    next: 'Add the field the message names.',
  },
  config_invalid_name: {
    meaning: 'A workspace or member name is invalid or reserved.',
    next: 'Use 1-64 ASCII letters, digits, underscores or hyphens.',
  },
  config_member_count: {
    meaning: 'The workspace declares fewer or more members than allowed.',
    next: 'Declare a number of [members.NAME] tables within the range the message gives.',
  },
  config_members_mismatch: {
    meaning: 'workspace.members does not name every declared member exactly once.',
    next: 'Fix the list as the message says.',
  },
  config_budget_range: {
    meaning: '[output].budget is outside the allowed range.',
    next: 'Set a budget within the range the message gives.',
  },
  config_invalid_scopes: {
    meaning: '[retrieval].scopes is neither shared, per_source nor a list of scopes.',
    next: 'Fix the value as the message says.',
  },
  config_invalid_path: { meaning: 'A member path is empty or invalid.', next: "Fix the member's path." },
  config_duplicate_root: { meaning: 'Two members name the same root.', next: 'Keep one of them.' },
  config_overlapping_root: {
    meaning: "One member's root lies inside another's.",
    next: 'Make the member roots disjoint.',
  },
  // History verbs (hist, blame, since, diff; the CLI answers them)
  not_git: {
    meaning: 'The root is not inside a Git work tree (history verbs need Git history).',
    next: 'Run them on a Git clone.',
  },
  history_missing: {
    meaning: 'A commit, file or repository of a history result is gone.',
    next: 'Run the history verb again.',
  },
  history_corrupt: { meaning: 'A Git object does not hash to its id.', next: 'Check the repository with git fsck.' },
  side_missing: { meaning: 'A change has no before side (the commit added the target).', next: 'Read the after side.' },
  bad_revision: { meaning: 'A revision is malformed or a range.', next: 'Name one commit (HEAD~3, main, a hash).' },
  // Daemons (the CLI's serving mode; the library starts none)
  no_daemon: {
    meaning: "No daemon listens on the root's socket.",
    next: 'Start one (trufflepig daemon start) or run without a daemon.',
  },
  protocol_error: {
    meaning: 'A daemon sent a malformed reply or closed the connection early.',
    next: 'Retry; restart the daemon if it repeats.',
  },
  request_too_large: {
    meaning: 'A request to a daemon is over its size limit.',
    next: 'Send fewer or shorter arguments.',
  },
  reply_too_large: { meaning: "A daemon's reply is over its size limit.", next: 'Ask for a smaller budget.' },
  handler_failed: { meaning: "A daemon's request handler threw.", next: 'Retry without the daemon, and report it.' },
  daemon_busy: { meaning: 'Too many requests are in flight on one daemon connection.', next: 'Retry.' },
  daemon_stopping: { meaning: 'The daemon is shutting down.', next: 'Retry; a new daemon starts on demand.' },
  daemon_running: {
    meaning: "Another live process holds the root's daemon lock.",
    next: 'Use that daemon, or stop it first.',
  },
  daemon_exited: {
    meaning: 'A detached daemon exited before it answered.',
    next: 'Retry without the daemon; see its log in the cache directory.',
  },
  version_mismatch: {
    meaning: 'Client and daemon are of different Trufflepig versions.',
    next: 'Stop the old daemon (trufflepig daemon stop); the next call starts a current one.',
  },
  socket_unavailable: { meaning: "The daemon's socket path cannot be used.", next: 'Choose another cache directory.' },
  // Anything else
  internal_error: {
    meaning: 'An unexpected exception (a bug): the message is its first line.',
    next: 'Report it with the call that caused it.',
  },
  workspace_closed: { meaning: 'The Workspace was closed with close().', next: 'Open a new one with openWorkspace().' },
};

/** Every error code, in the order of ERROR_TABLE. */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERROR_TABLE) as ErrorCode[];

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_TABLE, code);
}

/**
 * The error every method of the library API rejects with: a stable `code` (switch on it),
 * a one-line `message` that says what to do next. An unexpected exception inside the API
 * becomes `internal_error`, with the original as `cause`.
 */
export class TrufflepigError extends Error {
  override readonly name = 'TrufflepigError';
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  /** What the code means and what to do next (ERROR_TABLE). */
  get help(): ErrorHelp {
    return ERROR_TABLE[this.code];
  }
}

/** Whether `err` is a TrufflepigError, and (given `code`) one of that code. */
export function isTrufflepigError(err: unknown, code?: ErrorCode): err is TrufflepigError {
  return err instanceof TrufflepigError && (code === undefined || err.code === code);
}

/**
 * A facade error value as the API's exception. The codes are the stable ones above; a code
 * no table lists (a bug: the tests check every code in the tree is listed) keeps its text
 * in the message under internal_error.
 */
export function toTrufflepigError(err: { readonly code: string; readonly message: string }): TrufflepigError {
  return isErrorCode(err.code)
    ? new TrufflepigError(err.code, err.message)
    : new TrufflepigError('internal_error', `${err.code}: ${err.message}`);
}
