import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ENTRY = path.join(__dirname, 'fixtures', 'daemon-entry.js');
/** A daemon that predates the version handshake (its replies carry no version). */
export const OLD_ENTRY = path.join(__dirname, 'fixtures', 'old-daemon.js');

export function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-runtime-${prefix}-`)));
}

/** A root with a few files and a cache directory beside it (not inside). */
export function tempRoot(prefix: string): { base: string; root: string; cacheDir: string } {
  const base = tempDir(prefix);
  const root = path.join(base, 'root');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  return { base, root, cacheDir: path.join(base, 'cache') };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

export interface DaemonProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** Run the fixture daemon (or another entry script) in its own process (stderr captured). */
export function spawnDaemon(
  root: string,
  cacheDir: string,
  options: Record<string, unknown> = {},
  entry = ENTRY,
): DaemonProcess {
  const child = spawn(process.execPath, [entry, root, cacheDir, JSON.stringify(options)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => err };
}

/** Kill whatever a test started, by pid, and wait for it. */
export async function killAll(processes: DaemonProcess[]): Promise<void> {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
}

export function recordedReconciles(cacheDir: string): number[] {
  try {
    return fs
      .readFileSync(path.join(cacheDir, 'reconciles.log'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('start '))
      .map((l) => Number(l.slice(6)));
  } catch {
    return [];
  }
}
