// Test harness: spawns the built CLI (dist/main.js) against real Git repositories in temp
// dirs, each with its own --cache dir, and counts tokens with js-tiktoken as the oracle.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheDirForRoot } from '@trufflepig/member-root/cache-dir';

// js-tiktoken's types are ESM-only; this CommonJS test loads it with require.
interface Encoder {
  encode(text: string, allowedSpecial?: string[] | 'all', disallowedSpecial?: string[] | 'all'): number[];
}
const { Tiktoken } = require('js-tiktoken/lite') as { Tiktoken: new (ranks: unknown) => Encoder };

export const MAIN = path.resolve(__dirname, '..', 'dist', 'main.js');

/** The directory of `root` under the --cache base `base`: the exported rule, never a copy of it. */
export function rootCacheDir(root: string, base: string): string {
  return cacheDirForRoot(root, { cacheOverride: base });
}

export interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
  /** stdout parsed as JSON; throws with the raw output when it is not one JSON object. */
  json<T = Record<string, any>>(): T;
}

export interface Repo {
  readonly root: string;
  /** The --cache base passed to every call. */
  readonly cache: string;
  /** This root's own directory under that base (`<cache>/<root-hash>`, the CLI's rule). */
  readonly cacheDir: string;
  /** Run `trufflepig --root ROOT --cache CACHE ...args` (with `--json` unless args choose a format). */
  cli(...args: string[]): Run;
  /** The same call in the default output format (lines): no `--json` added. */
  lines(...args: string[]): Run;
  /** Absolute path of a root-relative file (string or raw bytes). */
  abs(rel: string | Buffer): string | Buffer;
  write(rel: string | Buffer, content: string | Buffer): void;
}

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tp-cli-${prefix}-`)));
  made.push(dir);
  return dir;
}

/** No test reads the user's real workspace registry or writes the user's cache. */
const ISOLATED = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-cli-home-')));
made.push(ISOLATED);
export const TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  NO_COLOR: '1',
  XDG_CONFIG_HOME: path.join(ISOLATED, 'config'),
  XDG_CACHE_HOME: path.join(ISOLATED, 'cache'),
};

/**
 * Run the CLI. Tests read JSON, so `--json` is added unless the arguments choose a format
 * themselves (`--json`, `--format X`) or `options.lines` asks for the default output (lines).
 */
export function runCli(
  args: readonly string[],
  cwd?: string,
  options: { daemon?: boolean; env?: NodeJS.ProcessEnv; lines?: boolean; input?: string } = {},
): Run {
  const chooses = args.some((a) => a === '--json' || a === '--format' || a.startsWith('--format='));
  const format = options.lines || chooses ? [] : ['--json'];
  const r = spawnSync(process.execPath, [MAIN, ...(options.daemon ? [] : ['--no-daemon']), ...format, ...args], {
    cwd,
    encoding: 'utf8',
    env: options.env ?? TEST_ENV,
    timeout: 60_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  if (r.error) throw r.error;
  const stdout = r.stdout;
  return {
    stdout,
    stderr: r.stderr,
    status: r.status,
    json<T>(): T {
      try {
        return JSON.parse(stdout) as T;
      } catch {
        throw new Error(`stdout is not JSON (exit ${r.status}):\n${stdout}\nstderr:\n${r.stderr}`);
      }
    },
  };
}

/** A Git repository (git init, nothing committed: untracked files are indexed too) with `files`. */
export function makeRepo(files: Readonly<Record<string, string | Buffer>>, prefix = 'repo'): Repo {
  const base = tempDir(prefix);
  const root = path.join(base, 'root');
  const cache = path.join(base, 'cache');
  fs.mkdirSync(root);
  const init = spawnSync('git', ['init', '-q', root], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`git init failed: ${init.stderr}`);
  const abs = (rel: string | Buffer): string | Buffer =>
    typeof rel === 'string' ? path.join(root, rel) : Buffer.concat([Buffer.from(root + '/'), rel]);
  const write = (rel: string | Buffer, content: string | Buffer): void => {
    const p = abs(rel);
    if (typeof p === 'string') fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  return {
    root,
    cache,
    cacheDir: rootCacheDir(root, cache),
    abs,
    write,
    cli: (...args) => runCli(['--root', root, '--cache', cache, ...args]),
    lines: (...args) => runCli(['--root', root, '--cache', cache, ...args], undefined, { lines: true }),
  };
}

let encoder: Encoder | undefined;

/** o200k_base token count: the oracle for every budget assertion. */
export function tokens(text: string): number {
  encoder ??= new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
  // special-token strings in repository text are plain text, as the budget counts them
  return encoder.encode(text, [], []).length;
}

/** Byte offset of `needle` in the file's real bytes (fails loudly when absent). */
export function byteOf(file: Buffer, needle: string | Buffer, from = 0): number {
  const at = file.indexOf(needle, from);
  if (at < 0) throw new Error(`${String(needle)} not in file`);
  return at;
}

export const HANDLE = /^[0-9a-z]{6,16}:[1-9]\d*$/;
export const CURSOR = /^[0-9a-z]{6,16}@\d+$/;

/** Poll `probe` (every 100 ms) until it returns a value; fail naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
