// In-process daemons (serveRoot) talking to real unix sockets.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { daemonStatus, pingDaemon, sendRequest, stopDaemon } from '../src/client';
import { decodeFrames, EMPTY_DECODER, encodeFrame } from '../src/frame';
import { MAX_REPLY_BYTES, MAX_REQUEST_ARGS, MAX_REQUEST_BYTES } from '../src/limits';
import { lockPathFor, shortSocketDirectory, socketPathFor } from '../src/paths';
import { parseReply, serializeRequest, type DaemonReply } from '../src/protocol';
import { serveRoot, type RequestHandler, type RootDaemonOptions, type RunningDaemon } from '../src/server';
import { TRUFFLEPIG_VERSION } from '../src/version';
import { sleep, tempRoot } from './helpers';
import { readLockPid } from '../src/lock';

const running: RunningDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

const handler: RequestHandler = async (req) => {
  switch (req.verb) {
    case 'echo':
      return {
        stdout: JSON.stringify({ args: req.args, options: req.options, cwd: req.cwd }),
        stderr: '',
        exitCode: 0,
      };
    case 'sleep':
      await sleep(Number(req.args[0]));
      return { stdout: req.args[0], stderr: '', exitCode: 0 };
    case 'throw':
      throw new Error('handler exploded');
    case 'big':
      return { stdout: 'x'.repeat(Number(req.args[0])), stderr: '', exitCode: 0 };
    default:
      return { stdout: '', stderr: 'unknown\n', exitCode: 2 };
  }
};

async function start(
  extra: Partial<RootDaemonOptions> = {},
  dirs = tempRoot('srv'),
): Promise<RunningDaemon & { dirs: ReturnType<typeof tempRoot> }> {
  const out = await serveRoot({
    root: dirs.root,
    cacheDir: dirs.cacheDir,
    handler,
    reconcile: async () => ({ ok: true, value: { generation: 1 } }),
    handleSignals: false,
    priority: false,
    log: () => undefined,
    ...extra,
  });
  if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
  running.push(out.daemon);
  return Object.assign(out.daemon, { dirs });
}

/** A raw connection: send frames, collect the replies that come back. */
function rawConnection(
  socketPath: string,
): Promise<{ send(body: Buffer | string): void; replies(n: number): Promise<DaemonReply[]>; close(): void }> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    const got: DaemonReply[] = [];
    let state = EMPTY_DECODER;
    socket.on('data', (chunk: Buffer) => {
      const out = decodeFrames(state, chunk, MAX_REPLY_BYTES);
      state = out.state;
      for (const e of out.events) if (e.kind === 'frame') got.push(parseReply(e.body) as DaemonReply);
    });
    socket.on('error', reject);
    socket.on('connect', () =>
      resolve({
        send: (body) => socket.write(typeof body === 'string' ? encodeFrame(body) : body),
        replies: async (n) => {
          const deadline = Date.now() + 5_000;
          while (got.length < n && Date.now() < deadline) await sleep(5);
          return got.slice(0, n);
        },
        close: () => socket.destroy(),
      }),
    );
  });
}

