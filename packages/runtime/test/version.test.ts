// The version handshake (issue 14 deliverable 5) with daemons in their own processes: a
// daemon started with a doctored version, or one that predates the handshake, and what a
// client of this version does with it. Also the reply's `json` field through a real daemon.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { daemonStatus, pingDaemon, sendRequest, stopDaemon } from '../src/client';
import { decodeFrames, EMPTY_DECODER, encodeFrame } from '../src/frame';
import { MAX_REPLY_BYTES } from '../src/limits';
import { processAlive } from '../src/lock';
import { parseReply, serializeRequest, type DaemonReply } from '../src/protocol';
import { startDetachedDaemon } from '../src/start';
import { compareVersions, daemonIsNewer, TRUFFLEPIG_VERSION } from '../src/version';
import { ENTRY, killAll, OLD_ENTRY, spawnDaemon, tempRoot, waitFor, type DaemonProcess } from './helpers';

const started: DaemonProcess[] = [];
const detached: number[] = [];
afterEach(async () => {
  for (const p of started) {
    // A daemon a test replaced has exited; one still running is stopped, then killed.
    if (p.child.exitCode === null && p.child.signalCode === null) await stopDaemonOf(p);
  }
  await killAll(started.splice(0));
  for (const pid of detached.splice(0)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
});

const cacheOf = new Map<DaemonProcess, string>();
async function stopDaemonOf(p: DaemonProcess): Promise<void> {
  const cacheDir = cacheOf.get(p);
  if (cacheDir) await stopDaemon(cacheDir, { timeoutMs: 2_000, waitMs: 2_000 });
}

async function daemonAt(
  version: string | 'pre-handshake',
  label: string,
): Promise<{ root: string; cacheDir: string; d: DaemonProcess; pid: number }> {
  const { root, cacheDir } = tempRoot(label);
  const d =
    version === 'pre-handshake' ? spawnDaemon(root, cacheDir, {}, OLD_ENTRY) : spawnDaemon(root, cacheDir, { version });
  started.push(d);
  cacheOf.set(d, cacheDir);
  const ping = await waitFor(
    async () => {
      const r = await pingDaemon(cacheDir);
      return r.ok ? r : undefined;
    },
    10_000,
    `the daemon of ${version}`,
  );
  return { root, cacheDir, d, pid: ping.pid };
}

/** One frame to the socket, the daemon's reply as sent (no client-side checks). */
function rawRequest(socketPath: string, body: string): Promise<DaemonReply> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let state = EMPTY_DECODER;
    socket.on('connect', () => socket.write(encodeFrame(body)));
    socket.on('data', (chunk: Buffer) => {
      const out = decodeFrames(state, chunk, MAX_REPLY_BYTES);
      state = out.state;
      for (const e of out.events) {
        if (e.kind !== 'frame') continue;
        socket.destroy();
        resolve(parseReply(e.body) as DaemonReply);
      }
    });
    socket.on('error', reject);
  });
}

test('the version has one owner: package.json; TRUFFLEPIG_VERSION repeats it', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  expect(TRUFFLEPIG_VERSION).toBe(pkg.version);
});

test('versions order by semantic-version precedence; a newer daemon is one of strictly higher precedence', () => {
  expect(compareVersions('0.1.0', '0.1.0')).toBe(0);
  expect(compareVersions('0.1.0', '0.2.0')).toBeLessThan(0);
  expect(compareVersions('1.0.0', '0.99.99')).toBeGreaterThan(0);
  expect(compareVersions('0.10.0', '0.9.0')).toBeGreaterThan(0);
  expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBeLessThan(0);
  expect(compareVersions('1.0.0-rc.10', '1.0.0-rc.9')).toBeGreaterThan(0);
  expect(compareVersions('1.0.0-rc', '1.0.0-rc.1')).toBeLessThan(0);
  expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0);
  expect(compareVersions('dev', '0.1.0')).toBeUndefined();
  expect(daemonIsNewer('99.0.0')).toBe(true);
  expect(daemonIsNewer('0.0.1')).toBe(false);
  expect(daemonIsNewer(undefined)).toBe(false);
  expect(daemonIsNewer('dev')).toBe(false); // not comparable: the client replaces it
});

