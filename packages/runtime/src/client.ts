// The client side: one connection per request to a root's daemon socket.
import * as net from 'node:net';
import { errnoCode, errorText } from './errors';
import { decodeFrames, EMPTY_DECODER, encodeFrame, frameBodyBytes } from './frame';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STOP_WAIT_MS,
  MAX_REPLY_BYTES,
  MAX_REQUEST_ARGS,
  MAX_REQUEST_BYTES,
  READY_POLL_MS,
} from './limits';
import { readLockPid } from './lock';
import { checkSocketDirectory, lockPathFor, socketPathFor } from './paths';
import {
  BUILTIN_VERBS,
  isBuiltinVerb,
  parseReply,
  serializeRequest,
  type DaemonReply,
  type DaemonRequest,
  type OptionValue,
} from './protocol';
import type { DaemonStatus } from './status';
import { TRUFFLEPIG_VERSION } from './version';

export { TRUFFLEPIG_VERSION } from './version';

export type SendFailureCode = 'no_daemon' | 'timed_out' | 'protocol_error' | 'request_too_large' | 'version_mismatch';

export interface SendFailure {
  readonly ok: false;
  readonly code: SendFailureCode;
  readonly message: string;
}

export type SendResult = { ok: true; reply: DaemonReply } | SendFailure;

export interface RequestInput {
  readonly id?: string;
  readonly verb: string;
  readonly args?: readonly string[];
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly cwd?: string;
  /** For tests only: the version this client claims (default TRUFFLEPIG_VERSION). */
  readonly version?: string;
}

function sendFailure(code: SendFailureCode, message: string): SendFailure {
  return { ok: false, code, message };
}

const NOT_LISTENING = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR', 'EACCES']);

/** A handler verb answered by a daemon of another version (or of none): never an answer. */
function versionFailure(reply: DaemonReply, clientVersion: string, cacheDir: string): SendFailure {
  if (reply.error?.code === 'version_mismatch') return sendFailure('version_mismatch', reply.error.message);
  const daemon = reply.version === undefined ? 'predates the version handshake' : `is version ${reply.version}`;
  return sendFailure(
    'version_mismatch',
    `the daemon serving ${cacheDir} ${daemon} and this client is version ${clientVersion}; run \`trufflepig stop\` and retry, or use --no-daemon`,
  );
}

let requestsSent = 0;

/**
 * An id no other request of this process carries (a reply is matched to its request by
 * it): not a random UUID, whose `node:crypto` cost a served call more than its own work.
 */
function nextRequestId(): string {
  requestsSent++;
  return `${process.pid.toString(36)}-${Date.now().toString(36)}-${requestsSent.toString(36)}`;
}

/**
 * Send one request to the daemon of `cacheDir` and wait for its reply. A reply the daemon
 * produced for its own error (handler_failed, daemon_busy, daemon_stopping, ...) is still
 * `ok: true`, with `reply.error` set and exit code 2; `request_too_large` becomes a
 * failure, whether found here before sending or by the daemon, and so does a handler
 * verb's reply from a daemon of another version (`version_mismatch`: the daemon refused
 * it, or it came without this client's version). Built-in verbs work across versions.
 */
