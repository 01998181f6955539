// Lock files that name their holder (src/pid-lock.ts): one holder at a time across
// processes, a dead or too old holder's lock taken over, a lock being created never
// mistaken for a stale one. The race runs in real processes: the lock file holds a pid, so
// threads of one process cannot stand for rivals.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { transformFileSync } from '@swc/core';
import { acquirePidLock, pidLockState, removeDeadLockDrafts } from '../src/pid-lock';

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
