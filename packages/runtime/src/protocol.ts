// Request and reply shapes on the wire and their validation (pure).
import { sniffRequestId } from './frame';
import { MAX_REQUEST_ARGS, MAX_REQUEST_BYTES, MAX_REQUEST_ID_LENGTH } from './limits';
import type { RuntimeError, RuntimeErrorCode } from './errors';

export type OptionValue = string | number | boolean;

export interface DaemonRequest {
  /** Client-created id, unique among the client's requests (client.ts nextRequestId); the reply carries it back. */
  readonly id: string;
  readonly verb: string;
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, OptionValue>>;
  /** The client's working directory. */
  readonly cwd: string;
  /** The client's TRUFFLEPIG_VERSION; absent from clients that predate the handshake. */
  readonly version?: string;
}

export interface DaemonReply {
  readonly id: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** Set when the daemon itself refused or failed the request (not for the handler's own errors). */
  readonly error?: RuntimeError;
  /** The daemon's TRUFFLEPIG_VERSION, on every reply; absent from daemons that predate the handshake. */
  readonly version?: string;
  /** The JSON rendering, when the handler produced one alongside stdout (a request option asks for it). */
  readonly json?: string;
}

/**
 * Verbs the daemon answers itself, for a client of any version (so a client can always see
 * a daemon's version and stop it); every other verb goes to the request handler, and only
 * from a client of the daemon's own version.
 */
export const BUILTIN_VERBS = { ping: 'daemon.ping', status: 'daemon.status', stop: 'daemon.stop' } as const;

export function isBuiltinVerb(verb: string): boolean {
  return verb === BUILTIN_VERBS.ping || verb === BUILTIN_VERBS.status || verb === BUILTIN_VERBS.stop;
}

/** Exit code of a reply the daemon produced for an error (the CLI's error exit code). */
export const ERROR_EXIT_CODE = 2;

/** A reply for a request the daemon refused or failed: exit 2 and one stderr line, like the CLI. */
export function errorReply(id: string, code: RuntimeErrorCode, message: string): DaemonReply {
  return {
    id,
    stdout: '',
    stderr: `trufflepig: ${code}: ${message}\n`,
    exitCode: ERROR_EXIT_CODE,
    error: { code, message },
  };
}

/** The daemon's refusal of a handler verb from a client of another version, or of none. */
export function versionMismatchReply(
  id: string,
  daemonVersion: string,
  clientVersion: string | undefined,
): DaemonReply {
  const client =
    clientVersion === undefined ? 'sent no version (it predates the version handshake)' : `is version ${clientVersion}`;
  return errorReply(
    id,
    'version_mismatch',
    `this daemon is version ${daemonVersion} and the client ${client}; use one version, or run \`trufflepig stop\` and retry (the next call starts a daemon of its own version)`,
  );
}

/** The reply to a frame whose body was over MAX_REQUEST_BYTES (`head` is its first bytes). */
export function oversizeReply(length: number, head: string): DaemonReply {
  return errorReply(
    sniffRequestId(head) ?? '',
    'request_too_large',
    `the request is ${length} bytes, over the ${MAX_REQUEST_BYTES}-byte limit; pass fewer or shorter arguments`,
  );
}

function isOptionValue(v: unknown): v is OptionValue {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Parse and validate one request body. A body that is not a request answers
 * `protocol_error`, one with too many arguments `request_too_large`; both carry the
 * request's id when one could be read, so the client can match the refusal.
 */
export function parseRequest(body: string): { ok: true; request: DaemonRequest } | { ok: false; reply: DaemonReply } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {
      ok: false,
      reply: errorReply(
        sniffRequestId(body) ?? '',
        'protocol_error',
        'the request is not JSON; send one length-prefixed JSON request per frame',
      ),
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reply: errorReply('', 'protocol_error', 'the request is not a JSON object') };
  }
  const v = value as Record<string, unknown>;
  const id = typeof v.id === 'string' && v.id.length > 0 && v.id.length <= MAX_REQUEST_ID_LENGTH ? v.id : undefined;
  const bad = (message: string) => ({ ok: false as const, reply: errorReply(id ?? '', 'protocol_error', message) });
  if (id === undefined)
    return bad(
      `the request needs an id: a string of 1 to ${MAX_REQUEST_ID_LENGTH} characters, unique among the client's requests`,
    );
  if (typeof v.verb !== 'string' || v.verb.length === 0) return bad('the request needs a non-empty verb');
  if (!Array.isArray(v.args) || !v.args.every((a) => typeof a === 'string'))
    return bad('the request needs args: an array of strings');
  if (v.args.length > MAX_REQUEST_ARGS) {
    return {
      ok: false,
      reply: errorReply(
        id,
        'request_too_large',
        `the request has ${v.args.length} arguments, over the ${MAX_REQUEST_ARGS}-argument limit; pass fewer arguments`,
      ),
    };
  }
  const options = v.options ?? {};
  if (
    typeof options !== 'object' ||
    options === null ||
    Array.isArray(options) ||
    !Object.values(options).every(isOptionValue)
  ) {
    return bad('the request options must be an object of strings, finite numbers and booleans');
  }
  if (typeof v.cwd !== 'string') return bad('the request needs cwd: a string');
  const version = typeof v.version === 'string' ? { version: v.version } : {};
  return {
    ok: true,
    request: {
      id,
      verb: v.verb,
      args: v.args as string[],
      options: options as Record<string, OptionValue>,
      cwd: v.cwd,
      ...version,
    },
  };
}

/** Validate one reply body received by a client; undefined when it is not a reply. */
export function parseReply(body: string): DaemonReply | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (
    typeof v.id !== 'string' ||
    typeof v.stdout !== 'string' ||
    typeof v.stderr !== 'string' ||
    typeof v.exitCode !== 'number'
  )
    return undefined;
  const e = v.error as Record<string, unknown> | undefined;
  const error =
    e && typeof e.code === 'string' && typeof e.message === 'string'
      ? { code: e.code as RuntimeErrorCode, message: e.message }
      : undefined;
  return {
    id: v.id,
    stdout: v.stdout,
    stderr: v.stderr,
    exitCode: v.exitCode,
    ...(error ? { error } : {}),
    ...(typeof v.version === 'string' ? { version: v.version } : {}),
    ...(typeof v.json === 'string' ? { json: v.json } : {}),
  };
}

/** Serialize a request with its id first, so even an oversize request's refusal can name it. */
export function serializeRequest(req: DaemonRequest): string {
  return JSON.stringify({
    id: req.id,
    verb: req.verb,
    args: req.args,
    options: req.options,
    cwd: req.cwd,
    ...(req.version !== undefined ? { version: req.version } : {}),
  });
}