test('ping, status and handler replies carry the request id; the socket is <cacheDir>/daemon.sock, mode 0600', async () => {
  const d = await start();
  expect(d.socketPath).toBe(path.join(d.dirs.cacheDir, 'daemon.sock'));
  expect(fs.statSync(d.socketPath).mode & 0o777).toBe(0o600);
  expect(readLockPid(lockPathFor(d.dirs.cacheDir))).toBe(process.pid);
  const ping = await pingDaemon(d.dirs.cacheDir);
  expect(ping).toMatchObject({ ok: true, pid: process.pid });
  const echoed = await sendRequest(d.dirs.cacheDir, {
    id: 'my-id-1',
    verb: 'echo',
    args: ['a', 'b c'],
    options: { b: 600, lines: true },
    cwd: '/x',
  });
  expect(echoed).toEqual({
    ok: true,
    reply: {
      id: 'my-id-1',
      stdout: JSON.stringify({ args: ['a', 'b c'], options: { b: 600, lines: true }, cwd: '/x' }),
      stderr: '',
      exitCode: 0,
      version: TRUFFLEPIG_VERSION,
    },
  });
  // A generated id: this process's pid, then a time and a counter; never the same twice.
  const generated = await sendRequest(d.dirs.cacheDir, { verb: 'echo' });
  const again = await sendRequest(d.dirs.cacheDir, { verb: 'echo' });
  expect(generated.ok && generated.reply.id).toMatch(new RegExp(`^${process.pid.toString(36)}-[0-9a-z]+-[0-9a-z]+$`));
  expect(again.ok && again.reply.id).not.toBe(generated.ok && generated.reply.id);
  const status = await daemonStatus(d.dirs.cacheDir);
  if (!status.ok) throw new Error(status.message);
  expect(status.status).toMatchObject({
    pid: process.pid,
    root: d.dirs.root,
    cacheDir: d.dirs.cacheDir,
    socketPath: d.socketPath,
    generation: 1,
    watcher: { state: 'watching', directories: 2 },
  });
  expect(status.status.reconcile.runs).toBeGreaterThanOrEqual(1);
  expect(status.status.reconcile.last).toMatchObject({ reason: 'start', ok: true });
});

test('requests on one connection run concurrently and are answered as they finish', async () => {
  const d = await start();
  const c = await rawConnection(d.socketPath);
  const req = (id: string, verb: string, args: string[]) =>
    serializeRequest({ id, verb, args, options: {}, cwd: '/', version: TRUFFLEPIG_VERSION });
  c.send(Buffer.concat([encodeFrame(req('slow', 'sleep', ['400'])), encodeFrame(req('fast', 'sleep', ['10']))]));
  const started = Date.now();
  const replies = await c.replies(2);
  expect(replies.map((r) => r.id)).toEqual(['fast', 'slow']);
  expect(Date.now() - started).toBeLessThan(1_500);
  c.close();
});

test(`a request over ${MAX_REQUEST_BYTES} bytes or ${MAX_REQUEST_ARGS} arguments answers request_too_large and the connection survives`, async () => {
  const d = await start();
  const c = await rawConnection(d.socketPath);
  const huge = serializeRequest({
    id: 'huge',
    verb: 'echo',
    args: ['y'.repeat(MAX_REQUEST_BYTES)],
    options: {},
    cwd: '/',
    version: TRUFFLEPIG_VERSION,
  });
  c.send(huge);
  c.send(
    serializeRequest({
      id: 'many',
      verb: 'echo',
      args: Array(MAX_REQUEST_ARGS + 1).fill('z'),
      options: {},
      cwd: '/',
      version: TRUFFLEPIG_VERSION,
    }),
  );
  c.send(
    serializeRequest({
      id: 'fine',
      verb: 'echo',
      args: Array(MAX_REQUEST_ARGS).fill('z'),
      options: {},
      cwd: '/',
      version: TRUFFLEPIG_VERSION,
    }),
  );
  const [r1, r2, r3] = await c.replies(3);
  expect(r1).toMatchObject({ id: 'huge', exitCode: 2, error: { code: 'request_too_large' } });
  expect(r2).toMatchObject({ id: 'many', exitCode: 2, error: { code: 'request_too_large' } });
  expect(r3).toMatchObject({ id: 'fine', exitCode: 0 });
  c.close();
  // The client refuses before sending; nothing reaches the daemon.
  const served = d.status().requests.served;
  expect(await sendRequest(d.dirs.cacheDir, { verb: 'echo', args: ['y'.repeat(MAX_REQUEST_BYTES)] })).toMatchObject({
    ok: false,
    code: 'request_too_large',
  });
  expect(
    await sendRequest(d.dirs.cacheDir, { verb: 'echo', args: Array(MAX_REQUEST_ARGS + 1).fill('z') }),
  ).toMatchObject({ ok: false, code: 'request_too_large' });
  expect(d.status().requests.served).toBe(served);
});

