// Starting, stopping and asking a root's daemon from the full (non-fast) path.
import * as path from 'node:path';
import { daemonStatus, sendRequest, startDetachedDaemon, stopDaemon, type OptionValue } from '@trufflepig/runtime';
import { resolveContext, type ContextOptions, type MemberTarget, type WorkspaceContext } from './context';
import { fail, ok, type Outcome } from './errors';

/**
 * Daemons are long-lived and allocate from worker threads (reconciles): glibc's default of
 * one malloc arena per thread keeps their freed memory as RSS. Two arenas (set before the
 * spawn, read by the child's allocator at start) keep an idle daemon small.
 */
function startDaemon(script: string, args: readonly string[], cacheDir: string): ReturnType<typeof startDetachedDaemon> {
  process.env.MALLOC_ARENA_MAX ??= '2';
  return startDetachedDaemon(script, args, cacheDir);
}

/** The compiled daemon entries (absent when running from TypeScript sources). */
const DAEMON_SCRIPT = path.join(__dirname, 'daemon-main.js');
const COORDINATOR_SCRIPT = path.join(__dirname, 'coordinator-main.js');

/** The single root a call addresses, when it addresses one (daemons serve single roots; workspaces run in the client). */
export function singleRootOf(opts: ContextOptions): Outcome<{ root: string; cacheDir: string }> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return ctx;
  if (ctx.value.kind !== 'single') return fail('workspace_selected', 'a workspace is selected here; its members are served in this process (no workspace coordinator yet)');
  return ok({ root: ctx.value.root.root, cacheDir: ctx.value.root.cacheDir });
}

/** Start the root's daemon unless one runs; resolves once it answers (or failed to start). */
export async function ensureRootDaemon(opts: ContextOptions): Promise<Outcome<{ pid: number; started: boolean; readyMs: number }>> {
  const target = singleRootOf(opts);
  if (!target.ok) return target;
  const started = await startDaemon(DAEMON_SCRIPT, [target.value.root, target.value.cacheDir], target.value.cacheDir);
  if (!started.ok) return fail(started.code, started.message);
  return ok({ pid: started.pid, started: !started.alreadyRunning, readyMs: started.readyMs });
}

export async function stopRootDaemon(opts: ContextOptions): Promise<Outcome<{ pid: number } | { running: false }>> {
  const target = singleRootOf(opts);
  if (!target.ok) return target;
  const stopped = await stopDaemon(target.value.cacheDir);
  if (stopped.ok) return ok({ pid: stopped.pid });
  return stopped.code === 'no_daemon' ? ok({ running: false }) : fail(stopped.code, stopped.message);
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
  await Promise.all(members.filter((m) => m.available).map((m) =>
    startDaemon(DAEMON_SCRIPT, [m.root, m.cacheDir, ...(m.parentCacheDir ? [m.parentCacheDir] : [])], m.cacheDir)));
}

/** The coordinator's state directory (its socket and lock): beside the workspace's result sets. */
export function coordinatorDir(ws: WorkspaceContext): string {
  return path.dirname(ws.resultsDir);
}

export async function ensureCoordinator(ws: WorkspaceContext): Promise<Outcome<{ pid: number }>> {
  const started = await startDaemon(COORDINATOR_SCRIPT, [ws.config.file, coordinatorDir(ws)], coordinatorDir(ws));
  return started.ok ? ok({ pid: started.pid }) : fail(started.code, started.message);
}

/** Ask the workspace's coordinator; undefined when it cannot answer (the caller answers locally). */
export async function askCoordinator(ws: WorkspaceContext, verb: string, args: readonly string[], options: Record<string, OptionValue>, cwd: string): Promise<{ stdout: string; stderr: string; exitCode: number } | undefined> {
  const sent = await sendRequest(coordinatorDir(ws), { verb, args: [...args], options: { ...options, workspace: ws.config.file }, cwd });
  if (!sent.ok || (sent.reply.error && sent.reply.error.code !== 'handler_failed')) return undefined;
  return { stdout: sent.reply.stdout, stderr: sent.reply.stderr, exitCode: sent.reply.exitCode };
}

export async function stopCoordinator(ws: WorkspaceContext): Promise<Outcome<{ pid: number } | { running: false }>> {
  const stopped = await stopDaemon(coordinatorDir(ws));
  if (stopped.ok) return ok({ pid: stopped.pid });
  return stopped.code === 'no_daemon' ? ok({ running: false }) : fail(stopped.code, stopped.message);
}

/**
 * A read verb through the daemons (default mode): a single root's daemon, or the
 * workspace's coordinator, each started when missing. Undefined when neither can answer:
 * the caller then answers in its own process.
 */
export async function serveThroughDaemons(verb: string, args: readonly string[], opts: ContextOptions, options: Record<string, OptionValue>): Promise<{ stdout: string; stderr: string; exitCode: number } | undefined> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return undefined;
  const cwd = opts.cwd ?? process.cwd();
  if (ctx.value.kind === 'workspace') {
    const started = await ensureCoordinator(ctx.value.ws);
    return started.ok ? askCoordinator(ctx.value.ws, verb, args, options, cwd) : undefined;
  }
  const r = ctx.value.root;
  const started = await startDaemon(DAEMON_SCRIPT, [r.root, r.cacheDir], r.cacheDir);
  if (!started.ok) return undefined;
  const sent = await sendRequest(r.cacheDir, { verb, args: [...args], options, cwd });
  if (!sent.ok || (sent.reply.error && sent.reply.error.code !== 'handler_failed')) return undefined;
  return { stdout: sent.reply.stdout, stderr: sent.reply.stderr, exitCode: sent.reply.exitCode };
}

/** `stop`: the root's daemon, or in a workspace only its coordinator. */
export async function stopDaemons(opts: ContextOptions): Promise<Outcome<{ stopped: number | null; what: 'root daemon' | 'workspace coordinator' }>> {
  const ctx = resolveContext(opts);
  if (!ctx.ok) return ctx;
  const dir = ctx.value.kind === 'workspace' ? coordinatorDir(ctx.value.ws) : ctx.value.root.cacheDir;
  const what = ctx.value.kind === 'workspace' ? 'workspace coordinator' : 'root daemon';
  const stopped = await stopDaemon(dir);
  if (stopped.ok) return ok({ stopped: stopped.pid, what });
  return stopped.code === 'no_daemon' ? ok({ stopped: null, what }) : fail(stopped.code, stopped.message);
}
