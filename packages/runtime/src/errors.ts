/** Stable codes of runtime errors; messages are one line and say what to do next. */
export type RuntimeErrorCode =
  | 'no_daemon' // nothing listens on the root's socket
  | 'timed_out' // the daemon did not answer in time
  | 'protocol_error' // a malformed frame or reply, or the connection closed early
  | 'request_too_large' // over MAX_REQUEST_BYTES or MAX_REQUEST_ARGS
  | 'reply_too_large' // the handler's reply is over MAX_REPLY_BYTES
  | 'handler_failed' // the request handler threw
  | 'daemon_busy' // too many requests in flight on one connection
  | 'daemon_stopping' // the daemon is shutting down
  | 'daemon_running' // another live process holds the root's daemon lock
  | 'daemon_exited' // a detached daemon exited before it answered
  | 'version_mismatch' // client and daemon are of different versions
  | 'root_not_found' // the root is missing or not a directory
  | 'cache_unwritable' // the cache directory or socket cannot be created
  | 'socket_unavailable'; // the socket path cannot be used (e.g. a foreign short-path directory)

export interface RuntimeError {
  readonly code: RuntimeErrorCode;
  readonly message: string;
}

/** Every fallible runtime call answers either its success object (`ok: true`) or this. */
export interface Failure extends RuntimeError {
  readonly ok: false;
  /** `daemon_running`: the pid of the daemon holding the lock; `version_mismatch`: of the daemon of another version. */
  readonly pid?: number;
}

export function failure(code: RuntimeErrorCode, message: string, pid?: number): Failure {
  return pid === undefined ? { ok: false, code, message } : { ok: false, code, message, pid };
}

export function errnoCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? '';
}

/** One line of an exception's message, for logs and error values. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim();
}
