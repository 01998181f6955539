// An in-process workspace coordinator (serveCoordinator) on a real unix socket: the same
// protocol as a root daemon, no reconcile schedule, no watcher, and it lives exactly as
// long as its workspace file and its lock.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { daemonStatus, pingDaemon, sendRequest, stopDaemon } from '../src/client';
import { serveCoordinator, type CoordinatorStatus, type RunningCoordinator } from '../src/coordinator';
import { lockPathFor } from '../src/paths';
import { TRUFFLEPIG_VERSION } from '../src/version';
import { tempDir, waitFor } from './helpers';
import { readLockPid } from '../src/lock';

const running: RunningCoordinator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

function workspace(prefix: string): { configFile: string; stateDir: string } {
  const base = tempDir(prefix);
  const configFile = path.join(base, 'trufflepig.workspace.toml');
  fs.writeFileSync(configFile, '[members]\n');
  return { configFile, stateDir: path.join(base, 'state') };
}

async function start(dirs: { configFile: string; stateDir: string }, checkMs = 2_000): Promise<RunningCoordinator> {
  const out = await serveCoordinator({
    ...dirs,
    checkMs,
    handleSignals: false,
    log: () => undefined,
    handler: async (req) => ({ stdout: `${req.verb} ${req.args.join(' ')}`, stderr: '', exitCode: 0 }),
  });
  if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
  running.push(out.coordinator);
  return out.coordinator;
}

test('answers the handler, ping and its own status (no reconcile, no watcher), behind the state directory lock', async () => {
  const dirs = workspace('coord');
  const c = await start(dirs);
  expect(readLockPid(lockPathFor(dirs.stateDir))).toBe(process.pid);
  const reply = await sendRequest(dirs.stateDir, { verb: 'search', args: ['refill', 'tokens'] });
  expect(reply).toMatchObject({
    ok: true,
    reply: { stdout: 'search refill tokens', exitCode: 0, version: TRUFFLEPIG_VERSION },
  });
  expect(await pingDaemon(dirs.stateDir)).toMatchObject({ ok: true, pid: process.pid });
  const status = await daemonStatus(dirs.stateDir);
  if (!status.ok) throw new Error(status.message);
  const described = status.status as unknown as CoordinatorStatus;
  expect(described).toMatchObject({
    role: 'coordinator',
    configFile: dirs.configFile,
    stateDir: dirs.stateDir,
    socketPath: c.socketPath,
    requests: { served: 3, inFlight: 1 }, // the status request itself is in flight
  });
  // A root daemon's fields are not claimed: nothing is reconciled or watched here.
  expect(Object.keys(described)).not.toContain('reconcile');
  expect(Object.keys(described)).not.toContain('watcher');
});

test('a second coordinator of the same state directory answers daemon_running with the holder pid', async () => {
  const dirs = workspace('coord-twice');
  await start(dirs);
  const second = await serveCoordinator({
    ...dirs,
    handleSignals: false,
    log: () => undefined,
    handler: async () => ({ stdout: '', stderr: '', exitCode: 0 }),
  });
  expect(second).toMatchObject({ ok: false, code: 'daemon_running', pid: process.pid });
});

test('a missing workspace file is refused; a removed one stops the coordinator and frees its socket and lock', async () => {
  const missing = workspace('coord-missing');
  fs.rmSync(missing.configFile);
  const refused = await serveCoordinator({
    ...missing,
    handleSignals: false,
    log: () => undefined,
    handler: async () => ({ stdout: '', stderr: '', exitCode: 0 }),
  });
  expect(refused).toMatchObject({ ok: false, code: 'root_not_found' });

  const dirs = workspace('coord-gone');
  const c = await start(dirs, 20);
  fs.rmSync(dirs.configFile);
  await expect(c.done).resolves.toBe('root_gone');
  expect(fs.existsSync(c.socketPath)).toBe(false);
  expect(fs.existsSync(lockPathFor(dirs.stateDir))).toBe(false);
  expect(await pingDaemon(dirs.stateDir)).toMatchObject({ ok: false, code: 'no_daemon' });
});

test('an edited workspace file (replaced by rename) keeps the coordinator serving', async () => {
  const dirs = workspace('coord-edit');
  const c = await start(dirs, 20);
  const next = `${dirs.configFile}.new`;
  fs.writeFileSync(next, '[members]\nx = "."\n');
  fs.renameSync(next, dirs.configFile);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await pingDaemon(dirs.stateDir)).toMatchObject({ ok: true, pid: process.pid });
  expect(await stopDaemon(dirs.stateDir)).toMatchObject({ ok: true, pid: process.pid });
  await expect(c.done).resolves.toBe('stop_request');
  await waitFor(() => !fs.existsSync(lockPathFor(dirs.stateDir)), 2_000, 'the lock to go');
});
