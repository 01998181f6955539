// What every long-lived Trufflepig process shares, whatever it serves: a state directory
// held by exactly one process (its lock), a unix socket answering length-prefixed JSON
// requests (one `Connection` per client), the built-in verbs and the version handshake,
// a liveness check, and an orderly stop. The root daemon (server.ts) adds reconciling
// and watching a root; the workspace coordinator (coordinator.ts) adds nothing, because
// it only reads what member daemons publish.
import * as fs from 'node:fs';
import * as net from 'node:net';
import { Connection } from './connection';
import { errnoCode, errorText, failure, type Failure } from './errors';
import { ROOT_CHECK_MS, STOP_GRACE_MS } from './limits';
import { TRUFFLEPIG_VERSION } from './version';
import { acquireDaemonLock, type DaemonLock } from './lock';
import { checkSocketDirectory, socketPathFor } from './paths';
import {
  BUILTIN_VERBS,
  errorReply,
  isBuiltinVerb,
  versionMismatchReply,
  type DaemonReply,
  type DaemonRequest,
} from './protocol';
import { makeDirectories } from '@trufflepig/base/directories';

/** Why a served process stopped. `root_gone`: what it serves (a root, a workspace file) disappeared. */
export type ExitReason = 'stopped' | 'stop_request' | 'signal' | 'root_gone' | 'lock_lost';

/** What a handler answers; `json` (a string) is passed on to the client, anything else in it is ignored. */
export type HandlerAnswer = Omit<DaemonReply, 'id' | 'error' | 'version'>;

/** The socket and lock of a state directory, held by this process. */
export interface HeldService {
  readonly stateDir: string;
  readonly socketPath: string;
  readonly lock: DaemonLock;
  readonly server: net.Server;
}

function listen(server: net.Server, socketPath: string): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const onError = (err: Error) => resolve(err);
    server.once('error', onError);
    server.listen(socketPath, () => {
      server.off('error', onError);
      resolve(undefined);
    });
  });
}

/**
 * Take `stateDir` for this process: create it, take its lock, replace a stale socket and
 * listen. `serves` names what is served, for the `daemon_running` message.
 */
export async function holdService(
  stateDir: string,
  serves: string,
): Promise<{ ok: true; held: HeldService } | Failure> {
  try {
    makeDirectories(stateDir);
  } catch (err) {
    return failure(
      'cache_unwritable',
      `cannot create ${stateDir} (${errorText(err)}); pass a writable --cache directory`,
    );
  }
  const socketPath = socketPathFor(stateDir);
  const dirProblem = checkSocketDirectory(socketPath, true);
  if (dirProblem) return dirProblem;
  let taken: ReturnType<typeof acquireDaemonLock>;
  try {
    taken = acquireDaemonLock(stateDir);
  } catch (err) {
    return failure(
      'cache_unwritable',
      `cannot create the daemon lock in ${stateDir} (${errorText(err)}); check its permissions`,
    );
  }
  if (!taken.ok) {
    return failure(
      'daemon_running',
      `a daemon (pid ${taken.heldBy}) already serves ${serves}; talk to it on ${socketPath}, or stop it first`,
      taken.heldBy,
    );
  }
  const lock = taken.lock;
  // Only the lock holder gets here, so a socket file left by a dead process is ours to replace.
  try {
    fs.unlinkSync(socketPath);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') {
      lock.release();
      return failure(
        'socket_unavailable',
        `cannot remove the stale socket ${socketPath} (${errorText(err)}); remove it by hand`,
      );
    }
  }
  const server = net.createServer();
  const listenError = await listen(server, socketPath);
  if (listenError) {
    lock.release();
    return failure(
      'socket_unavailable',
      `cannot listen on ${socketPath} (${errorText(listenError)}); check the cache directory`,
    );
  }
  try {
    fs.chmodSync(socketPath, 0o600);
  } catch {
    // the directory is private anyway
  }
  return { ok: true, held: { stateDir, socketPath, lock, server } };
}

