// Running Git, bounded: every run has a timeout and a cap on the bytes read, runs in the
// repository it is given (no inherited GIT_DIR or work tree), and sees literal pathspecs
// and plain, unprefixed-by-config output (no colour, no external diff, no signatures).
import { spawn, spawnSync } from 'node:child_process';
import { gitEnvironment } from '@trufflepig/base/git-env';
import { GIT_OUTPUT_MAX_BYTES, GIT_TIMEOUT_MS } from './limits';

/** How a Git run ended: its output is complete only when `ok`. */
export type RunState = 'ok' | 'failed' | 'timed_out' | 'too_large' | 'unavailable';

export interface GitRun {
  readonly state: RunState;
  readonly stdout: Buffer;
  /** The first line of stderr (or of the spawn error), for messages. */
  readonly reason: string;
}

export interface RunOptions {
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** Bytes written to stdin (`cat-file --batch`). */
  readonly input?: Buffer | string;
}

/** Configuration that would change the output's shape, pinned to the parsers' expectations. */
const CONFIG = [
  '-c',
  'core.quotePath=false',
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '-c',
  'diff.relative=false',
  '-c',
  'color.ui=never',
  '-c',
  'log.showSignature=false',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'blame.ignoreRevsFile=',
];

// Pathspecs are literal, nothing prompts, no optional lock is taken; an inherited external
// diff driver would change `diff` output.
function gitEnv(): NodeJS.ProcessEnv {
  return gitEnvironment({ GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0' }, [
    'GIT_EXTERNAL_DIFF',
  ]);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

/** Run `git -C cwd ARGS` to completion (or to its bounds). */
export function runGit(cwd: string, args: readonly string[], options: RunOptions = {}): GitRun {
  const timeout = Math.max(1, Math.floor(options.timeoutMs ?? GIT_TIMEOUT_MS));
  const r = spawnSync('git', ['-C', cwd, ...CONFIG, ...args], {
    env: gitEnv(),
    timeout,
    maxBuffer: options.maxBytes ?? GIT_OUTPUT_MAX_BYTES,
    killSignal: 'SIGKILL',
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  const stdout = r.stdout ?? Buffer.alloc(0);
  const stderr = firstLine((r.stderr ?? Buffer.alloc(0)).toString('utf8'));
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return { state: 'unavailable', stdout, reason: 'git is not installed or not on PATH' };
  if (code === 'ETIMEDOUT') return { state: 'timed_out', stdout, reason: `git ${args[0]} ran past ${timeout} ms` };
  if (code === 'ENOBUFS')
    return {
      state: 'too_large',
      stdout,
      reason: `git ${args[0]} printed more than ${options.maxBytes ?? GIT_OUTPUT_MAX_BYTES} bytes`,
    };
  if (r.error) return { state: 'failed', stdout, reason: firstLine(r.error.message) };
  return {
    state: r.status === 0 ? 'ok' : 'failed',
    stdout,
    reason: stderr || `git ${args[0]} exited with ${String(r.status ?? r.signal)}`,
  };
}

/** How a streamed run ended: `stopped` when the reader asked to stop, else as RunState. */
export type StreamEnd = RunState | 'stopped';

const MARKER = Buffer.from('\n\0');

/**
 * Run `git -C cwd ARGS` whose output is records that each start with a NUL byte at the
 * start of a line (a `--format=%x00…` log), handing each complete record to `onRecord`
 * as it arrives; `onRecord` returns false to stop the run (the process is killed). A run
 * cut by its bounds hands over only the records it completed.
 */
export function streamGit(
  cwd: string,
  args: readonly string[],
  options: Omit<RunOptions, 'input'>,
  onRecord: (record: Buffer) => boolean,
): Promise<{ end: StreamEnd; reason: string }> {
  const timeout = Math.max(1, Math.floor(options.timeoutMs ?? GIT_TIMEOUT_MS));
  const maxBytes = options.maxBytes ?? GIT_OUTPUT_MAX_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    let end: StreamEnd | undefined;
    let reason = '';
    let stderr = '';
    let read = 0;
    let pending: Buffer = Buffer.alloc(0);
    const child = spawn('git', ['-C', cwd, ...CONFIG, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = (why: StreamEnd, text: string) => {
      if (end !== undefined) return;
      end = why;
      reason = text;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timed_out', `git ${args[0]} ran past ${timeout} ms`), timeout);
    /** Hands over every record followed by the next one's marker; true while the reader wants more. */
    const drain = (): boolean => {
      for (;;) {
        const at = pending.indexOf(MARKER, 1);
        if (at < 0) return true;
        const record = pending.subarray(0, at + 1);
        pending = pending.subarray(at + 1);
        if (!onRecord(record)) return false;
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (end !== undefined) return;
      read += chunk.length;
      if (read > maxBytes) {
        stop('too_large', `git ${args[0]} printed more than ${maxBytes} bytes`);
        return;
      }
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (!drain()) stop('stopped', '');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    const finish = (state: StreamEnd, text: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ end: state, reason: text });
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      finish(
        err.code === 'ENOENT' ? 'unavailable' : 'failed',
        err.code === 'ENOENT' ? 'git is not installed or not on PATH' : firstLine(err.message),
      );
    });
    child.on('close', (status) => {
      if (end !== undefined) return finish(end, reason);
      if (status !== 0) return finish('failed', firstLine(stderr) || `git ${args[0]} exited with ${String(status)}`);
      // The last record has no marker after it: complete now that the run ended cleanly.
      if (pending.length > 0 && !onRecord(pending)) return finish('stopped', '');
      finish('ok', '');
    });
  });
}