test('a daemon of a doctored version refuses handler verbs with version_mismatch naming both versions; its built-ins still answer', async () => {
  const { root, cacheDir, d } = await daemonAt('0.0.1', 'refuse');
  const asked = await sendRequest(cacheDir, { verb: 'echo', args: ['x'] });
  expect(asked).toMatchObject({ ok: false, code: 'version_mismatch' });
  if (asked.ok) throw new Error('expected a refusal');
  expect(asked.message).toContain('this daemon is version 0.0.1');
  expect(asked.message).toContain(`the client is version ${TRUFFLEPIG_VERSION}`);
  expect(asked.message).toContain('trufflepig stop');
  // On the wire: an error reply (exit 2, empty stdout) stamped with the daemon's version.
  const socketPath = await daemonStatus(cacheDir).then((s) => (s.ok ? s.status.socketPath : ''));
  const wire = await rawRequest(
    socketPath,
    serializeRequest({ id: 'w1', verb: 'echo', args: [], options: {}, cwd: root, version: TRUFFLEPIG_VERSION }),
  );
  expect(wire).toMatchObject({
    id: 'w1',
    version: '0.0.1',
    exitCode: 2,
    stdout: '',
    error: { code: 'version_mismatch' },
  });
  expect(wire.stderr).toMatch(/^trufflepig: version_mismatch: this daemon is version 0\.0\.1/);
  // A client from before the handshake sends no version: refused too, never answered.
  const unversioned = await rawRequest(
    socketPath,
    serializeRequest({ id: 'w2', verb: 'echo', args: [], options: {}, cwd: root }),
  );
  expect(unversioned).toMatchObject({
    id: 'w2',
    error: { code: 'version_mismatch', message: expect.stringContaining('sent no version') },
  });
  // A client claiming the daemon's own version is answered.
  const same = await sendRequest(cacheDir, { verb: 'echo', args: ['y'], version: '0.0.1' });
  expect(same.ok && JSON.parse(same.reply.stdout).args).toEqual(['y']);
  // Built-ins answer any client and say which version they are.
  expect(await pingDaemon(cacheDir)).toMatchObject({ ok: true, pid: d.child.pid, version: '0.0.1' });
  expect(await daemonStatus(cacheDir)).toMatchObject({ ok: true, status: { pid: d.child.pid, version: '0.0.1' } });
  expect(await stopDaemon(cacheDir)).toEqual({ ok: true, pid: d.child.pid });
  expect(await d.exited).toBe(0);
});

test('an older daemon is replaced: startDetachedDaemon stops it and starts one of this version, which answers', async () => {
  const { root, cacheDir, d, pid: oldPid } = await daemonAt('0.0.1', 'older');
  const up = await startDetachedDaemon(ENTRY, [root, cacheDir, '{}'], cacheDir);
  if (!up.ok) throw new Error(`${up.code}: ${up.message}`);
  detached.push(up.pid, ...(up.spawnedPid ? [up.spawnedPid] : []));
  expect(up).toMatchObject({ alreadyRunning: false, replaced: { pid: oldPid, version: '0.0.1' } });
  expect(up.pid).not.toBe(oldPid);
  expect(await d.exited).toBe(0);
  expect(d.stderr()).toMatch(/done \(stop_request\)/);
  expect(await daemonStatus(cacheDir)).toMatchObject({
    ok: true,
    status: { pid: up.pid, version: TRUFFLEPIG_VERSION },
  });
  const echo = await sendRequest(cacheDir, { verb: 'echo', args: ['after'] });
  expect(echo).toMatchObject({ ok: true, reply: { version: TRUFFLEPIG_VERSION, exitCode: 0 } });
  // The daemon log says who served which version.
  expect(fs.readFileSync(path.join(cacheDir, 'daemon.log'), 'utf8')).toContain(
    `(version ${TRUFFLEPIG_VERSION}, watcher`,
  );
  expect(await stopDaemon(cacheDir)).toEqual({ ok: true, pid: up.pid });
});

