// Starting, stopping and asking a root's daemon from the full (non-fast) path.
import * as path from 'node:path';
import { daemonStatus, startDetachedDaemon, stopDaemon } from '@trufflepig/runtime';
import { resolveContext, type ContextOptions } from './context';
import { fail, ok, type Outcome } from './errors';

/** The compiled daemon entry (absent when running from TypeScript sources). */
const DAEMON_SCRIPT = path.join(__dirname, 'daemon-main.js');

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
  const started = await startDetachedDaemon(DAEMON_SCRIPT, [target.value.root, target.value.cacheDir], target.value.cacheDir);
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
