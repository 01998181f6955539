// The per-root daemon: one per canonical root, behind the root's daemon lock, serving
// length-prefixed JSON requests on the root's socket and keeping the index reconciled.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from './connection';
import { errnoCode, errorText, failure, type Failure } from './errors';
import {
  DAEMON_NICE,
  DEFAULT_MAX_DEBOUNCE_MS,
  DEFAULT_QUIET_MS,
  PERIODIC_WITH_WATCHER_MS,
  PERIODIC_WITHOUT_WATCHER_MS,
  ROOT_CHECK_MS,
  STOP_GRACE_MS,
} from './limits';
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
import { ReconcileScheduler, type ReconcileRun } from './scheduler';
import { describeStatus, type DaemonStatus, type WatcherState } from './status';
import { TreeWatcher } from './watch';
import { TRUFFLEPIG_VERSION } from './version';
import { makeDirectories } from '@trufflepig/base/directories';

/** What a request handler may ask of the daemon serving it. */
export interface RequestContext {
  readonly root: string;
  readonly cacheDir: string;
  /** Reconcile through the daemon's own schedule (never a competing writer); resolves with a run that started after the call. */
  reconcileNow(): Promise<ReconcileRun>;
}

/** What a handler answers; `json` (a string) is passed on to the client, anything else in it is ignored. */
export type RequestHandler = (
  req: DaemonRequest,
  ctx: RequestContext,
) => Promise<Omit<DaemonReply, 'id' | 'error' | 'version'>>;

export interface RootDaemonOptions {
  readonly root: string;
  readonly cacheDir: string;
  readonly handler: RequestHandler;
  /** Reconcile the root; never called twice at once. Default: @trufflepig/index reconcile(root, { cacheDir }), loaded on first use. */
  readonly reconcile?: () => Promise<unknown>;
  /** Called after every reconcile (e.g. to reopen a warm index reader on a new generation). */
  readonly onReconciled?: (run: ReconcileRun) => void;
  readonly quietMs?: number;
  readonly maxDebounceMs?: number;
  readonly periodicWithWatcherMs?: number;
  readonly periodicWithoutWatcherMs?: number;
  readonly rootCheckMs?: number;
  /** false: no file watcher, periodic reconciles only. Default true. */
  readonly watch?: boolean;
  /** More directories than this and the daemon falls back to periodic reconciles (default MAX_WATCHED_DIRECTORIES). */
  readonly maxWatchedDirectories?: number;
  /** Nice value to run at (default 10); false leaves the priority alone (in-process use). */
  readonly priority?: number | false;
  /** Stop on SIGTERM/SIGINT and exit the process once replies are flushed. Default true. */
  readonly handleSignals?: boolean;
  readonly log?: (line: string) => void;
  /**
   * For tests only: the version this daemon claims (default TRUFFLEPIG_VERSION), to stand
   * for a daemon of another release. It is what replies carry and requests must match.
   */
  readonly version?: string;
}

export type ExitReason = 'stopped' | 'stop_request' | 'signal' | 'root_gone' | 'lock_lost';

export interface RunningDaemon {
  readonly pid: number;
  readonly socketPath: string;
  readonly root: string;
  readonly cacheDir: string;
  status(): DaemonStatus;
  /** Stop serving, remove socket and lock, let in-flight requests finish (≤ 2 s), wait for a running reconcile. */
  stop(): Promise<void>;
  /** Resolves once the daemon has stopped, with why. */
  readonly done: Promise<ExitReason>;
}

function defaultReconcile(root: string, cacheDir: string): () => Promise<unknown> {
  // Loaded lazily: clients import this package on their fast path and must not pay for the index.
  return async () => {
    const index = require('@trufflepig/index') as typeof import('@trufflepig/index');
    return index.reconcile(root, { cacheDir });
  };
}

