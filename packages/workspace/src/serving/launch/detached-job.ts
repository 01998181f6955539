// A job started detached from the process that asked for it (a background index, a history
// index build): started fire-and-forget, run at low priority, its outcome its exit code.
// serving/launch/background-index.ts and history-verbs/log-index.ts are such jobs; both start and run through here.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';

/** Start `script` detached with `args`; false when it cannot start (e.g. running from TypeScript sources). */
export function startDetached(script: string, args: readonly string[]): boolean {
  if (!fs.existsSync(script)) return false;
  try {
    const child = spawn(process.execPath, [script, ...args], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/**
 * The body of a job's script: `usage` and exit 2 when `argsOk` is false, else `job` at low
 * priority (the foreground queries share these cores), exit 0 when it says ok, else 1.
 */
export function runDetachedJob(argsOk: boolean, usage: string, job: () => Promise<{ readonly ok: boolean }>): void {
  if (!argsOk) {
    process.stderr.write(`${usage}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    require('node:os').setPriority(10);
  } catch {
    // not permitted here; run at normal priority
  }
  void job().then(
    (r) => {
      process.exitCode = r.ok ? 0 : 1;
    },
    () => {
      process.exitCode = 1;
    },
  );
}
