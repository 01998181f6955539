import { failWith, ok, type CodedError, type Outcome as BaseOutcome } from '@trufflepig/base/outcome';

// The records a result set stores, one declaration each: every field a verb writes is
// declared here with its type, and the codec (codec.ts) checks a stored set against these
// types once, on load, so a reader uses the fields as typed.

/** Fields of every entry: which bytes of which file, found where, the hit names. */
export interface EntryBase {
  /** Canonical root of the owner (percent-encoded absolute path). */
  root: string;
  member?: string;
  /** Percent-encoded root-relative path. */
  path: string;
  /** sha-256 hex of the file bytes when indexed (a commit entry: the commit id). */
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
}

/**
 * Whose index a search or navigation hit was read from, so that a later read goes there
 * or nowhere (workspace core/owner.ts and navigation/open.ts check them).
 */
export interface OwnerFields {
  /** Cache directory of the index the hit was read from (ctx reopens it). */
  cache?: string;
  /** Filesystem identity of the member's root when searched ('' when it could not be read). */
  root_id?: string;
  /** The member is a linked Git worktree (then `git_common_dir` names its repository). */
  worktree?: true;
  git_common_dir?: string;
  /** The hit was read from the parent member's index over this worktree's root. */
  owner?: 'parent_index';
  /** With `owner`: the root that index was built for (a read opens it as built for it). */
  owner_root?: string;
}

/** Fields of a hit a search lane found (file hits and commit documents). */
export interface SearchHitFields {
  /** The file's language as `lang:` names it. */
  lang?: string;
  /** Scoped searches: the scope of the ranking (section) the entry was laid out in. */
  scope?: string[];
  /** Definition hits: first lines of the file's further matching definitions (its evidence). */
  also_lines?: number[];
  /** A file found by its path alone, not indexed for its content: the reason (`binary`, `too_large`). */
  excluded?: string;
}

/** The fields of a `refs` or `map` row (navigation verbs), beyond the span. */
export interface NavigationRowFields {
  /** refs: the occurrence's role, and every role when the collapsed occurrences differ. */
  role?: string;
  roles?: readonly string[];
  /** refs: `resolved`, `candidate` or `unresolved` (navigation's Resolution). */
  resolution?: string;
  /** refs: where the site resolves (`path:line`). */
  definition?: string;
  /** refs: the definition the site sits in. */
  within?: string;
  /** refs: the site's line, display-escaped. */
  text?: string;
  /** refs: occurrences collapsed into the row (absent for one). */
  repeats?: number;
  /** map: keywords before a definition's name (`static`, `#` for a #private name). */
  modifiers?: readonly string[];
  /** map of a prefix: a file's top-level names. */
  names?: readonly string[];
}

/** A span of a file as it was indexed (search, navigation, blame's uncommitted lines). */
export interface LiveSourceEntry extends EntryBase, OwnerFields, SearchHitFields, NavigationRowFields {
  tag: 'live_source';
  /** A worktree answered from its parent's index: the file differs in the worktree. */
  differs?: true;
  /** A worktree's definitions re-extracted from its own bytes (generation 0). */
  reextracted?: true;
  /**
   * The span is provisional (the index's own unit, not yet narrowed to what an agent
   * reads): the first read of the entry settles it (`ResultStore.settle`), and a settled
   * entry never changes again.
   */
  unsettled?: true;
}

/** A commit document (`source:git-log`): `revision` is the commit id. */
export interface CommitEntry extends EntryBase, OwnerFields, SearchHitFields {
  tag: 'commit';
  /** Author date, as indexed. */
  date: string;
  /** The changed paths the document lists, and how many more it counts. */
  changed: string[];
  more_paths: number;
}

/** A change of the history verbs: which commit changed which lines. */
export interface ChangeEntry extends EntryBase {
  tag: 'change';
  change: ChangeRecord;
  /** diff: a hunk outside every definition. */
  outside?: true;
}

/** One ranked hit of a persisted result set, by its tag. */
export type ResultEntry = LiveSourceEntry | CommitEntry | ChangeEntry;

/** The change record of a `change` entry; undefined for every other tag (blame's uncommitted runs). */
export function changeOf(entry: ResultEntry): ChangeRecord | undefined {
  return entry.tag === 'change' ? entry.change : undefined;
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

/** How evidence lines of a `re:` or `"literal"` search are matched, so `more` shows the same evidence. */
export interface SetLineMatch {
  /** `identifier`: a compound identifier's search, whose lines are those spelling it as a whole token. */
  readonly mode: 're' | 'literal' | 'identifier';
  readonly text: string;
}

/** One ranking of a scoped search's set (docs/spec/per-source.md); the global one first. */
export interface SetSection {
  /** `[]` for the global ranking. */
  readonly scope: readonly string[];
  /** Offset of the section's first entry in the set. */
  readonly offset: number;
  readonly count: number;
}

/** The verbs whose own page format `more` continues (a search set has none). */
export type SetVerb = 'refs' | 'map' | 'hist' | 'blame' | 'since' | 'diff';

/**
 * The shape the request gave its first page (`-n`, `-C`): `more` pages the set the same way
 * unless it is given its own. Absent fields were not given (the verb's default applies).
 */
export interface SetPageShape {
  readonly limit?: number;
  readonly context?: number;
}

/** What a set keeps beside its entries, so that `more` renders the next page as the first. */
export interface SetMeta {
  query: string;
  truncated: boolean;
  /** Search: the words evidence lines are picked by. */
  words?: string[];
  lines?: SetLineMatch;
  /** Workspace sets: member name -> percent-encoded root of every member in the set. */
  members?: Record<string, string>;
  /** Workspace search: the workspace file. */
  workspace?: string;
  /** Scoped search: `shared`, `per_source` or `explicit`, and where each ranking starts. */
  scopes?: string;
  sections?: SetSection[];
  nav?: SetVerb;
  /** History verbs: the target as the header names it. */
  target?: string;
  /** Navigation and history verbs: the first page's coverage (JSON) and coverage line. */
  coverage?: Record<string, unknown>;
  coverageLine?: string;
  /** History verbs: header lines after the first, and words after each file's path line. */
  notes?: string[];
  fileNotes?: Record<string, string>;
  /** The first page's explicit shape, which `more` keeps. */
  page?: SetPageShape;
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