export function sendRequest(
  cacheDir: string,
  input: RequestInput,
  opts: { timeoutMs?: number } = {},
): Promise<SendResult> {
  const version = input.version ?? TRUFFLEPIG_VERSION;
  const req: DaemonRequest = {
    id: input.id ?? nextRequestId(),
    verb: input.verb,
    args: input.args ?? [],
    options: input.options ?? {},
    cwd: input.cwd ?? process.cwd(),
    version,
  };
  if (req.args.length > MAX_REQUEST_ARGS) {
    return Promise.resolve(
      sendFailure(
        'request_too_large',
        `${req.args.length} arguments, over the ${MAX_REQUEST_ARGS}-argument limit; pass fewer arguments`,
      ),
    );
  }
  const json = serializeRequest(req);
  if (frameBodyBytes(json) > MAX_REQUEST_BYTES) {
    return Promise.resolve(
      sendFailure(
        'request_too_large',
        `the request is ${frameBodyBytes(json)} bytes, over the ${MAX_REQUEST_BYTES}-byte limit; pass fewer or shorter arguments`,
      ),
    );
  }
  const socketPath = socketPathFor(cacheDir);
  const dirProblem = checkSocketDirectory(socketPath, false);
  if (dirProblem) return Promise.resolve(sendFailure('no_daemon', dirProblem.message));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    let decoder = EMPTY_DECODER;
    const socket = net.createConnection(socketPath);
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish(
          sendFailure(
            'timed_out',
            `the daemon did not answer ${req.verb} within ${timeoutMs} ms; retry, or use --no-daemon`,
          ),
        ),
      timeoutMs,
    );
    socket.on('connect', () => {
      connected = true;
      socket.write(encodeFrame(json));
    });
    socket.on('data', (chunk: Buffer) => {
      const decoded = decodeFrames(decoder, chunk, MAX_REPLY_BYTES);
      decoder = decoded.state;
      for (const event of decoded.events) {
        if (event.kind === 'oversize')
          return finish(
            sendFailure(
              'protocol_error',
              `the daemon sent a ${event.length}-byte reply, over the ${MAX_REPLY_BYTES}-byte limit; use --no-daemon`,
            ),
          );
        const reply = parseReply(event.body);
        if (!reply)
          return finish(sendFailure('protocol_error', 'the daemon sent a malformed reply; stop it and retry'));
        if (reply.id !== req.id && reply.id !== '') continue;
        if (reply.error?.code === 'request_too_large')
          return finish(sendFailure('request_too_large', reply.error.message));
        if (reply.id === '')
          return finish(sendFailure('protocol_error', reply.error?.message ?? 'the daemon refused the request'));
        if (!isBuiltinVerb(req.verb) && (reply.error?.code === 'version_mismatch' || reply.version !== version))
          return finish(versionFailure(reply, version, cacheDir));
        return finish({ ok: true, reply });
      }
    });
    socket.on('error', (err) => {
      if (!connected && NOT_LISTENING.has(errnoCode(err)))
        finish(sendFailure('no_daemon', `no daemon listens on ${socketPath} (${errnoCode(err)})`));
      else
        finish(
          sendFailure(
            'protocol_error',
            `connection to the daemon failed (${errorText(err)}); retry, or use --no-daemon`,
          ),
        );
    });
    socket.on('close', () =>
      finish(
        sendFailure('protocol_error', 'the daemon closed the connection before replying; retry, or use --no-daemon'),
      ),
    );
  });
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Is a daemon answering on this cache directory? Answers its pid, its version (none from a daemon that predates the handshake) and the round trip. */
export async function pingDaemon(
  cacheDir: string,
  opts: { timeoutMs?: number } = {},
): Promise<{ ok: true; pid: number; version?: string; rttMs: number } | SendFailure> {
  const started = process.hrtime.bigint();
  const sent = await sendRequest(cacheDir, { verb: BUILTIN_VERBS.ping }, opts);
  if (!sent.ok) return sent;
  const body = parseJson<{ pid?: unknown }>(sent.reply.stdout);
  if (typeof body?.pid !== 'number')
    return sendFailure('protocol_error', 'the daemon answered ping without its pid; stop it and retry');
  const version = sent.reply.version;
  return {
    ok: true,
    pid: body.pid,
    ...(version !== undefined ? { version } : {}),
    rttMs: Number(process.hrtime.bigint() - started) / 1e6,
  };
}

/** The daemon's own status: pid, start, reconciles, generation when known, watcher, memory. */
export async function daemonStatus(
  cacheDir: string,
  opts: { timeoutMs?: number } = {},
): Promise<{ ok: true; status: DaemonStatus } | SendFailure> {
  const sent = await sendRequest(cacheDir, { verb: BUILTIN_VERBS.status }, opts);
  if (!sent.ok) return sent;
  const status = parseJson<DaemonStatus>(sent.reply.stdout);
  if (typeof status?.pid !== 'number')
    return sendFailure('protocol_error', 'the daemon answered status with something else; stop it and retry');
  return { ok: true, status };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Ask the daemon to stop and wait (up to `waitMs`) until its socket no longer answers
 * and its lock is released, so a new daemon may start. `no_daemon` when none ran.
 */
export async function stopDaemon(
  cacheDir: string,
  opts: { timeoutMs?: number; waitMs?: number } = {},
): Promise<{ ok: true; pid: number } | SendFailure> {
  const sent = await sendRequest(cacheDir, { verb: BUILTIN_VERBS.stop }, opts);
  if (!sent.ok) return sent;
  const pid = parseJson<{ pid?: unknown }>(sent.reply.stdout)?.pid;
  if (typeof pid !== 'number')
    return sendFailure('protocol_error', 'the daemon answered stop with something else; stop it with kill');
  const deadline = Date.now() + (opts.waitMs ?? DEFAULT_STOP_WAIT_MS);
  while (Date.now() < deadline) {
    if (readLockPid(lockPathFor(cacheDir)) !== pid) return { ok: true, pid };
    await sleep(READY_POLL_MS);
  }
  return sendFailure('timed_out', `daemon ${pid} accepted stop but still holds its lock; stop it with: kill ${pid}`);
}
