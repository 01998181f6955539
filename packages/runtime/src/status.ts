// The `daemon.status` answer: what a daemon is doing, as plain JSON.
import type { ReconcileReason, SchedulerState } from './scheduler';
import type { ServiceLoad } from './service';

export type WatcherState =
  { readonly state: 'watching' | 'off' } | { readonly state: 'failed'; readonly reason: string };

export interface DaemonStatus {
  readonly pid: number;
  /** The daemon's TRUFFLEPIG_VERSION (a daemon that predates the handshake sends none). */
  readonly version?: string;
  readonly root: string;
  readonly cacheDir: string;
  readonly socketPath: string;
  /** ISO 8601 start time. */
  readonly startedAt: string;
  readonly uptimeMs: number;
  /** Newest generation a reconcile of this daemon reported publishing or finding, when known. */
  readonly generation?: number;
  readonly reconcile: {
    readonly runs: number;
    readonly running: boolean;
    readonly followUpQueued: boolean;
    readonly last?: {
      readonly reason: ReconcileReason;
      readonly startedAt: string;
      readonly durationMs: number;
      readonly ok: boolean;
      readonly error?: string;
      /** Changed paths the run was given (watch events); absent when it was to reconcile the whole root. */
      readonly changed?: number;
      /** What the reconcile walked, as it reported (`root` or `paths`), when it did. */
      readonly walk?: string;
    };
  };
  readonly watcher: {
    readonly state: 'watching' | 'off' | 'failed';
    readonly directories: number;
    readonly reason?: string;
  };
  /** Current periodic reconcile interval. */
  readonly periodicMs: number;
  readonly requests: { readonly served: number; readonly inFlight: number };
  readonly memory: { readonly rssBytes: number; readonly heapUsedBytes: number };
}

/** The `walk` a reconcile result (`{ ok: true, value: { walk } }`) reports. */
function walkOf(result: unknown): string | undefined {
  const r = result as { ok?: unknown; value?: { walk?: unknown } } | null | undefined;
  return r?.ok === true && typeof r.value?.walk === 'string' ? r.value.walk : undefined;
}

function failureOf(result: unknown, thrown: string | undefined): string | undefined {
  if (thrown !== undefined) return thrown;
  const r = result as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | null | undefined;
  if (r?.ok !== false) return undefined;
  return `${String(r.error?.code ?? 'failed')}: ${String(r.error?.message ?? '')}`.trim();
}

export function describeStatus(s: {
  pid: number;
  version: string;
  root: string;
  cacheDir: string;
  socketPath: string;
  load: ServiceLoad;
  scheduler: SchedulerState;
  watcher: WatcherState & { directories: number };
  periodicMs: number;
}): DaemonStatus {
  const last = s.scheduler.last;
  const error = last ? failureOf(last.result, last.thrown) : undefined;
  const walk = last ? walkOf(last.result) : undefined;
  return {
    pid: s.pid,
    version: s.version,
    root: s.root,
    cacheDir: s.cacheDir,
    socketPath: s.socketPath,
    startedAt: new Date(s.load.startedAt).toISOString(),
    uptimeMs: Date.now() - s.load.startedAt,
    ...(s.scheduler.generation !== undefined ? { generation: s.scheduler.generation } : {}),
    reconcile: {
      runs: s.scheduler.runs,
      running: s.scheduler.running,
      followUpQueued: s.scheduler.followUpQueued,
      ...(last
        ? {
            last: {
              reason: last.reason,
              startedAt: new Date(last.startedAt).toISOString(),
              durationMs: last.durationMs,
              ok: error === undefined,
              ...(error !== undefined ? { error } : {}),
              ...(last.changed !== undefined ? { changed: last.changed } : {}),
              ...(walk !== undefined ? { walk } : {}),
            },
          }
        : {}),
    },
    watcher: {
      state: s.watcher.state,
      directories: s.watcher.directories,
      ...(s.watcher.state === 'failed' ? { reason: s.watcher.reason } : {}),
    },
    periodicMs: s.periodicMs,
    requests: { served: s.load.served, inFlight: s.load.inFlight },
    memory: s.load.memory,
  };
}
