// Starting, stopping and asking a root's daemon from the full (non-fast) path.
import * as path from 'node:path';
import { daemonStatus, startDetachedDaemon, stopDaemon, type OptionValue } from '@trufflepig/runtime';
import { queryDaemon, type FastResult } from './fast-client';
import { resolveContext, type ContextOptions, type MemberTarget, type WorkspaceContext } from '../../core/context';
import { fail, ok, type Outcome } from '../../core/errors';

/**
 * Daemons are long-lived and allocate from worker threads (reconciles): glibc's default of
 * one malloc arena per thread keeps their freed memory as RSS. Two arenas (set before the
 * spawn, read by the child's allocator at start) keep an idle daemon small.
 */
function startDaemon(
  script: string,
  args: readonly string[],
  cacheDir: string,
): ReturnType<typeof startDetachedDaemon> {
  process.env.MALLOC_ARENA_MAX ??= '2';
  return startDetachedDaemon(script, args, cacheDir);
}

/** The compiled daemon entries (absent when running from TypeScript sources). */
const DAEMON_SCRIPT = path.join(__dirname, '..', 'host', 'daemon-main.js');
const COORDINATOR_SCRIPT = path.join(__dirname, '..', 'host', 'coordinator-main.js');

/** The single root a call addresses, when it addresses one (daemons serve single roots; workspaces run in the client). */
export function singleRootOf(opts: ContextOptions): Outcome<{ root: string; cacheDir: string }> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return ctx;
  if (ctx.value.kind !== 'single')
    return fail(
      'workspace_selected',
      "a workspace is selected here, and serve runs one root's daemon: pass --no-workspace (with --root DIR for another root); a workspace read starts its coordinator and member daemons by itself",
    );
  return ok({ root: ctx.value.root.root, cacheDir: ctx.value.root.cacheDir });
}

export async function rootDaemonStatus(cacheDir: string): Promise<Record<string, unknown> | 'none'> {
  const st = await daemonStatus(cacheDir, { timeoutMs: 2_000 });
  return st.ok ? (st.status as unknown as Record<string, unknown>) : 'none';
}

/**
 * Start the daemons of members that have none (the coordinator's demand start). Running
 * daemons are only pinged, never asked to reconcile: their own watchers keep them fresh.
 */
export async function ensureMemberDaemons(members: readonly MemberTarget[]): Promise<void> {
  await Promise.all(
    members
      .filter((m) => m.available)
      .map((m) =>
        startDaemon(DAEMON_SCRIPT, [m.root, m.cacheDir, ...(m.parentCacheDir ? [m.parentCacheDir] : [])], m.cacheDir),
      ),
  );
}

/** The coordinator's state directory (its socket and lock): beside the workspace's result sets. */
export function coordinatorDir(ws: WorkspaceContext): string {
  return path.dirname(ws.resultsDir);
}

export async function ensureCoordinator(
  ws: WorkspaceContext,
): Promise<Outcome<{ pid: number; alreadyRunning: boolean }>> {
  const started = await startDaemon(COORDINATOR_SCRIPT, [ws.config.file, coordinatorDir(ws)], coordinatorDir(ws));
  return started.ok
    ? ok({ pid: started.pid, alreadyRunning: started.alreadyRunning })
    : fail(started.code, started.message);
}

/**
 * Ask the daemon of `stateDir`, started by `start` when none of this version runs. A
 * daemon of another version (one that slipped in after the start, e.g. restarted by an
 * older client) gets one more start, which replaces an older one, then one more ask.
 * Undefined when no daemon of this version answers: a newer one holds the root
 * (start answers version_mismatch), or it cannot start.
 */
type Started = { ok: true; alreadyRunning: boolean } | { ok: false };

async function askStarted(
  start: () => Promise<Started>,
  stateDir: string,
  verb: string,
  args: readonly string[],
  options: Record<string, OptionValue>,
  cwd: string,
  onStarted?: (stateDir: string) => void,
): Promise<FastResult | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = await start();
    if (!started.ok) return undefined;
    if (!started.alreadyRunning) onStarted?.(stateDir);
    const answer = await queryDaemon(stateDir, verb, args, options, cwd);
    if (answer.kind !== 'other_version') return answer.kind === 'answer' ? answer.result : undefined;
  }
  return undefined;
}

/**
 * A read verb through the daemons (default mode): a single root's daemon, or the
 * workspace's coordinator, each started when missing and replaced when older than this
 * client (version handshake, runtime README). Undefined when neither can answer: the
 * caller then answers in its own process. The answer's `json` is passed through.
 */
export async function serveThroughDaemons(
  verb: string,
  args: readonly string[],
  opts: ContextOptions,
  options: Record<string, OptionValue>,
  /** Told the state directory of each daemon or coordinator this call started (not one it found running). */
  onStarted?: (stateDir: string) => void,
): Promise<FastResult | undefined> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return undefined;
  const cwd = opts.cwd ?? process.cwd();
  if (ctx.value.kind === 'workspace') {
    const ws = ctx.value.ws;
    const start = async (): Promise<Started> => {
      const c = await ensureCoordinator(ws);
      return c.ok ? { ok: true, alreadyRunning: c.value.alreadyRunning } : { ok: false };
    };
    return askStarted(start, coordinatorDir(ws), verb, args, { ...options, workspace: ws.config.file }, cwd, onStarted);
  }
  const r = ctx.value.root;
  const start = async (): Promise<Started> => {
    const d = await startDaemon(DAEMON_SCRIPT, [r.root, r.cacheDir], r.cacheDir);
    return d.ok ? { ok: true, alreadyRunning: d.alreadyRunning } : { ok: false };
  };
  return askStarted(start, r.cacheDir, verb, args, options, cwd, onStarted);
}

/** Stop the daemon or coordinator whose state lives in `stateDir`, if one runs there. */
export async function stopDaemonIn(stateDir: string): Promise<void> {
  await stopDaemon(stateDir);
}

/** `stop`: the root's daemon, or in a workspace only its coordinator. */
export async function stopDaemons(
  opts: ContextOptions,
): Promise<Outcome<{ stopped: number | null; what: 'root daemon' | 'workspace coordinator' }>> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return ctx;
  const dir = ctx.value.kind === 'workspace' ? coordinatorDir(ctx.value.ws) : ctx.value.root.cacheDir;
  const what = ctx.value.kind === 'workspace' ? 'workspace coordinator' : 'root daemon';
  const stopped = await stopDaemon(dir);
  if (stopped.ok) return ok({ stopped: stopped.pid, what });
  return stopped.code === 'no_daemon' ? ok({ stopped: null, what }) : fail(stopped.code, stopped.message);
}
