// Demand-start of a root's daemon as a detached background process.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pingDaemon, stopDaemon } from './client';
import { errorText, failure, type Failure } from './errors';
import { DEFAULT_READY_TIMEOUT_MS, DEFAULT_STOP_WAIT_MS, MAX_LOG_BYTES, READY_POLL_MS } from './limits';
import { processAlive, readLockPid } from './lock';
import { lockPathFor, logPathFor } from './paths';
import { daemonIsNewer, TRUFFLEPIG_VERSION } from './version';
import { makeDirectories } from '@trufflepig/base/directories';

export interface StartedDaemon {
  readonly ok: true;
  readonly pid: number;
  /** A daemon already answered: nothing was spawned. */
  readonly alreadyRunning: boolean;
  /** From the call until the daemon answered a ping. */
  readonly readyMs: number;
  /** The process this call spawned, when it spawned one: the daemon, or a loser of a startup race that exits on its own. */
  readonly spawnedPid?: number;
  /** An older daemon (or one that predates the version handshake) that answered first and was stopped for this one. */
  readonly replaced?: { readonly pid: number; readonly version?: string };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keep one previous log: a daemon's log never grows past twice MAX_LOG_BYTES across restarts. */
function openLog(cacheDir: string): number {
  const file = logPathFor(cacheDir);
  try {
    if (fs.statSync(file).size > MAX_LOG_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return fs.openSync(file, 'a', 0o600);
}

function lastLogLine(cacheDir: string): string {
  try {
    const lines = fs.readFileSync(logPathFor(cacheDir), 'utf8').trim().split('\n');
    return lines[lines.length - 1]?.slice(0, 300) ?? '';
  } catch {
    return '';
  }
}

function versionText(version: string | undefined): string {
  return version === undefined ? 'of a version that predates the handshake' : `of version ${version}`;
}

/**
 * A daemon of another version answered: stop it when it is older (or predates the
 * handshake) and wait for its lock; refuse to touch a newer one, which a newer client
 * started and would only start again.
 */
async function stopOtherVersion(
  cacheDir: string,
  running: { pid: number; version?: string },
  deadline: number,
): Promise<Failure | undefined> {
  const theirs = `a daemon ${versionText(running.version)} (pid ${running.pid})`;
  if (daemonIsNewer(running.version)) {
    return failure(
      'version_mismatch',
      `${theirs} serves ${cacheDir}, newer than this client's ${TRUFFLEPIG_VERSION}; use the newer trufflepig, or run \`trufflepig stop\` to let this one start its own`,
      running.pid,
    );
  }
  const remaining = () => Math.max(1, deadline - Date.now());
  const stopped = await stopDaemon(cacheDir, {
    timeoutMs: remaining(),
    waitMs: Math.min(DEFAULT_STOP_WAIT_MS, remaining()),
  });
  if (!stopped.ok && stopped.code !== 'no_daemon') {
    return failure(
      'version_mismatch',
      `${theirs} serves ${cacheDir}, this client is version ${TRUFFLEPIG_VERSION}, and it did not stop (${stopped.message})`,
      running.pid,
    );
  }
  // `no_daemon`: it was stopping already (another client replaced it); its lock goes next.
  while (readLockPid(lockPathFor(cacheDir)) === running.pid && processAlive(running.pid) && Date.now() < deadline)
    await sleep(READY_POLL_MS);
  return undefined;
}

/**
 * Make sure a daemon of this version serves `cacheDir`: answer at once when one responds, else spawn
 * `node entryScript ...args` detached (stdout and stderr appended to `<cacheDir>/daemon.log`,
 * working directory `/`, so pass absolute paths) and wait until it answers a ping. When
 * two callers race, the loser's process exits on the lock and both get the winner's pid.
 * A running daemon of an older version (or of none) is stopped first and replaced; one of
 * a newer version is left alone and answers `version_mismatch`, as does a spawned daemon
 * that reports another version than this client's (an entry script of another install).
 */
export async function startDetachedDaemon(
  entryScript: string,
  args: readonly string[],
  cacheDir: string,
  opts: { readyTimeoutMs?: number } = {},
): Promise<StartedDaemon | Failure> {
  const started = Date.now();
  const deadline = started + (opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  const running = await pingDaemon(cacheDir, { timeoutMs: Math.max(1, deadline - Date.now()) });
  let replaced: { pid: number; version?: string } | undefined;
  if (running.ok && running.version === TRUFFLEPIG_VERSION)
    return { ok: true, pid: running.pid, alreadyRunning: true, readyMs: Date.now() - started };
  if (running.ok) {
    const refused = await stopOtherVersion(cacheDir, running, deadline);
    if (refused) return refused;
    replaced = { pid: running.pid, ...(running.version !== undefined ? { version: running.version } : {}) };
  } else if (running.code === 'timed_out')
    return failure('timed_out', `a daemon holds ${cacheDir} but does not answer; stop it or use --no-daemon`);
  let exited = false;
  let childPid: number;
  try {
    makeDirectories(cacheDir);
    const log = openLog(cacheDir);
    try {
      const child = spawn(process.execPath, [entryScript, ...args], {
        detached: true,
        stdio: ['ignore', log, log],
        cwd: path.parse(path.resolve(cacheDir)).root,
      });
      child.on('error', () => (exited = true));
      child.on('exit', () => (exited = true));
      child.unref();
      childPid = child.pid ?? 0;
    } finally {
      fs.closeSync(log);
    }
  } catch (err) {
    return failure('cache_unwritable', `cannot start a daemon in ${cacheDir} (${errorText(err)}); use --no-daemon`);
  }
  while (Date.now() < deadline) {
    const ping = await pingDaemon(cacheDir, { timeoutMs: Math.max(1, Math.min(1_000, deadline - Date.now())) });
    if (ping.ok && ping.version !== TRUFFLEPIG_VERSION) {
      return failure(
        'version_mismatch',
        `the daemon that answered (pid ${ping.pid}) is ${versionText(ping.version)}, this client ${TRUFFLEPIG_VERSION}; start it from the same installation (${entryScript}), or use --no-daemon`,
        ping.pid,
      );
    }
    if (ping.ok)
      return {
        ok: true,
        pid: ping.pid,
        alreadyRunning: ping.pid !== childPid,
        readyMs: Date.now() - started,
        ...(childPid ? { spawnedPid: childPid } : {}),
        ...(replaced ? { replaced } : {}),
      };
    if (exited) {
      // Lost a startup race? Then another live daemon holds the lock and will answer soon.
      const holder = readLockPid(lockPathFor(cacheDir));
      if (!holder || holder === childPid || !processAlive(holder)) {
        return failure(
          'daemon_exited',
          `the daemon exited before answering (${lastLogLine(cacheDir) || 'no log'}); see ${logPathFor(cacheDir)} or use --no-daemon`,
        );
      }
    }
    await sleep(READY_POLL_MS);
  }
  return failure(
    'timed_out',
    `the daemon did not answer within ${opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS} ms; see ${logPathFor(cacheDir)} or use --no-daemon`,
  );
}
