// When a daemon reconciles: at start, after watch events settle, periodically, and on
// request; never two at once (a request during a run becomes one follow-up run).
import { errorText } from './errors';
import { LOCKED_RETRY_MS, MAX_PENDING_CHANGED_PATHS } from './limits';

export type ReconcileReason =
  'start' | 'watch' | 'periodic' | 'request' | 'watcher_failed' | 'locked_retry' | 'follow_up';

/** One finished reconcile: the reconcile function's result, or what it threw. */
export interface ReconcileRun {
  readonly reason: ReconcileReason;
  /** How many changed paths the run was given; absent when it was to reconcile the whole root. */
  readonly changed?: number;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly result?: unknown;
  readonly thrown?: string;
}

export interface SchedulerOptions {
  /**
   * Reconcile the root: `changed` names the root-relative paths watch events reported since
   * the previous reconcile started, when that is all that can have changed; undefined means
   * anything may have (start, periodic, a request, lost or unnamed events, a failed run).
   */
  readonly reconcile: (changed?: readonly string[]) => Promise<unknown>;
  readonly quietMs: number;
  readonly maxDebounceMs: number;
  /** The periodic interval now (it depends on whether the watcher works). */
  readonly periodicMs: () => number;
  readonly onRun?: (run: ReconcileRun) => void;
}

export interface SchedulerState {
  readonly runs: number;
  readonly running: boolean;
  readonly followUpQueued: boolean;
  readonly last?: ReconcileRun;
  /** Newest published generation reported by a reconcile result (`{ ok: true, value: { generation } }`). */
  readonly generation?: number;
}

/** `{ ok: true, ... }`: the reconcile settled what it was given. */
function isOkResult(result: unknown): boolean {
  return (result as { ok?: unknown } | null | undefined)?.ok === true;
}

/** `{ ok: false, error: { code: 'index_locked' } }`: another writer holds the index. */
function isLockedResult(result: unknown): boolean {
  const r = result as { ok?: unknown; error?: { code?: unknown } } | null | undefined;
  return r?.ok === false && r.error?.code === 'index_locked';
}

function generationOf(result: unknown): number | undefined {
  const r = result as { ok?: unknown; value?: { generation?: unknown } } | null | undefined;
  return r?.ok === true && typeof r.value?.generation === 'number' ? r.value.generation : undefined;
}

function later(ms: number, fn: () => void): NodeJS.Timeout {
  const t = setTimeout(fn, ms);
  t.unref();
  return t;
}

export class ReconcileScheduler {
  private running = false;
  private followUp: ((run: ReconcileRun) => void)[] | undefined;
  private quietTimer?: NodeJS.Timeout;
  private burstTimer?: NodeJS.Timeout;
  private periodicTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  private state: { runs: number; last?: ReconcileRun; generation?: number } = { runs: 0 };
  /** Paths watch events named since the last run started; 'root' once one was unnamed or they are too many. */
  private changes: Set<string> | 'root' = new Set();
  /** A run for another reason than watch events was asked for since the last run started. */
  private wholeRequested = false;
  /** Watch events noted so far; a run covers every event noted before it started. */
  private noted = 0;
  /** Events covered by the running run, and by the newest finished one. */
  private coveredByRunning = 0;
  private covered = 0;
  /** settleNoted() callers, each waiting for a finished run that covers `through`. */
  private settleWaiters: { through: number; resolve: () => void }[] = [];

  constructor(private readonly options: SchedulerOptions) {}

  get snapshot(): SchedulerState {
    return { ...this.state, running: this.running, followUpQueued: this.followUp !== undefined };
  }

  /** Reconcile now, or right after the running reconcile; resolves with a run that started after this call. */
  request(reason: ReconcileReason): Promise<ReconcileRun> {
    if (reason !== 'watch') this.wholeRequested = true;
    return new Promise((resolve) => {
      if (this.stopped) {
        resolve({ reason, startedAt: Date.now(), durationMs: 0, thrown: 'the daemon is stopping' });
      } else if (this.running) {
        (this.followUp ??= []).push(resolve);
      } else {
        void this.run(reason, [resolve]);
      }
    });
  }