function defaultLog(line: string): void {
  process.stderr.write(`${new Date().toISOString()} trufflepig daemon ${process.pid}: ${line}\n`);
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

/** Start serving `root` in this process. Answers `daemon_running` (with its pid) when another daemon holds the root. */
export async function serveRoot(opts: RootDaemonOptions): Promise<{ ok: true; daemon: RunningDaemon } | Failure> {
  const root = path.resolve(opts.root);
  const cacheDir = path.resolve(opts.cacheDir);
  let rootId: fs.Stats;
  try {
    rootId = fs.statSync(root);
    if (!rootId.isDirectory()) return failure('root_not_found', `${root} is not a directory; pass an existing root`);
  } catch {
    return failure('root_not_found', `${root} does not exist; pass an existing root`);
  }
  try {
    makeDirectories(cacheDir);
  } catch (err) {
    return failure(
      'cache_unwritable',
      `cannot create ${cacheDir} (${errorText(err)}); pass a writable --cache directory`,
    );
  }
  const socketPath = socketPathFor(cacheDir);
  const dirProblem = checkSocketDirectory(socketPath, true);
  if (dirProblem) return dirProblem;
  let taken: ReturnType<typeof acquireDaemonLock>;
  try {
    taken = acquireDaemonLock(cacheDir);
  } catch (err) {
    return failure(
      'cache_unwritable',
      `cannot create the daemon lock in ${cacheDir} (${errorText(err)}); check its permissions`,
    );
  }
  if (!taken.ok) {
    return failure(
      'daemon_running',
      `a daemon (pid ${taken.heldBy}) already serves ${root}; talk to it on ${socketPath}, or stop it first`,
      taken.heldBy,
    );
  }
  const lock = taken.lock;
  // Only the lock holder gets here, so a socket file left by a dead daemon is ours to replace.
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
  return { ok: true, daemon: new Daemon(opts, root, cacheDir, socketPath, rootId, lock, server).start() };
}

class Daemon implements RunningDaemon {
  readonly pid = process.pid;
  readonly version: string;
  readonly done: Promise<ExitReason>;
  private finish!: (reason: ExitReason) => void;
  private readonly startedAt = Date.now();
  private readonly scheduler: ReconcileScheduler;
  private readonly connections = new Set<Connection>();
  private readonly log: (line: string) => void;
  private watcher?: TreeWatcher;
  private watcherState: WatcherState = { state: 'off' };
  private rootTimer?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  private served = 0;
  private lastEventRootCheck = 0;
  private readonly signalHandler = (signal: NodeJS.Signals) => this.onSignal(signal);

  constructor(
    private readonly opts: RootDaemonOptions,
    readonly root: string,
    readonly cacheDir: string,
    readonly socketPath: string,
    private readonly rootId: fs.Stats,
    private readonly lock: DaemonLock,
    private readonly server: net.Server,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.log = opts.log ?? defaultLog;
    this.version = opts.version ?? TRUFFLEPIG_VERSION;
    this.scheduler = new ReconcileScheduler({
      reconcile: opts.reconcile ?? defaultReconcile(root, cacheDir),
      quietMs: opts.quietMs ?? DEFAULT_QUIET_MS,
      maxDebounceMs: opts.maxDebounceMs ?? DEFAULT_MAX_DEBOUNCE_MS,
      periodicMs: () =>
        this.watcherState.state === 'watching'
          ? (opts.periodicWithWatcherMs ?? PERIODIC_WITH_WATCHER_MS)
          : (opts.periodicWithoutWatcherMs ?? PERIODIC_WITHOUT_WATCHER_MS),
      onRun: (run) => this.onRun(run),
    });
  }

  start(): this {
    if (this.opts.priority !== false) {
      try {
        os.setPriority(this.opts.priority ?? DAEMON_NICE);
      } catch {
        // not permitted here: run at the current priority
      }
    }
    this.server.on('connection', (socket) => this.accept(socket));
    if (this.opts.handleSignals !== false) {
      process.on('SIGTERM', this.signalHandler);
      process.on('SIGINT', this.signalHandler);
    }
    this.startWatcher();
    this.rootTimer = setInterval(() => this.checkRoot(), this.opts.rootCheckMs ?? ROOT_CHECK_MS);
    this.rootTimer.unref();
    this.log(
      `serving ${this.root} on ${this.socketPath} (version ${this.version}, watcher ${this.watcherState.state})`,
    );
    void this.scheduler.request('start');
    return this;
  }

  status(): DaemonStatus {
    return describeStatus({
      pid: this.pid,
      version: this.version,
      root: this.root,
      cacheDir: this.cacheDir,
      socketPath: this.socketPath,
      startedAt: this.startedAt,
      scheduler: this.scheduler.snapshot,
      watcher: { ...this.watcherState, directories: this.watcher?.directories ?? 0 },
      periodicMs: this.currentPeriodicMs(),
      served: this.served,
      inFlight: [...this.connections].reduce((n, c) => n + c.busy, 0),
    });
  }

  stop(): Promise<void> {
    return this.shutdown('stopped');
  }

  private currentPeriodicMs(): number {
    return this.watcherState.state === 'watching'
      ? (this.opts.periodicWithWatcherMs ?? PERIODIC_WITH_WATCHER_MS)
      : (this.opts.periodicWithoutWatcherMs ?? PERIODIC_WITHOUT_WATCHER_MS);
  }

  private startWatcher(): void {
    if (this.opts.watch === false) return;
    const watcher = new TreeWatcher(
      this.root,
      {
        onChange: () => {
          // A deleted root shows up as events first: check at once, but not on every event of a burst.
          const now = Date.now();
          if (now - this.lastEventRootCheck >= 50) {
            this.lastEventRootCheck = now;
            if (!this.checkRoot()) return;
          }
          this.scheduler.noteChange();
        },
        onFailure: (reason) => this.watcherFailed(reason),
      },
      this.opts.maxWatchedDirectories,
    );
    const failed = watcher.start();
    if (failed) {
      this.watcherState = { state: 'failed', reason: failed };
      this.log(`no file watcher (${failed}); reconciling every ${this.currentPeriodicMs()} ms`);
      return;
    }
    this.watcher = watcher;
    this.watcherState = { state: 'watching' };
  }

  /** Events may have been lost: reconcile everything now and fall back to the shorter periodic schedule. */
  private watcherFailed(reason: string): void {
    this.watcher = undefined;
    this.watcherState = { state: 'failed', reason };
    this.log(`file watcher failed (${reason}); full reconcile, then every ${this.currentPeriodicMs()} ms`);
    void this.scheduler.request('watcher_failed');
    this.scheduler.reschedulePeriodic();
  }

  private onRun(run: ReconcileRun): void {
    const r = run.result as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
    if (run.thrown !== undefined) this.log(`reconcile (${run.reason}) threw after ${run.durationMs} ms: ${run.thrown}`);
    else if (r?.ok === false)
      this.log(
        `reconcile (${run.reason}) failed after ${run.durationMs} ms: ${String(r.error?.code)}: ${String(r.error?.message)}`,
      );
    try {
      this.opts.onReconciled?.(run);
    } catch (err) {
      this.log(`onReconciled threw: ${errorText(err)}`);
    }
  }

  /** True while the root (the same directory) and our lock still exist; otherwise stops the daemon. */
  private checkRoot(): boolean {
    if (this.stopping) return false;
    if (!this.lock.stillHeld()) {
      this.log('the daemon lock is gone or taken (cache removed?); exiting');
      void this.shutdown('lock_lost');
      return false;
    }
    try {
      const st = fs.statSync(this.root);
      if (st.isDirectory() && st.ino === this.rootId.ino && st.dev === this.rootId.dev) return true;
    } catch {
      // gone
    }
    this.log(`root ${this.root} is gone; exiting`);
    void this.shutdown('root_gone');
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
          stdout: JSON.stringify({ pid: this.pid, root: this.root, version: this.version }),
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
    const ctx: RequestContext = {
      root: this.root,
      cacheDir: this.cacheDir,
      reconcileNow: () => this.scheduler.request('request'),
    };
    try {
      const out = await this.opts.handler(req, ctx);
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
    // Exit once replies are flushed; a running reconcile is abandoned (publication is crash-safe).
    void this.shutdown('signal', false).then(() => process.exit(0));
  }

  private shutdown(reason: ExitReason, waitForReconcile = true): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      if (this.rootTimer) clearInterval(this.rootTimer);
      this.watcher?.close();
      process.off('SIGTERM', this.signalHandler);
      process.off('SIGINT', this.signalHandler);
      this.server.close();
      // A lost lock means another daemon may own these paths now: leave them alone.
      if (reason !== 'lock_lost') {
        try {
          fs.unlinkSync(this.socketPath);
        } catch {
          // already gone
        }
      }
      this.lock.release();
      this.log(`stopping (${reason})`);
      const drained = Promise.all([...this.connections].map((c) => c.drained()));
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
      for (const c of this.connections) c.destroy();
      const reconciled = this.scheduler.stop();
      if (waitForReconcile) await reconciled;
      this.finish(reason);
    })();
    return this.stopping;
  }
}
