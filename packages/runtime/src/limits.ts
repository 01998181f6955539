// Every limit of the runtime in one place (workspace contract "Runtime, diagnostics, and
// limits"; issue 5). Each one is exercised by a test under test/.

/** Largest request frame body (UTF-8 JSON bytes) a daemon accepts. */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** Most arguments one request may carry. */
export const MAX_REQUEST_ARGS = 256;
/** Largest reply frame body (UTF-8 JSON bytes) a daemon sends. */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** Frame header: body length as a 4-byte big-endian unsigned integer. */
export const FRAME_HEADER_BYTES = 4;
/** Longest request id (client-created UUIDs are 36 characters). */
export const MAX_REQUEST_ID_LENGTH = 128;
/** Requests one connection may have in flight; more are answered `daemon_busy`. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 64;
/** A connection with nothing in flight and nothing received for this long is closed. */
export const CONNECTION_IDLE_MS = 60_000;

/** Watch events: reconcile after this long without a new event ... */
export const DEFAULT_QUIET_MS = 75;
/** ... but at most this long after the first event of a burst. */
export const DEFAULT_MAX_DEBOUNCE_MS = 1_000;
/**
 * A request waits at most this long for the watch events noted before it to be reconciled
 * (read-your-own-writes: an edit is visible to the next search); past it, or when the events
 * call for a whole-root reconcile, it is answered from the generation already published.
 */
export const FRESH_READ_WAIT_MS = 1_000;
/**
 * Changed paths a daemon remembers between reconciles, to reconcile only them; past this
 * many it reconciles the whole root (the index may also decide so for fewer paths).
 */
export const MAX_PENDING_CHANGED_PATHS = 4_096;
/** Periodic reconcile while the file watcher works (covers events the kernel dropped). */
export const PERIODIC_WITH_WATCHER_MS = 5 * 60_000;
/** Periodic reconcile when there is no working watcher. */
export const PERIODIC_WITHOUT_WATCHER_MS = 30_000;
/** How often the daemon checks that its root (and its own lock) still exist. */
export const ROOT_CHECK_MS = 2_000;
/** A reconcile that found the index writer lock held is retried after this long. */
export const LOCKED_RETRY_MS = 1_000;
/** More directories than this are not watched; the daemon falls back to the periodic schedule. */
export const MAX_WATCHED_DIRECTORIES = 16_384;
// The directories not watched are the walk's never-entered names (@trufflepig/base
// ALWAYS_SKIPPED_DIRS, read by src/watch.ts).

/** Scheduling priority (nice) of a daemon: foreground queries share the cores. */
export const DAEMON_NICE = 10;
/** In-flight requests get this long to finish when a daemon stops. */
export const STOP_GRACE_MS = 2_000;

/** Default wait for a daemon reply (the workspace query deadline). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** Default wait for a detached daemon to answer its first ping. */
export const DEFAULT_READY_TIMEOUT_MS = 10_000;
/** Interval between readiness pings while a detached daemon starts. */
export const READY_POLL_MS = 20;
/** Default wait for a stopped daemon to remove its socket. */
export const DEFAULT_STOP_WAIT_MS = 5_000;
/** A daemon log larger than this is rotated (to daemon.log.1) when a daemon starts. */
export const MAX_LOG_BYTES = 1024 * 1024;

/** Unix socket paths longer than this (bytes, without the NUL) cannot be bound on Linux. */
export const UNIX_SOCKET_PATH_MAX = 107;

export const SOCKET_FILE_NAME = 'daemon.sock';
export const DAEMON_LOCK_FILE_NAME = 'daemon.lock';
export const DAEMON_LOG_FILE_NAME = 'daemon.log';
