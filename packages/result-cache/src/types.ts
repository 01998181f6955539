import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

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
  /** With tag `change`: which commit changed which lines (history verbs). */
  change?: ChangeRecord;
  [extra: string]: unknown;
}

/** One side of a change: lines of a file in one commit (or its parent). */
export interface ChangeSide {
  /** Percent-encoded path relative to the Git top level. */
  path: string;
  /**
   * 1-based inclusive lines of the target in that version (`end_line` = `start_line` - 1:
   * empty). Absent on a blame run's before side: mapped through the commit's diff when read.
   */
  start_line?: number;
  end_line?: number;
}

/**
 * What a `change` entry records so that `show` can rebuild the change from Git objects:
 * the repository, the commit, and the target's lines on each side. The entry's own
 * `path`/`start_line`/`end_line` are the after side as printed (root-relative).
 */
export interface ChangeRecord {
  /** Percent-encoded absolute Git top level (the owner root may be below it). */
  repo: string;
  /** Full object id of the commit. */
  commit: string;
  /** Its first parent; absent for a root commit or a shallow boundary. */
  parent?: string;
  /** The target in the commit. */
  after: ChangeSide;
  /** The target in the first parent; absent when the commit added it. */
  before?: ChangeSide;
  /** True when the target is a whole file (`hist path:P`): lines are the whole blob. */
  whole_file?: boolean;
  /** Author date (strict ISO 8601) and subject, as listed. */
  date: string;
  subject: string;
  /** Lines added and deleted inside the target, as listed (absent on a blame run: `show` counts them). */
  added?: number;
  deleted?: number;
  /** How the commit relates to the target beyond editing it. */
  event?: 'added' | 'moved' | 'renamed' | 'boundary';
  /** True when the commit is a merge (its change is against the first parent). */
  merge?: boolean;
  /**
   * `since`: the after side is the working tree's file, whose bytes had this SHA-256
   * revision when listed (a read of other bytes is `stale_source`); `commit` is then the
   * revision compared against, where the before side is read, and `parent` is absent.
   */
  worktree?: string;
  /** `since`: the two sides differ only in whitespace. */
  whitespace_only?: boolean;
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
  'unknown_result' | 'expired_result' | 'bad_handle' | 'bad_cursor' | 'ordinal_out_of_range' | 'result_store_error';

/** A failure as a value: stable code plus a one-line message saying what to do next. */
export type CacheError = CodedError<CacheErrorCode>;

export type Outcome<T> = BaseOutcome<T, CacheErrorCode>;

export const fail = failWith<CacheErrorCode>();

export { ok };