/** What the served process decides; the service does the rest. */
export interface ServiceRole {
  /** Answers a non-built-in verb of this release. */
  handle(req: DaemonRequest): Promise<HandlerAnswer>;
  /** The `ping` answer (pid and version are added). */
  identity(): Record<string, unknown>;
  /** The `status` answer, given the service's own figures. */
  describe(load: ServiceLoad): unknown;
  /** Checked every `checkMs` after the lock: a reason to stop, or undefined while what is served is there. */
  gone(): ExitReason | undefined;
  /** At the start of a stop, before the socket closes (e.g. close a file watcher). */
  halt?(): void;
  /** After the socket closed and replies drained: stop the role's own work (`wait`: let it finish). */
  stopped(wait: boolean): Promise<void>;
}

/** What every served process may be given; the root daemon's and coordinator's options extend it. */
export interface ServiceOptions {
  /** How often the lock and what is served are checked (default ROOT_CHECK_MS). */
  readonly checkMs?: number;
  /** Stop on SIGTERM/SIGINT and exit the process once replies are flushed. Default true. */
  readonly handleSignals?: boolean;
  readonly log?: (line: string) => void;
  /**
   * For tests only: the version this process claims (default TRUFFLEPIG_VERSION), to stand
   * for one of another release. It is what replies carry and requests must match.
   */
  readonly version?: string;
}

/** What the served process's status says of the service itself: load, start, memory. */
export interface ServiceLoad {
  readonly startedAt: number;
  readonly served: number;
  readonly inFlight: number;
  readonly memory: { readonly rssBytes: number; readonly heapUsedBytes: number };
}

export class SocketService {
  readonly pid = process.pid;
  readonly version: string;
  readonly log: (line: string) => void;
  readonly startedAt = Date.now();
  readonly done: Promise<ExitReason>;
  private finish!: (reason: ExitReason) => void;
  private readonly connections = new Set<Connection>();
  private timer?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  private served = 0;
  private readonly signalHandler = (signal: NodeJS.Signals) => this.onSignal(signal);

  private readonly checkMs: number;
  private readonly handleSignals: boolean;

  constructor(
    readonly held: HeldService,
    private readonly role: ServiceRole,
    opts: ServiceOptions,
    defaultLog: (line: string) => void,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.version = opts.version ?? TRUFFLEPIG_VERSION;
    this.log = opts.log ?? defaultLog;
    this.checkMs = opts.checkMs ?? ROOT_CHECK_MS;
    this.handleSignals = opts.handleSignals !== false;
  }

  get socketPath(): string {
    return this.held.socketPath;
  }

  get stopRequested(): boolean {
    return this.stopping !== undefined;
  }

  start(): void {
    this.held.server.on('connection', (socket) => this.accept(socket));
    if (this.handleSignals) {
      process.on('SIGTERM', this.signalHandler);
      process.on('SIGINT', this.signalHandler);
    }
    this.timer = setInterval(() => this.check(), this.checkMs);
    this.timer.unref();
  }

  /** The figures every status reports: start, requests served and in flight, memory. */
  load(): ServiceLoad {
    const memory = process.memoryUsage();
    return {
      startedAt: this.startedAt,
      served: this.served,
      inFlight: [...this.connections].reduce((n, c) => n + c.busy, 0),
      memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
    };
  }

  /** The `status` answer now. */
  status(): unknown {
    return this.role.describe(this.load());
  }

  /** True while the lock is held and what is served is still there; otherwise stops. */
  check(): boolean {
    if (this.stopping) return false;
    if (!this.held.lock.stillHeld()) {
      this.log('the daemon lock is gone or taken (cache removed?); exiting');
      void this.shutdown('lock_lost');
      return false;
    }
    const gone = this.role.gone();
    if (gone === undefined) return true;
    void this.shutdown(gone);
    return false;
  }

  private accept(socket: net.Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const connection = new Connection(
      socket,
      (req) => this.dispatch(req),
      (req) => {
        if (req?.verb === BUILTIN_VERBS.stop) void this.shutdown('stop_request');
      },
      this.version,
    );
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
  }

