// When a daemon reconciles: at start, after watch events settle, periodically, and on
// request; never two at once (a request during a run becomes one follow-up run).
import { errorText } from './errors';
import { LOCKED_RETRY_MS } from './limits';

export type ReconcileReason =
  'start' | 'watch' | 'periodic' | 'request' | 'watcher_failed' | 'locked_retry' | 'follow_up';

/** One finished reconcile: the reconcile function's result, or what it threw. */
export interface ReconcileRun {
  readonly reason: ReconcileReason;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly result?: unknown;
  readonly thrown?: string;
}

export interface SchedulerOptions {
  readonly reconcile: () => Promise<unknown>;
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

  constructor(private readonly options: SchedulerOptions) {}

  get snapshot(): SchedulerState {
    return { ...this.state, running: this.running, followUpQueued: this.followUp !== undefined };
  }

  /** Reconcile now, or right after the running reconcile; resolves with a run that started after this call. */
  request(reason: ReconcileReason): Promise<ReconcileRun> {
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

  /** A watch event: reconcile once events are quiet for quietMs, at most maxDebounceMs after the first. */
  noteChange(): void {
    if (this.stopped) return;
    this.burstTimer ??= later(this.options.maxDebounceMs, () => this.flushChanges());
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = later(this.options.quietMs, () => this.flushChanges());
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
    let run: ReconcileRun;
    try {
      const result = await this.options.reconcile();
      run = { reason, startedAt, durationMs: Date.now() - startedAt, result };
    } catch (err) {
      run = { reason, startedAt, durationMs: Date.now() - startedAt, thrown: errorText(err) };
    }
    this.running = false;
    const generation = generationOf(run.result);
    this.state = { runs: this.state.runs + 1, last: run, generation: generation ?? this.state.generation };
    try {
      this.options.onRun?.(run);
    } catch {
      // an observer's failure is not the reconcile's
    }
    for (const w of waiters) w(run);
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