  /**
   * A watch event at `path` (root-relative; '' when the watcher could not say where):
   * reconcile once events are quiet for quietMs, at most maxDebounceMs after the first.
   */
  noteChange(path = ''): void {
    if (this.stopped) return;
    this.noted++;
    if (this.changes !== 'root') {
      if (path === '' || this.changes.size >= MAX_PENDING_CHANGED_PATHS) this.changes = 'root';
      else this.changes.add(path);
    }
    this.burstTimer ??= later(this.options.maxDebounceMs, () => this.flushChanges());
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = later(this.options.quietMs, () => this.flushChanges());
  }

  /**
   * Resolves once every watch event noted before this call is reconciled (the run covering it
   * finished, whatever its result), starting that run now rather than after the quiet period;
   * at once when nothing noted waits, or when events were too many or unnamed (the next run
   * walks the whole root: not worth a reader's wait). Read-your-own-writes for a request.
   */
  settleNoted(): Promise<void> {
    const through = this.noted;
    if (this.stopped || through <= this.covered || this.changes === 'root') return Promise.resolve();
    const settled = new Promise<void>((resolve) => this.settleWaiters.push({ through, resolve }));
    if (!(this.running && this.coveredByRunning >= through)) this.flushChanges();
    return settled;
  }

  /** Restart the periodic countdown (after a run, or when the interval changed). */
  reschedulePeriodic(): void {
    if (this.periodicTimer) clearTimeout(this.periodicTimer);
    if (!this.stopped && !this.running)
      this.periodicTimer = later(this.options.periodicMs(), () => void this.request('periodic'));
  }

  /** Stop scheduling; resolves when no reconcile is running. */
  stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.quietTimer, this.burstTimer, this.periodicTimer, this.retryTimer]) if (t) clearTimeout(t);
    const waiting = this.followUp ?? [];
    this.followUp = undefined;
    for (const w of this.settleWaiters.splice(0)) w.resolve();
    for (const w of waiting)
      w({ reason: 'follow_up', startedAt: Date.now(), durationMs: 0, thrown: 'the daemon is stopping' });
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private flushChanges(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    if (this.burstTimer) clearTimeout(this.burstTimer);
    this.quietTimer = this.burstTimer = undefined;
    void this.request('watch');
  }

  private async run(reason: ReconcileReason, waiters: ((run: ReconcileRun) => void)[]): Promise<void> {
    this.running = true;
    if (this.periodicTimer) clearTimeout(this.periodicTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const startedAt = Date.now();
    // Events that arrive from here on are the next run's.
    const covers = (this.coveredByRunning = this.noted);
    const changed =
      this.wholeRequested || this.changes === 'root' || this.changes.size === 0 ? undefined : [...this.changes];
    this.changes = new Set();
    this.wholeRequested = false;
    const given = changed ? { changed: changed.length } : {};
    let run: ReconcileRun;
    try {
      const result = await this.options.reconcile(changed);
      run = { reason, ...given, startedAt, durationMs: Date.now() - startedAt, result };
    } catch (err) {
      run = { reason, ...given, startedAt, durationMs: Date.now() - startedAt, thrown: errorText(err) };
    }
    this.running = false;
    this.covered = Math.max(this.covered, covers);
    // What a failed run was given is not settled: the next run walks the whole root.
    if (!isOkResult(run.result)) this.changes = 'root';
    const generation = generationOf(run.result);
    this.state = { runs: this.state.runs + 1, last: run, generation: generation ?? this.state.generation };
    try {
      this.options.onRun?.(run);
    } catch {
      // an observer's failure is not the reconcile's
    }
    for (const w of waiters) w(run);
    const unsettled: typeof this.settleWaiters = [];
    for (const w of this.settleWaiters) {
      if (w.through <= this.covered) w.resolve();
      else unsettled.push(w);
    }
    this.settleWaiters = unsettled;
    if (this.stopped) {
      for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    const next = this.followUp;
    if (next) {
      this.followUp = undefined;
      void this.run('follow_up', next);
      return;
    }
    if (isLockedResult(run.result)) this.retryTimer = later(LOCKED_RETRY_MS, () => void this.request('locked_retry'));
    this.reschedulePeriodic();
  }
}
