// The exported types of the library API (api.ts): what openWorkspace takes, and every
// answer as a typed object. Field names are camelCase; paths are as Trufflepig prints
// them (see Hit.path); nothing here is serialized text.
import type { ReconcileProgress, ReconcileReport, RoleName } from '@trufflepig/index';
import type { MemberState } from '../federation/member-search';
import type { CtxRow } from '../navigation/commands';
import type { SymbolContext } from '../navigation/show-symbol';

export type { OtherDefinition, SymbolContext, SymbolMember } from '../navigation/show-symbol';
import type { Resolution } from '@trufflepig/navigation';
import type { ErrorCode } from './errors';

// A member's state in one workspace search ('complete' | 'partial' | 'stale' | 'warming' |
// 'unavailable' | 'timed_out' | 'parent_fallback'), how a refs site resolves inside its
// member ('resolved' | 'candidate' | 'unresolved'), and an occurrence's role (RoleName).
export type { MemberState, Resolution, RoleName };

/** Where a Workspace reads from: a root, a workspace file, or wherever `cwd` lies. */
export interface OpenOptions {
  /**
   * A root directory (relative to `cwd`). Without a workspace: the root searched (its Git
   * top level is not looked up: the directory itself). In a workspace: a member root,
   * which then acts as the "home" member. Default: the Git top level of `cwd`, else `cwd`.
   */
  readonly root?: string;
  /** A workspace file (`trufflepig.workspace.toml`), or a directory holding one; relative to `cwd`. */
  readonly workspace?: string;
  /** Cache base directory (each root's index lives in `<cache>/<root-hash>`). Default: `$XDG_CACHE_HOME/trufflepig`. */
  readonly cache?: string;
  /** Never discover a workspace around `root`/`cwd`: that root alone is searched. Conflicts with `member`. */
  readonly noWorkspace?: boolean;
  /** Select one workspace member (never widens to the others). */
  readonly member?: string;
  /** The directory calls are made "from" (relative paths, discovery, `ws:home`). Default: `process.cwd()` at open. */
  readonly cwd?: string;
  /** Environment read for the cache base and the workspace registry (XDG_*, HOME). Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** One member of an opened workspace. */
export interface MemberInfo {
  readonly name: string;
  /** The root searched and read (a linked worktree standing in for the configured root, when the call is made from one). */
  readonly root: string;
  /** The root as configured. */
  readonly configuredRoot: string;
  readonly available: boolean;
  /** Why the member is unavailable (its root is missing, unreadable, ...). */
  readonly unavailableReason?: string;
  /** True when `root` is a linked worktree standing in for `configuredRoot`. */
  readonly worktree: boolean;
  /** This member's index cache directory. */
  readonly cacheDir: string;
}

/** One line of evidence under a hit: a matching line of the file, or `-C` context around one. */
export interface EvidenceLine {
  /** 1-based line number. */
  readonly line: number;
  /** The line's display text, trimmed and cut to a snippet around the match. */
  readonly text: string;
  /** True for a context line (SearchOptions.context), not a match. */
  readonly context?: true;
}

/** What a commit document hit (a `source:git-log` search) is about. */
export interface CommitInfo {
  /** Full object id of the commit. */
  readonly hash: string;
  /** Author date, strict ISO 8601. */
  readonly date: string;
  /** Paths the commit changed (as stored, root-relative). */
  readonly changed: readonly string[];
  /** Changed paths beyond those listed. */
  readonly morePaths: number;
}

/** One located span of a file (a search hit, a refs site, a map row), with the handle that reads it back. */
export interface Hit {
  /** `SET:ORDINAL`: `ws.show(handle)` reads the span, verified; `ws.ctx(handle)` gives its structure. */
  readonly handle: string;
  /** The workspace member it belongs to; undefined for a single root. */
  readonly member?: string;
  /**
   * Root-relative path as Trufflepig prints it: the name itself when it is plain UTF-8
   * text (`src/my file.ts`), else its percent-encoding (`latin%E9.rs`, `100%25.ts`).
   */
  readonly path: string;
  /** `file://` URI of the file (percent-encoded); for a commit, the repository with `#commit=HASH`. */
  readonly uri: string;
  /** 1-based first and last line of the span (inclusive). */
  readonly startLine: number;
  readonly endLine: number;
  /** Byte offsets of the span in the file as indexed (half-open). */
  readonly start: number;
  readonly end: number;
  /** Qualified name of the definition the span is (`TokenBucket::refill`), when it is one. */
  readonly name?: string;
  /** Its kind (`function`, `struct`, `file`, ...). */
  readonly kind?: string;
  /** The source tags of the file (`source:code`, `source:docs`, `source:tests`, `source:git-log`, ...). */
  readonly sources: readonly string[];
  /** The bytes on disk may differ from those indexed (a worktree answered from its member's index). */
  readonly differs?: true;
  /** Set for a commit document hit (`source:git-log`). */
  readonly commit?: CommitInfo;
}

/** A search hit: a Hit with the lines that made it match, read from the current file (when it still has the indexed revision). */
export interface SearchHit extends Hit {
  /** The best matching line (most distinct query terms; code before comments). */
  readonly snippet?: EvidenceLine;
  /** Every evidence line in line order: the best line, further matches of a `re:`/literal search, context lines. */
  readonly evidence?: readonly EvidenceLine[];
  /** Matching lines of the file left out of `evidence`. */
  readonly matchesLeft?: number;
}

/** The one-word state of a coverage: `stale` when edits are not searched, `partial` when files or members are missing, else `complete`. */
export type CoverageState = 'complete' | 'partial' | 'stale';

/** Which members a workspace search covered: the home member, all, those selected, or home widened to all (home had no hits). */
export type SearchScope = 'home' | 'all' | 'members' | 'home_widened';

/** One member's part of a workspace search. */
export interface MemberCoverage {
  readonly state: MemberState;
  /** Hits the member found. */
  readonly hits: number;
  readonly generation?: number;
  readonly indexedFiles?: number;
  /** Why the member is warming, unavailable or partial. */
  readonly reason?: string;
}

/** What a search page covered, so a miss is never mistaken for an absence. */
export interface Coverage {
  /**
   * `complete`, `partial` or `stale`. A workspace search is `stale` when a member is,
   * `partial` when any member is not complete (warming, unavailable, timed out, answered
   * from its parent's index, or partial), else `complete`. A page of `more` describes the
   * stored set (`complete`), not the index.
   */
  readonly state: CoverageState;
  /** Hits in the ranking (the whole set, or this scope's ranking). */
  readonly hits: number;
  /** More matches existed than the set keeps. */
  readonly truncated: boolean;
  /** Single root: the index generation searched. */
  readonly generation?: number;
  /** Single root: files in the index. */
  readonly indexedFiles?: number;
  /** Single root: files not searched, by reason (e.g. `too_large`), when any. */
  readonly unsearched?: Readonly<Record<string, number>>;
  /** Single root: files and directories left out, by class. */
  readonly excluded?: Readonly<Record<string, number>>;
  /** Single root: files whose parser failed (their text is still searched). */
  readonly parseFailures?: number;
  /** Workspace: which members the search covered. */
  readonly scope?: SearchScope;
  /** Workspace: each searched member's part. */
  readonly members?: Readonly<Record<string, MemberCoverage>>;
  /** The one-line summary the CLI prints after `coverage:`. */
  readonly summary: string;
  /** The coverage record exactly as the CLI's JSON page carries it (snake_case keys; fields vary by case). */
  readonly record: Readonly<Record<string, unknown>>;
}

/** Fields every page has: the result set, where this page starts in it, and the cursor to the next page. */
export interface PageBase {
  /** What was asked (the query words joined, or `refs NAME`, `map PATH`). */
  readonly query: string;
  /** The persisted result set (6 or more characters of [0-9a-z]); it lives 10 minutes. */
  readonly setId: string;
  /** Offset of hits[0] in the set's ranking. */
  readonly offset: number;
  /** Entries of the ranking this page belongs to (the whole set, or one scope's part of it). */
  readonly total: number;
  /** `SET@OFFSET` of the next page (`ws.more(cursor)`); undefined when this page ends the ranking. */
  readonly cursor?: string;
  /** More matches existed than the set keeps. */
  readonly truncated: boolean;
}

/** One scope's ranking on the first page of a scoped search (per_source scopes, workspace `[retrieval] scopes`). */
export interface ScopeGroup {
  /** The scope's source tags (`["source:docs"]`, `["source:code", "source:tests"]`). */
  readonly scope: readonly string[];
  /** Entries in this scope's ranking. */
  readonly total: number;
  /** Its first hits (up to `limit`). */
  readonly hits: readonly SearchHit[];
  /** `SET@OFFSET` of its next hits, when more remain. */
  readonly cursor?: string;
}

/** A page of search hits: `ws.search()`, or `ws.more()` of a search's cursor. */
export interface SearchPage extends PageBase {
  readonly kind: 'search';
  readonly hits: readonly SearchHit[];
  readonly coverage: Coverage;
  /** Scoped searches: the scope whose ranking this page shows (`[]`: the global ranking). */
  readonly scope?: readonly string[];
  /** First page of a scoped search: every scope's own ranking after the global one. */
  readonly groups?: readonly ScopeGroup[];
}

/** One occurrence site of a name (`ws.refs`). */
export interface RefsHit extends Hit {
  /** What the occurrence is: `declaration`, `import`, `call`, `type`, `member`, `reference`, `module`, `local`. */
  readonly role: RoleName;
  /** Every role of the collapsed occurrences, when they differ. */
  readonly roles?: readonly RoleName[];
  readonly resolution: Resolution;
  /** Where it resolves (`path:line`), when resolved or a single candidate. */
  readonly definition?: string;
  /** The definition enclosing the site (`Owner::name`). */
  readonly within?: string;
  /** The site's line, display-escaped, without its indentation. */
  readonly text: string;
  /** Occurrences collapsed into this row (same line, same role); 1 for one. */
  readonly repeats: number;
}

/** What a refs answer covered. */
export interface RefsCoverage {
  /** Occurrence sites before same-line collapsing, and the files holding them. */
  readonly sites: number;
  readonly files: number;
  readonly resolved: number;
  readonly candidate: number;
  readonly unresolved: number;
  /** A bound stopped the scan: `unreadFiles` files holding the name were not read. */
  readonly truncated: boolean;
  readonly unreadFiles: number;
  /** Files changed since indexing, not examined (run index). */
  readonly staleFiles: number;
  /** Workspace: which members were read. */
  readonly scope?: SearchScope;
  /** Workspace: members skipped, with why. */
  readonly skipped?: Readonly<Record<string, { readonly state: string; readonly reason: string }>>;
  /** The one-line summary the CLI prints after `coverage:`. */
  readonly summary: string;
}

/** A page of refs sites: `ws.refs()`, or `ws.more()` of its cursor. */
export interface RefsPage extends PageBase {
  readonly kind: 'refs';
  readonly hits: readonly RefsHit[];
  readonly coverage: RefsCoverage;
}

/** One row of a map: a definition of the file (`of: 'file'`), or a file under the prefix (`of: 'prefix'`, kind `file`). */
export interface MapHit extends Hit {
  /** Modifiers before the definition's name (`static`, `async`, `private`, `#`). */
  readonly modifiers?: readonly string[];
  /** A file row: its top-level names (`+N` when cut). */
  readonly names?: readonly string[];
}

/** A page of a map: `ws.map()`, or `ws.more()` of its cursor. */
export interface MapPage extends PageBase {
  readonly kind: 'map';
  /** `file`: the outline of one file; `prefix`: one row per file under a directory prefix. */
  readonly of: 'file' | 'prefix';
  readonly hits: readonly MapHit[];
  readonly coverage: {
    /** Workspace: which members were read. */
    readonly scope?: SearchScope;
    /** Workspace: members skipped, with why. */
    readonly skipped?: Readonly<Record<string, { readonly state: string; readonly reason: string }>>;
    /** The one-line summary the CLI prints after `coverage:`. */
    readonly summary: string;
  };
}

/** Any page `ws.more()` can return; `kind` tells which. */
export type Page = SearchPage | RefsPage | MapPage;

/** One row of a read: a line of the file with its exact byte coordinates. */
export interface SourceLine {
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the line's first byte, and just past its content (line break excluded). */
  readonly start: number;
  readonly end: number;
  /**
   * The line's text. With `escaped: false` these are the file's bytes verbatim (UTF-8,
   * a BOM and the CR of a CRLF aside); with `escaped: true` invalid UTF-8 and control
   * characters are shown `\xNN` / `\u{X}` and a literal backslash `\\`.
   */
  readonly text: string;
  readonly escaped: boolean;
}

/** Lines a `sym:` read leaves out in place (a long docstring): one row stands for line..endLine. */
export interface FoldedLines {
  readonly line: number;
  readonly endLine: number;
  readonly start: number;
  readonly end: number;
  /** What the lines are, e.g. `docstring`. */
  readonly folded: string;
  /** The read that shows them, e.g. `path:flask/helpers.py:222-255`. */
  readonly read: string;
}

/** A row of a read; `'folded' in row` tells a FoldedLines. */
export type ReadRow = SourceLine | FoldedLines;

/** A verified read (`ws.show`): the bytes of a hit, a path range or a definition, as they are on disk now. */
export interface Read {
  /** The handle read (absent for `path:` reads). */
  readonly handle?: string;
  readonly member?: string;
  /** Root-relative path as printed (see Hit.path). */
  readonly path: string;
  readonly uri: string;
  /** SHA-256 of the bytes read (for a commit, its object id). */
  readonly revision: string;
  /**
   * `revision`: the bytes hash to the revision the handle was found at (else the read fails
   * with stale_source); `current file`: a `path:` read of the file as it is now; `git object`:
   * a blob of a history read (the history verbs; this API does not read those yet).
   */
  readonly verified: 'revision' | 'current file' | 'git object';
  readonly name?: string;
  readonly kind?: string;
  /** Lines and bytes of the rows returned. */
  readonly startLine: number;
  readonly endLine: number;
  readonly start: number;
  readonly end: number;
  readonly rows: readonly ReadRow[];
  /** The source rows' text joined with `\n` (folded rows add nothing; see SourceLine.text for escaping). */
  readonly text: string;
  /** Some row's text is escaped: `text` is not the bytes verbatim. */
  readonly escaped: boolean;
  /** `sym:` reads: the definition's whole extent when `rows` are only its head. */
  readonly extent?: { readonly startLine: number; readonly endLine: number };
  /** The target that reads on (`SET:N~BYTE`, or a `path:` range) when rows remain: a budget cut them, or a `sym:` read shows a head. */
  readonly next?: string;
  /** A `sym:` read: the definition's listed members, its other definitions, its reference count, the import trail followed. */
  readonly symbol?: SymbolContext;
}

/** One item of a `ctx` answer; its handle reads it back (the row `ctx` prints). */
export type CtxItem = CtxRow;

/** The structural context of a handle's span (`ws.ctx`), from the owner's current index. */
export interface CtxAnswer {
  /** The handle asked about. */
  readonly handle: string;
  /** The definition the span is (or documents). */
  readonly symbol?: CtxItem;
  /** The definition that contains it. */
  readonly container?: CtxItem;
  /** A type's members, else the symbol's siblings under the same owner (`membersAre` says which). */
  readonly members: readonly CtxItem[];
  readonly membersAre: 'members' | 'siblings';
  /** Definitions calling the symbol, and those it calls. */
  readonly callers: readonly CtxItem[];
  readonly callees: readonly CtxItem[];
  /** Types implementing the symbol, an interface or trait (a Go interface's: by its methods' names). */
  readonly implementations: readonly CtxItem[];
  /** Classes naming the symbol, a class, as a base; a row is `candidate` when another class has its name. */
  readonly subclasses: readonly CtxItem[];
  /** Subclasses were cut: this `refs NAME` query lists every use of the name. */
  readonly subclassesMore?: string;
  /** Implementations were cut: this `refs NAME` query lists every use of the name. */
  readonly implementationsMore?: string;
  /** The bases the symbol, a class, names in its head; a row is `candidate` when several definitions have the name. */
  readonly bases: readonly CtxItem[];
  /** Bases the index defines nowhere (a dependency's class), as the head names them. */
  readonly unresolvedBases: readonly string[];
  /** A method's namesakes in the classes deriving from or implementing its class. */
  readonly overriddenBy: readonly CtxItem[];
  /** The nearest base class's method of a method's name, which it overrides. */
  readonly overrides: readonly CtxItem[];
  /** Called names no indexed definition matches. */
  readonly unresolvedCallees: readonly string[];
  /** Members and callees found beyond the lists' bound: counted, not listed. */
  readonly omitted: number;
  /** `omitted` by list (`members`, `callees`, `implementations`, `subclasses`, `overridden_by`, or a list the budget cut). */
  readonly omittedBy: Readonly<Record<string, number>>;
  /** The callers list was cut: this `refs NAME` query lists every site. */
  readonly callersMore?: string;
  /** A type's members list was cut: this `map PATH` lists them all. */
  readonly membersMore?: string;
  /** Why the answer is empty, or that the span documents the symbol after it. */
  readonly note?: string;
  /** The index generation the answer was read from. */
  readonly generation: number;
}

/**
 * One root indexed by `ws.index()`: whose root it was, and what its reconcile reported
 * (the fields of `@trufflepig/index`'s ReconcileReport that a caller acts on).
 */
export interface IndexReport extends Pick<
  ReconcileReport,
  | 'generation'
  | 'published'
  | 'files'
  | 'parsed'
  | 'reused'
  | 'removed'
  | 'excluded'
  | 'parseFailures'
  | 'unsearched'
  | 'sourceBytes'
  | 'durationMs'
  | 'gitLog'
> {
  readonly root: string;
  readonly cacheDir: string;
  /** Workspace: the member's name. */
  readonly member?: string;
  /** Workspace: the root is a linked worktree standing in for the member. */
  readonly worktree?: boolean;
}

/** What `ws.index()` did: the roots indexed, and the workspace members it could not index. */
export interface IndexResult {
  readonly roots: readonly IndexReport[];
  readonly failed: readonly {
    readonly member: string;
    readonly state: 'unavailable' | 'failed';
    /** For `failed`: the index error's code. */
    readonly code?: ErrorCode;
    readonly message: string;
  }[];
}

/** Options of `ws.search`. */
export interface SearchOptions {
  /** Most hits on the page (default 20). */
  readonly limit?: number;
  /**
   * An o200k token budget: the page holds the hits the CLI's page (lines format) shows
   * within it. Default: none (the page holds `limit` hits). For a scoped search only the
   * page's own ranking is measured, not its groups.
   */
  readonly budget?: number;
  /** Context lines around each evidence line (0..10). */
  readonly context?: number;
  /** `per_source`: also rank each source on its own (groups); wins over a workspace's `[retrieval] scopes`. */
  readonly scopes?: 'shared' | 'per_source';
}

/** Options of `ws.more`: as for search; `budget` and `context` apply to search pages, `limit` to every page. */
export interface MoreOptions {
  /** Most hits on the page (default 20 for search pages, 500 for refs and map pages). */
  readonly limit?: number;
  readonly budget?: number;
  readonly context?: number;
}

/** Options of `ws.refs` and `ws.map`. */
export interface NavOptions {
  /** Most rows on the page (default 500). */
  readonly limit?: number;
}

/** Options of `ws.show`. */
export interface ShowOptions {
  /**
   * An o200k token budget: the read holds the rows the CLI's read (lines format) shows
   * within it, and `next` continues. Default: none (every row of the span).
   */
  readonly budget?: number;
  /** Lines around a handle's span (0..10), as `-C`; without it a refs row is read with 5 lines each side. */
  readonly context?: number;
}

/** Options of `ws.index`. */
export interface IndexOptions {
  /** Called as indexing walks, extracts and publishes. */
  readonly onProgress?: (progress: ReconcileProgress) => void;
}

/**
 * An opened root or workspace. Every method answers a typed value or rejects with a
 * TrufflepigError (its `code` is an ErrorCode). It starts no background process: an
 * unpublished root is indexed in the foreground on first use (the CLI's --no-daemon).
 */
export interface Workspace {
  /** `root`: one root; `workspace`: a workspace of members. */
  readonly kind: 'root' | 'workspace';
  /** The root searched (kind `root`), or the home member's root (kind `workspace`, undefined outside every member). */
  readonly root: string | undefined;
  /** Workspace: its name and file. */
  readonly name?: string;
  readonly configFile?: string;
  /** Workspace: the members (empty for a root). */
  readonly members: readonly MemberInfo[];
  /** Search (the query language of the CLI: words, "literal", re:, sym:, file:, lang:, kind:, in:NAME, ws:all, ...). */
  search(query: string | readonly string[], options?: SearchOptions): Promise<SearchPage>;
  /** The next page of a search, refs or map result set, from the cursor a page returned. */
  more(cursor: string, options?: MoreOptions): Promise<Page>;
  /**
   * Read back verified bytes: a handle (`SET:N`) or its continuation (`SET:N~BYTE`), a
   * `path:P[:A-B]` range of the current file, or `sym:NAME` (the best definition).
   */
  show(target: string, options?: ShowOptions): Promise<Read>;
  /** Every occurrence site of a name (`refs TokenBucket`, `refs TokenBucket::refill file:src/`). */
  refs(query: string | readonly string[], options?: NavOptions): Promise<RefsPage>;
  /** A file's outline, or the files under a directory prefix (with selectors: `['in:lib', 'src/']`). */
  map(path: string | readonly string[], options?: NavOptions): Promise<MapPage>;
  /** The structural context of a handle: container, members or siblings, callers, callees. */
  ctx(handle: string): Promise<CtxAnswer>;
  /** Index the root (or every available member, or the selected one) in the foreground. */
  index(options?: IndexOptions): Promise<IndexResult>;
  /**
   * Wait for calls in flight, close the readers kept between calls (each is also closed
   * after LIBRARY_READER_IDLE_MS unused, or replaced when a newer generation is published),
   * then refuse new calls (workspace_closed).
   */
  close(): Promise<void>;
}