test('a newer daemon is left alone: startDetachedDaemon answers version_mismatch with what to do, and the daemon keeps serving', async () => {
  const { root, cacheDir, d, pid } = await daemonAt('99.0.0', 'newer');
  const up = await startDetachedDaemon(ENTRY, [root, cacheDir, '{}'], cacheDir);
  expect(up).toMatchObject({ ok: false, code: 'version_mismatch', pid });
  if (up.ok) throw new Error('expected a refusal');
  expect(up.message).toContain('version 99.0.0');
  expect(up.message).toContain(`newer than this client's ${TRUFFLEPIG_VERSION}`);
  expect(up.message).toContain('trufflepig stop');
  expect(d.child.exitCode).toBeNull();
  expect(await pingDaemon(cacheDir)).toMatchObject({ ok: true, pid, version: '99.0.0' });
  expect(await sendRequest(cacheDir, { verb: 'echo' })).toMatchObject({ ok: false, code: 'version_mismatch' });
});

test('a daemon from before the handshake: its answer is not taken (version_mismatch), and startDetachedDaemon replaces it', async () => {
  const { root, cacheDir, d, pid: oldPid } = await daemonAt('pre-handshake', 'prehs');
  // It answers (it ignores the request's version), but without a version of its own.
  const asked = await sendRequest(cacheDir, { verb: 'search', args: ['x'] });
  expect(asked).toMatchObject({
    ok: false,
    code: 'version_mismatch',
    message: expect.stringContaining('predates the version handshake'),
  });
  const ping = await pingDaemon(cacheDir);
  expect(ping.ok && ping.version).toBeUndefined();
  expect(ping).toMatchObject({ ok: true, pid: oldPid });
  const up = await startDetachedDaemon(ENTRY, [root, cacheDir, '{}'], cacheDir);
  if (!up.ok) throw new Error(`${up.code}: ${up.message}`);
  detached.push(up.pid, ...(up.spawnedPid ? [up.spawnedPid] : []));
  expect(up.replaced).toEqual({ pid: oldPid });
  expect(await d.exited).toBe(0);
  expect(await sendRequest(cacheDir, { verb: 'echo' })).toMatchObject({
    ok: true,
    reply: { version: TRUFFLEPIG_VERSION },
  });
  expect(await stopDaemon(cacheDir)).toEqual({ ok: true, pid: up.pid });
});

test("a handler's json string round-trips through a real daemon; a json that is not a string is dropped", async () => {
  const { cacheDir } = await daemonAt(TRUFFLEPIG_VERSION, 'json');
  const text = JSON.stringify({ hits: [{ path: 'src/a.ts', line: 1 }], note: 'ünïcode\n"quoted"' });
  const withJson = await sendRequest(cacheDir, { verb: 'json', args: [text] });
  expect(withJson).toMatchObject({ ok: true, reply: { stdout: 'lines\n', exitCode: 0, json: text } });
  const bad = await sendRequest(cacheDir, { verb: 'badjson' });
  expect(bad.ok && 'json' in bad.reply).toBe(false);
  expect(bad).toMatchObject({ ok: true, reply: { stdout: 'lines\n', exitCode: 0 } });
  const plain = await sendRequest(cacheDir, { verb: 'echo' });
  expect(plain.ok && 'json' in plain.reply).toBe(false);
});

test('parseReply keeps a string json and version, and ignores them otherwise', () => {
  const base = { id: 'a', stdout: '', stderr: '', exitCode: 0 };
  expect(parseReply(JSON.stringify({ ...base, json: '{"x":1}', version: '1.2.3' }))).toEqual({
    ...base,
    json: '{"x":1}',
    version: '1.2.3',
  });
  expect(parseReply(JSON.stringify({ ...base, json: { x: 1 }, version: 7 }))).toEqual(base);
});