test('a handler exception becomes an error reply with exit code 2, and the daemon keeps serving', async () => {
  const d = await start();
  const thrown = await sendRequest(d.dirs.cacheDir, { id: 'boom', verb: 'throw' });
  expect(thrown).toMatchObject({
    ok: true,
    reply: { id: 'boom', exitCode: 2, stdout: '', error: { code: 'handler_failed' } },
  });
  expect(thrown.ok && thrown.reply.stderr).toMatch(/^trufflepig: handler_failed: .*handler exploded/);
  expect(await sendRequest(d.dirs.cacheDir, { verb: 'echo' })).toMatchObject({ ok: true, reply: { exitCode: 0 } });
});

test(`a reply over ${MAX_REPLY_BYTES} bytes becomes reply_too_large; one just under passes`, async () => {
  const d = await start();
  const under = await sendRequest(d.dirs.cacheDir, { verb: 'big', args: [String(MAX_REPLY_BYTES - 200)] });
  expect(under.ok && under.reply.stdout.length).toBe(MAX_REPLY_BYTES - 200);
  const over = await sendRequest(d.dirs.cacheDir, { id: 'big', verb: 'big', args: [String(MAX_REPLY_BYTES)] });
  expect(over).toMatchObject({ ok: true, reply: { id: 'big', exitCode: 2, error: { code: 'reply_too_large' } } });
});

test('one daemon per cache directory: a second serveRoot answers daemon_running with the holder pid', async () => {
  const d = await start();
  const second = await serveRoot({
    root: d.dirs.root,
    cacheDir: d.dirs.cacheDir,
    handler,
    reconcile: async () => undefined,
    handleSignals: false,
    priority: false,
    log: () => undefined,
  });
  expect(second).toMatchObject({ ok: false, code: 'daemon_running', pid: process.pid });
  expect(await pingDaemon(d.dirs.cacheDir)).toMatchObject({ ok: true });
});

test('stop: the reply comes first, then socket and lock are gone and clients get no_daemon', async () => {
  const d = await start();
  const stopped = await stopDaemon(d.dirs.cacheDir);
  expect(stopped).toEqual({ ok: true, pid: process.pid });
  await expect(d.done).resolves.toBe('stop_request');
  expect(fs.existsSync(d.socketPath)).toBe(false);
  expect(fs.existsSync(lockPathFor(d.dirs.cacheDir))).toBe(false);
  expect(await sendRequest(d.dirs.cacheDir, { verb: 'echo' })).toMatchObject({ ok: false, code: 'no_daemon' });
  expect(await stopDaemon(d.dirs.cacheDir)).toMatchObject({ ok: false, code: 'no_daemon' });
});

test('a cache directory too deep for a unix socket path gets a private short socket under the temp directory', async () => {
  const dirs = tempRoot('long');
  dirs.cacheDir = path.join(dirs.base, 'c'.repeat(60), 'd'.repeat(60));
  const expected = socketPathFor(dirs.cacheDir);
  expect(path.dirname(expected)).toBe(shortSocketDirectory());
  expect(Buffer.byteLength(expected)).toBeLessThanOrEqual(107);
  const d = await start({}, dirs);
  expect(d.socketPath).toBe(expected);
  expect(fs.statSync(shortSocketDirectory()).mode & 0o777).toBe(0o700);
  expect(await pingDaemon(dirs.cacheDir)).toMatchObject({ ok: true });
  await d.stop();
  expect(fs.existsSync(expected)).toBe(false);
});

test('no daemon: no_daemon at once; a reply slower than the timeout: timed_out', async () => {
  const dirs = tempRoot('none');
  expect(await sendRequest(dirs.cacheDir, { verb: 'echo' })).toMatchObject({ ok: false, code: 'no_daemon' });
  const d = await start();
  expect(await sendRequest(d.dirs.cacheDir, { verb: 'sleep', args: ['500'] }, { timeoutMs: 100 })).toMatchObject({
    ok: false,
    code: 'timed_out',
  });
});
