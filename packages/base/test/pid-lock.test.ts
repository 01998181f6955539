// Lock files that name their holder (src/pid-lock.ts): one holder at a time across
// processes, a dead or too old holder's lock taken over, a lock being created never
// mistaken for a stale one. The race runs in real processes; threads of one process are
// told apart by the thread id the lock file names beside the pid, in real worker threads.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { threadId, Worker } from 'node:worker_threads';
import { transformFileSync } from '@swc/core';
import { acquirePidLock, pidLockState, removeDeadLockDrafts, removeThreadLock, type PidLock } from '../src/pid-lock';

const SRC = path.resolve(__dirname, '..', 'src');

function tempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `tp-lock-${tag}-`));
}

function deadPid(): number {
  const out = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(out.stdout);
}

/** The lock's source (it imports only Node built-ins) compiled to CommonJS in `dir`, for child processes. */
function compileLockModule(dir: string): string {
  const out = path.join(dir, 'pid-lock.js');
  fs.mkdirSync(dir, { recursive: true });
  const { code } = transformFileSync(path.join(SRC, 'pid-lock.ts'), {
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
  });
  fs.writeFileSync(out, code);
  return out;
}

/**
 * A rival writer: for `ms`, take the lock whenever it can, and while holding it claim a
 * directory that only one holder may own at a time. Prints acquisitions and overlaps.
 */
const RIVAL = `
const fs = require('node:fs');
const path = require('node:path');
const [module, dir, ms] = process.argv.slice(1);
const { acquirePidLock } = require(module);
let held = 0, overlaps = 0;
const end = Date.now() + Number(ms);
while (Date.now() < end) {
  const lock = acquirePidLock(path.join(dir, 'the.lock'));
  if (!('release' in lock)) continue;
  held++;
  try { fs.mkdirSync(path.join(dir, 'holder')); } catch { overlaps++; lock.release(); continue; }
  const until = Date.now() + 1;
  while (Date.now() < until) {}
  fs.rmdirSync(path.join(dir, 'holder'));
  lock.release();
}
process.stdout.write(JSON.stringify({ held, overlaps }));
`;

function rival(module: string, dir: string, ms: number): Promise<{ held: number; overlaps: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', RIVAL, module, dir, String(ms)]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
  });
}

/**
 * A worker thread of this process running the lock module: it answers each request
 * (acquire, state, release) with a message, and holds what it acquired until told to
 * release it or terminated.
 */
