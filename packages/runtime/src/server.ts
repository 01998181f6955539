// The per-root daemon: one per canonical root, behind the root's daemon lock, serving
// length-prefixed JSON requests on the root's socket and keeping the index reconciled.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorText, failure, type Failure } from './errors';
import {
  DAEMON_NICE,
  DEFAULT_MAX_DEBOUNCE_MS,
  DEFAULT_QUIET_MS,
  FRESH_READ_WAIT_MS,
  PERIODIC_WITH_WATCHER_MS,
  PERIODIC_WITHOUT_WATCHER_MS,
} from './limits';
import type { DaemonRequest } from './protocol';
import { ReconcileScheduler, type ReconcileRun } from './scheduler';
import {
  holdService,
  ServedProcess,
  type ExitReason,
  type HandlerAnswer,
  type HeldService,
  type ServiceLoad,
  type ServiceOptions,
} from './service';
import { describeStatus, type DaemonStatus, type WatcherState } from './status';
import { TreeWatcher } from './watch';

export type { ExitReason } from './service';

/** What a request handler may ask of the daemon serving it. */
export interface RequestContext {
  readonly root: string;
  readonly cacheDir: string;
  /** Reconcile through the daemon's own schedule (never a competing writer); resolves with a run that started after the call. */
  reconcileNow(): Promise<ReconcileRun>;
  /**
   * Read-your-own-writes: resolves once the watch events noted before the call are
   * reconciled, that run started now rather than after the quiet period; at the latest after
   * `freshReadWaitMs`, and at once when nothing noted waits or the events call for a
   * whole-root reconcile. A read verb awaits it so that a search right after a save sees it.
   */
  settleNoted(): Promise<void>;
  /**
   * Resolves true once the daemon's first reconcile (the one it starts with: a root's first
   * index when it has none) has ended, false if it is still running `ms` later. A read
   * that finds no published index waits on it instead of answering `index_warming` at once.
   */
  firstReconcileWithin(ms: number): Promise<boolean>;
}

/** What a handler answers; `json` (a string) is passed on to the client, anything else in it is ignored. */
export type RequestHandler = (req: DaemonRequest, ctx: RequestContext) => Promise<HandlerAnswer>;

export interface RootDaemonOptions extends Omit<ServiceOptions, 'checkMs'> {
  readonly root: string;
  readonly cacheDir: string;
  readonly handler: RequestHandler;
  /**
   * Reconcile the root, or only the `changed` paths when watch events named all that changed
   * (SchedulerOptions.reconcile); never called twice at once. Default: @trufflepig/index
   * reconcile(root, { cacheDir, changed }), loaded on first use.
   */
  readonly reconcile?: (changed?: readonly string[]) => Promise<unknown>;
  /** Called after every reconcile (e.g. to reopen a warm index reader on a new generation). */
  readonly onReconciled?: (run: ReconcileRun) => void;
  readonly quietMs?: number;
  readonly maxDebounceMs?: number;
  /** Longest wait of a request for the watch events noted before it to be reconciled (default FRESH_READ_WAIT_MS; 0: none). */
  readonly freshReadWaitMs?: number;
  readonly periodicWithWatcherMs?: number;
  readonly periodicWithoutWatcherMs?: number;
  /** How often the root (and the lock) are checked (default ROOT_CHECK_MS). */
  readonly rootCheckMs?: number;
  /** false: no file watcher, periodic reconciles only. Default true. */
  readonly watch?: boolean;
  /** More directories than this and the daemon falls back to periodic reconciles (default MAX_WATCHED_DIRECTORIES). */
  readonly maxWatchedDirectories?: number;
  /** Nice value to run at (default 10); false leaves the priority alone (in-process use). */
  readonly priority?: number | false;
}

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

function defaultReconcile(root: string, cacheDir: string): (changed?: readonly string[]) => Promise<unknown> {
  // Loaded lazily: clients import this package on their fast path and must not pay for the index.
  return async (changed) => {
    const index = require('@trufflepig/index') as typeof import('@trufflepig/index');
    return index.reconcile(root, { cacheDir, ...(changed ? { changed } : {}) });
  };
}

