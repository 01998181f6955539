// Limits of workspace federation (workspace contract), one named constant each.

/** A cached worktree divergence probe serves fallback reads for this long. */
export const DIVERGENCE_REUSE_MS = 5_000;
/** An exact sym: miss under parent fallback re-extracts at most this many changed files. */
export const FALLBACK_REEXTRACT_MAX_FILES = 64;
/** One Git call of the divergence probe. */
export const GIT_DIVERGENCE_TIMEOUT_MS = 10_000;
/** An unavailable member's reason is cut to this many characters. */
export const UNAVAILABLE_REASON_MAX_CHARS = 120;
/** Paths `status` names of the files whose parse failed or was partial. */
export const STATUS_PARSE_FAILURE_PATHS = 10;
/** Paths of files changed since indexing that `status` names (it counts them all). */
export const STATUS_CHANGED_PATHS = 5;
/** `status` names at most this many extensions of code no extractor reads (the rest counted). */
export const STATUS_UNPARSED_EXTENSIONS = 10;
/**
 * A member gets its own worker thread only when its published index is at least this
 * large: below it, a warm search on the main thread costs less than a thread's start-up.
 */
export const WORKER_MIN_INDEX_BYTES = 48 * 1024 * 1024;

/** A daemon-backed query waits this long for an unpublished (non-worktree) home to publish. */
export const HOME_WAIT_MS = 8_000;
/** Members a daemon-backed query reaches after this deadline report `timed out`. */
export const QUERY_DEADLINE_MS = 20_000;
/** How often a waiting query looks for the home's first publication. */
export const HOME_WAIT_POLL_MS = 100;

/** A limit, or its override from the environment (tests make the deadlines short this way). */
export function limitFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/**
 * Lines each side of a refs row that `show` of it reads without `-C`: the row spans its one
 * line, which the refs page already printed (docs/navigation.md, "a refs row is shown in context").
 */
export const REFS_ROW_SHOW_CONTEXT_LINES = 5;
/** `show path:` takes a spec of at most this many characters (Linux PATH_MAX is 4,096 bytes). */
export const SHOW_PATH_SPEC_MAX_CHARS = 8_192;

/**
 * Hits of a search whose spans are narrowed to a definition or a window (spans.ts), in
 * rank order (ten default pages); later hits keep the span the index gave them.
 */
export const SPAN_NARROW_HITS_MAX = 200;
/** Bytes a search reads at most to narrow its hits' spans. */
export const SPAN_NARROW_BYTES_MAX = 64 * 1024 * 1024;
/** A narrowed span larger than this (and than the index's own span) keeps the index's span. */
export const SPAN_NARROW_SPAN_BYTES_MAX = 16 * 1024;

/**
 * A daemon reconciles in its own thread, not a fresh worker, when watch events named at
 * most this many changed paths and none is a directory (serving/host/reconcile-worker.ts).
 */
export const IN_THREAD_RECONCILE_MAX_PATHS = 16;
/** Roots whose percent-encoded form result entries remember (core/search.ts encodedRoot); past it they start over. */
export const ENCODED_ROOTS_REMEMBERED = 64;
/**
 * A library Workspace closes a pooled reader unused this long: its next search opens a new
 * one from the old one's file table, and an idle one no longer holds its generation's
 * snapshot, which would keep a daemon's checkpoints from passing it.
 */
export const LIBRARY_READER_IDLE_MS = 30_000;
/**
 * How long a read served by a root daemon waits for the daemon's first index before it
 * answers `index_warming`: a repository of a few thousand files is indexed in that time,
 * and one answer after a wait costs an agent less than an error and a retry loop. Below
 * the client's wait for a reply (@trufflepig/runtime DEFAULT_REQUEST_TIMEOUT_MS, 20 s), so
 * the answer, not a timeout, reaches the client.
 */
export const FIRST_INDEX_WAIT_MS = 15_000;
/**
 * Lines of a `re:` hit's file whose match starts are read from the whole text (evidence of a
 * match running past its first line); past them each line is matched alone.
 */
export const REGEX_EVIDENCE_STARTS_MAX = 2_000;