const THREAD = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
const { acquirePidLock, pidLockState } = require(workerData.module);
let lock;
parentPort.on('message', (op) => {
  if (op === 'acquire') {
    const r = acquirePidLock(workerData.lockPath);
    if ('release' in r) lock = r;
    parentPort.postMessage({ threadId, acquired: 'release' in r, heldBy: r.heldBy });
  } else if (op === 'state') {
    parentPort.postMessage(pidLockState(workerData.lockPath));
  } else if (op === 'release') {
    lock.release();
    parentPort.postMessage({ released: true });
  }
});
`;

interface LockThread {
  readonly worker: Worker;
  readonly threadId: number;
  ask(op: 'acquire' | 'state' | 'release'): Promise<Record<string, unknown>>;
}

function lockThread(module: string, lockPath: string): LockThread {
  const worker = new Worker(THREAD, { eval: true, workerData: { module, lockPath } });
  const ask = (op: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(op);
    });
  return { worker, threadId: worker.threadId, ask };
}

function lockLine(lockPath: string): string[] {
  return fs.readFileSync(lockPath, 'utf8').trim().split(' ');
}

describe('pid lock', () => {
  it('is held by one process at a time while several race for it', async () => {
    const dir = tempDir('race');
    const module = compileLockModule(path.join(dir, 'build'));
    const locks = path.join(dir, 'locks');
    fs.mkdirSync(locks);
    const rivals = await Promise.all(Array.from({ length: 6 }, () => rival(module, locks, 1_500)));
    const held = rivals.reduce((n, r) => n + r.held, 0);
    expect(held).toBeGreaterThan(10);
    expect(rivals.map((r) => r.overlaps)).toEqual(rivals.map(() => 0));
    // Nothing of the attempts is left: no lock, no draft, no stale copy.
    expect(fs.readdirSync(locks)).toEqual([]);
  }, 60_000);

  it('answers the live owner, and takes over the lock of a dead one, one that names no pid, or one too old', () => {
    const lockPath = path.join(tempDir('stale'), 'x.lock');
    fs.writeFileSync(lockPath, `${process.ppid} ${new Date().toISOString()}\n`);
    expect(acquirePidLock(lockPath)).toEqual({ heldBy: process.ppid });
    expect(pidLockState(lockPath)).toMatchObject({ state: 'held', pid: process.ppid });
    // The same live holder, started an hour ago, is stale for a lock that expires sooner.
    fs.writeFileSync(lockPath, `${process.ppid} ${new Date(Date.now() - 3_600_000).toISOString()}\n`);
    expect(pidLockState(lockPath, { staleAfterMs: 60_000 })).toEqual({ state: 'stale', pid: process.ppid });
    const leftovers = [String(deadPid()), 'not a pid', '', String(process.pid)];
    for (const leftover of leftovers) {
      fs.writeFileSync(lockPath, leftover);
      expect(pidLockState(lockPath).state).toBe('stale');
      const lock = acquirePidLock(lockPath);
      if (!('release' in lock)) throw new Error(`not taken over from ${JSON.stringify(leftover)}: ${lock.heldBy}`);
      expect(fs.readFileSync(lockPath, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d{4}-`));
      expect(lock.stillHeld()).toBe(true);
      expect(pidLockState(lockPath)).toMatchObject({ state: 'held', pid: process.pid });
      // One process holds a lock once: a second caller is told it is held.
      expect(acquirePidLock(lockPath)).toEqual({ heldBy: process.pid });
      lock.release();
      expect(lock.stillHeld()).toBe(false);
      expect(fs.existsSync(lockPath)).toBe(false);
    }
    fs.writeFileSync(lockPath, `${process.ppid} ${new Date(Date.now() - 3_600_000).toISOString()}\n`);
    const old = acquirePidLock(lockPath, { staleAfterMs: 60_000 });
    expect('release' in old).toBe(true);
  });

  it('is held by another thread of this process: not stale, not taken, until that thread releases it', async () => {
    const dir = tempDir('threads');
    const module = compileLockModule(path.join(dir, 'build'));
    const lockPath = path.join(dir, 'x.lock');
    const thread = lockThread(module, lockPath);
    try {
      expect(await thread.ask('acquire')).toMatchObject({ acquired: true });
      expect(pidLockState(lockPath)).toMatchObject({ state: 'held', pid: process.pid });
      expect(acquirePidLock(lockPath)).toEqual({ heldBy: process.pid });
      expect(lockLine(lockPath)).toEqual([
        String(process.pid),
        expect.stringMatching(/^\d{4}-/),
        String(thread.threadId),
      ]);
      // Not this thread's lock to remove.
      expect(removeThreadLock(lockPath, threadId)).toBe(false);
      expect(lockLine(lockPath)[2]).toBe(String(thread.threadId));
      await thread.ask('release');
      expect(fs.existsSync(lockPath)).toBe(false);
      // The other way round: this thread's lock is held for the worker too.
      const mine = acquirePidLock(lockPath) as PidLock;
      expect(lockLine(lockPath)).toEqual([String(process.pid), expect.stringMatching(/^\d{4}-/), String(threadId)]);
      expect(await thread.ask('state')).toMatchObject({ state: 'held', pid: process.pid });
      expect(await thread.ask('acquire')).toEqual({ threadId: thread.threadId, acquired: false, heldBy: process.pid });
      // Held by a caller in this thread: not removed as if its thread had ended.
      expect(removeThreadLock(lockPath, threadId)).toBe(false);
      expect(mine.stillHeld()).toBe(true);
      mine.release();
      expect(fs.existsSync(lockPath)).toBe(false);
    } finally {
      await thread.worker.terminate();
    }
  }, 30_000);

  it('is removed by removeThreadLock once the thread holding it ended without releasing it', async () => {
    const dir = tempDir('thread-gone');
    const module = compileLockModule(path.join(dir, 'build'));
    const lockPath = path.join(dir, 'x.lock');
    const thread = lockThread(module, lockPath);
    expect(await thread.ask('acquire')).toMatchObject({ acquired: true });
    // Killed holding it: its release never runs, and its lock still names a thread of this
    // live process, so it stays held until whoever started the thread removes it.
    await thread.worker.terminate();
    expect(lockLine(lockPath)[2]).toBe(String(thread.threadId));
    expect(pidLockState(lockPath)).toMatchObject({ state: 'held', pid: process.pid });
    // What the ended thread left beside the lock goes too; another thread's stays.
    const draft = `x.lock.new-${process.pid}-${thread.threadId}-1-a`;
    const otherDraft = `x.lock.new-${process.pid}-${thread.threadId + 10}-1-b`;
    for (const name of [draft, otherDraft]) fs.writeFileSync(path.join(dir, name), '1');
    expect(removeThreadLock(lockPath, thread.threadId)).toBe(true);
    expect(fs.existsSync(lockPath)).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['build', otherDraft]);
    const lock = acquirePidLock(lockPath);
    expect('release' in lock).toBe(true);
    // Another holder's lock is not the ended thread's to remove.
    expect(removeThreadLock(lockPath, thread.threadId)).toBe(false);
    expect(lockLine(lockPath)[2]).toBe(String(threadId));
    (lock as PidLock).release();
    fs.writeFileSync(lockPath, `${process.ppid} ${new Date().toISOString()} ${thread.threadId}\n`);
    expect(removeThreadLock(lockPath, thread.threadId)).toBe(false);
    expect(pidLockState(lockPath)).toMatchObject({ state: 'held', pid: process.ppid });
  }, 30_000);

  it('reads lines without a thread id: a live pid holds it, this pid (in any thread) left it', async () => {
    const dir = tempDir('two-fields');
    const module = compileLockModule(path.join(dir, 'build'));
    const lockPath = path.join(dir, 'x.lock');
    const now = new Date().toISOString();
    fs.writeFileSync(lockPath, `${process.ppid} ${now}\n`);
    expect(pidLockState(lockPath)).toEqual({ state: 'held', pid: process.ppid, since: now });
    // Threads of this process always write their id, so a line without one naming this pid
    // is an earlier process's, for this thread and for a worker.
    fs.writeFileSync(lockPath, `${process.pid} ${now}\n`);
    expect(pidLockState(lockPath)).toEqual({ state: 'stale', pid: process.pid });
    const thread = lockThread(module, lockPath);
    try {
      expect(await thread.ask('state')).toEqual({ state: 'stale', pid: process.pid });
      expect(await thread.ask('acquire')).toMatchObject({ acquired: true });
      expect(lockLine(lockPath)[2]).toBe(String(thread.threadId));
    } finally {
      await thread.worker.terminate();
    }
    // This pid and this thread, held by no caller of it: an earlier process's as before.
    fs.writeFileSync(lockPath, `${process.pid} ${now} ${threadId}\n`);
    expect(pidLockState(lockPath)).toEqual({ state: 'stale', pid: process.pid });
  }, 30_000);

  it("removes what dead processes left beside the lock, and not a live one's", () => {
    const dir = tempDir('leftovers');
    const dead = deadPid();
    const names = [
      'x.lock.new-' + dead + '-1-a',
      'x.lock.stale-' + dead + '-1-b',
      `x.lock.new-${process.ppid}-1-c`,
      'y.lock.new-' + dead + '-1-d',
    ];
    for (const n of names) fs.writeFileSync(path.join(dir, n), '1');
    removeDeadLockDrafts(path.join(dir, 'x.lock'));
    expect(fs.readdirSync(dir).sort()).toEqual([`x.lock.new-${process.ppid}-1-c`, 'y.lock.new-' + dead + '-1-d']);
  });
});