function defaultLog(line: string): void {
  process.stderr.write(`${new Date().toISOString()} trufflepig daemon ${process.pid}: ${line}\n`);
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
  const held = await holdService(cacheDir, root);
  if (!held.ok) return held;
  return { ok: true, daemon: new Daemon(opts, root, cacheDir, rootId, held.held).start() };
}

/** `settled`, or `ms` later, whichever comes first. */
function settledWithin(settled: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}

/** Whether `run` (absent: none was started) has ended within `ms`. */
async function endedWithin(run: Promise<unknown> | undefined, ms: number): Promise<boolean> {
  if (run === undefined) return true;
  let ended = false;
  await settledWithin(
    run.then(() => {
      ended = true;
    }),
    ms,
  );
  return ended;
}

class Daemon extends ServedProcess<DaemonStatus> implements RunningDaemon {
  private readonly scheduler: ReconcileScheduler;
  private readonly log: (line: string) => void;
  private watcher?: TreeWatcher;
  private watcherState: WatcherState = { state: 'off' };
  private lastEventRootCheck = 0;
  /** The reconcile the daemon starts with (RequestContext.firstReconcileWithin). */
  private firstRun?: Promise<ReconcileRun>;

  constructor(
    private readonly opts: RootDaemonOptions,
    readonly root: string,
    readonly cacheDir: string,
    private readonly rootId: fs.Stats,
    held: HeldService,
  ) {
    super(held, { ...opts, checkMs: opts.rootCheckMs }, defaultLog);
    this.log = this.service.log;
    this.scheduler = new ReconcileScheduler({
      reconcile: opts.reconcile ?? defaultReconcile(root, cacheDir),
      quietMs: opts.quietMs ?? DEFAULT_QUIET_MS,
      maxDebounceMs: opts.maxDebounceMs ?? DEFAULT_MAX_DEBOUNCE_MS,
      periodicMs: () => this.currentPeriodicMs(),
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
    this.service.start();
    this.startWatcher();
    this.log(
      `serving ${this.root} on ${this.socketPath} (version ${this.service.version}, watcher ${this.watcherState.state})`,
    );
    this.firstRun = this.scheduler.request('start');
    return this;
  }

  // ServiceRole: what the socket service asks of a root daemon.

  handle(req: DaemonRequest): Promise<HandlerAnswer> {
    const wait = this.opts.freshReadWaitMs ?? FRESH_READ_WAIT_MS;
    const ctx: RequestContext = {
      root: this.root,
      cacheDir: this.cacheDir,
      reconcileNow: () => this.scheduler.request('request'),
      settleNoted: () => (wait > 0 ? settledWithin(this.scheduler.settleNoted(), wait) : Promise.resolve()),
      firstReconcileWithin: (ms) => endedWithin(this.firstRun, ms),
    };
    return this.opts.handler(req, ctx);
  }

  identity(): Record<string, unknown> {
    return { root: this.root };
  }

  describe(load: ServiceLoad): DaemonStatus {
    return describeStatus({
      pid: this.pid,
      version: this.service.version,
      root: this.root,
      cacheDir: this.cacheDir,
      socketPath: this.socketPath,
      load,
      scheduler: this.scheduler.snapshot,
      watcher: { ...this.watcherState, directories: this.watcher?.directories ?? 0 },
      periodicMs: this.currentPeriodicMs(),
    });
  }

  /** The root (the same directory) is gone: stop. */
  gone(): ExitReason | undefined {
    try {
      const st = fs.statSync(this.root);
      if (st.isDirectory() && st.ino === this.rootId.ino && st.dev === this.rootId.dev) return undefined;
    } catch {
      // gone
    }
    this.log(`root ${this.root} is gone; exiting`);
    return 'root_gone';
  }

  halt(): void {
    this.watcher?.close();
  }

  async stopped(wait: boolean): Promise<void> {
    const reconciled = this.scheduler.stop();
    if (wait) await reconciled;
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
        onChange: (relative) => {
          // A deleted root shows up as events first: check at once, but not on every event of a burst.
          const now = Date.now();
          if (now - this.lastEventRootCheck >= 50) {
            this.lastEventRootCheck = now;
            if (!this.service.check()) return;
          }
          this.scheduler.noteChange(relative);
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
}