  private async dispatch(req: DaemonRequest): Promise<DaemonReply> {
    this.served++;
    if (this.stopping)
      return errorReply(req.id, 'daemon_stopping', 'the daemon is stopping; retry, a new one can start now');
    switch (req.verb) {
      case BUILTIN_VERBS.ping:
        return {
          id: req.id,
          stdout: JSON.stringify({ pid: this.pid, ...this.role.identity(), version: this.version }),
          stderr: '',
          exitCode: 0,
        };
      case BUILTIN_VERBS.status:
        return { id: req.id, stdout: JSON.stringify(this.status()), stderr: '', exitCode: 0 };
      case BUILTIN_VERBS.stop:
        return { id: req.id, stdout: JSON.stringify({ pid: this.pid, stopping: true }), stderr: '', exitCode: 0 };
    }
    // A client of another release may mean something else by the same verb and options:
    // refuse rather than answer as if understood (the built-ins above stay version-free).
    if (!isBuiltinVerb(req.verb) && req.version !== this.version)
      return versionMismatchReply(req.id, this.version, req.version);
    try {
      const out = await this.role.handle(req);
      if (typeof out?.stdout !== 'string' || typeof out.stderr !== 'string' || !Number.isInteger(out.exitCode)) {
        return errorReply(
          req.id,
          'handler_failed',
          `the handler of ${req.verb} returned no { stdout, stderr, exitCode }; rerun with --no-daemon`,
        );
      }
      const json = (out as { json?: unknown }).json;
      return {
        id: req.id,
        stdout: out.stdout,
        stderr: out.stderr,
        exitCode: out.exitCode,
        ...(typeof json === 'string' ? { json } : {}),
      };
    } catch (err) {
      this.log(`handler of ${req.verb} threw: ${errorText(err)}`);
      return errorReply(
        req.id,
        'handler_failed',
        `the daemon failed on ${req.verb} (${errorText(err)}); rerun with --no-daemon`,
      );
    }
  }

  private onSignal(signal: NodeJS.Signals): void {
    this.log(`${signal}: stopping`);
    // Exit once replies are flushed; the role's own work is abandoned (publication is crash-safe).
    void this.shutdown('signal', false).then(() => process.exit(0));
  }

  /** Stop serving: close the socket, release the lock, let replies drain (≤ STOP_GRACE_MS), then stop the role. */
  shutdown(reason: ExitReason, waitForRole = true): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      if (this.timer) clearInterval(this.timer);
      this.role.halt?.();
      process.off('SIGTERM', this.signalHandler);
      process.off('SIGINT', this.signalHandler);
      this.held.server.close();
      // A lost lock means another process may own these paths now: leave them alone.
      if (reason !== 'lock_lost') {
        try {
          fs.unlinkSync(this.held.socketPath);
        } catch {
          // already gone
        }
      }
      this.held.lock.release();
      this.log(`stopping (${reason})`);
      const drained = Promise.all([...this.connections].map((c) => c.drained()));
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
      for (const c of this.connections) c.destroy();
      await this.role.stopped(waitForRole);
      this.finish(reason);
    })();
    return this.stopping;
  }
}

/**
 * A served process (a root daemon, a coordinator): a role over one socket service. The
 * subclass says what it serves (`ServiceRole`); this class gives it the running handle.
 */
export abstract class ServedProcess<Status> implements ServiceRole {
  readonly pid = process.pid;
  readonly socketPath: string;
  /** Resolves once the process has stopped serving, with why. */
  readonly done: Promise<ExitReason>;
  protected readonly service: SocketService;

  constructor(held: HeldService, opts: ServiceOptions, defaultLog: (line: string) => void) {
    this.service = new SocketService(held, this, opts, defaultLog);
    this.socketPath = held.socketPath;
    this.done = this.service.done;
  }

  status(): Status {
    return this.describe(this.service.load());
  }

  stop(): Promise<void> {
    return this.service.shutdown('stopped');
  }

  abstract describe(load: ServiceLoad): Status;
  abstract handle(req: DaemonRequest): Promise<HandlerAnswer>;
  abstract identity(): Record<string, unknown>;
  abstract gone(): ExitReason | undefined;
  abstract stopped(wait: boolean): Promise<void>;
}
