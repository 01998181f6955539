import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import type { ExtractionLanguage } from '../classify';
import { treeCollector } from './collect';
import { extractFile } from './extract';
import type { Extraction } from './facts';
import { PARSER_HEAP_LIMITS, PARSER_IDLE_DEATHS_MAX, PARSER_MALLOC_MMAP_THRESHOLD, type HeapLimits } from '../limits';

export interface Extractor {
  extract(lang: ExtractionLanguage, bytes: Uint8Array): Promise<Extraction>;
  close(): Promise<void>;
}

export function inProcessExtractor(): Extractor {
  const collect = treeCollector();
  return {
    extract: async (lang, bytes) => {
      const x = extractFile(lang, bytes);
      if (collect(bytes.length)) await new Promise((resolve) => setImmediate(resolve));
      return x;
    },
    close: async () => undefined,
  };
}

function workerScript(): string | undefined {
  try {
    const pkgDir = path.dirname(require.resolve('@trufflepig/index/package.json'));
    const script = path.join(pkgDir, 'dist', 'extract', 'worker.js');
    return fs.existsSync(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

/** Default parallelism: every core; the main process's hashing and inserts overlap with parsing. */
export function defaultParallelism(): number {
  return Math.max(1, os.availableParallelism());
}

export interface PoolOptions {
  readonly parallelism?: number;
  readonly heapLimits?: HeapLimits;
  /** The parser entry to fork; defaults to this package's built `dist/extract/worker.js`. */
  readonly script?: string;
}

/**
 * Node's flags for a heap of these limits. V8 sizes the young generation as three
 * semi-spaces (two and the new large-object space), so a young limit of Y MB is a
 * semi-space of Y/3 MB.
 */
function heapFlags(limits: HeapLimits): string[] {
  return [
    `--max-old-space-size=${limits.maxOldGenerationSizeMb}`,
    `--max-semi-space-size=${Math.max(1, Math.round(limits.maxYoungGenerationSizeMb / 3))}`,
  ];
}

/**
 * What a parser process says about one job: that it starts it (so a death is blamed on
 * the job it was running, never on one it had not yet received), then its outcome.
 */
export type ParserMessage =
  | { readonly kind: 'started'; readonly id: number }
  | {
      readonly kind: 'done';
      readonly id: number;
      readonly ok: boolean;
      readonly value?: Extraction;
      readonly message?: string;
    };

interface Job {
  id: number;
  lang: ExtractionLanguage;
  bytes: Uint8Array;
  resolve: (x: Extraction) => void;
  reject: (e: Error) => void;
}

/** A parser process and the jobs it holds, in the order it runs them. */
interface Slot {
  child: ChildProcess;
  jobs: Job[];
  /** The job the process said it started and has not answered. */
  running: number | undefined;
  /** Deaths in a row with no job running: a process that cannot start. */
  idleDeaths: number;
  /** Set once the slot gave up replacing its process; its jobs go elsewhere. */
  failed: Error | undefined;
}

/**
 * A parser's environment, where the caller did not choose: two malloc arenas (glibc gives
 * each thread touching malloc one that keeps what it freed) and large allocations mapped
 * (PARSER_MALLOC_MMAP_THRESHOLD). Cold index of the kernel's drivers/net, process-tree
 * peak PSS: 571 MB with glibc's defaults, 536-541 with two arenas, 524-529 with both.
 */
export function parserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2',
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? String(PARSER_MALLOC_MMAP_THRESHOLD),
    MALLOC_TRIM_THRESHOLD_: env.MALLOC_TRIM_THRESHOLD_ ?? String(2 * PARSER_MALLOC_MMAP_THRESHOLD),
  };
}

/** The last bytes of a dead parser's standard error are kept to say why it died. */
const STDERR_KEPT_BYTES = 4096;

function deathReason(stderr: string, code: number | null, signal: NodeJS.Signals | null, limits: HeapLimits): Error {
  if (/heap out of memory|Reached heap limit/i.test(stderr))
    return new Error(`parser process ran out of memory (${limits.maxOldGenerationSizeMb} MB heap)`);
  const last = stderr.trim().split('\n').filter(Boolean).pop();
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  return new Error(`parser process died (${how})${last ? `: ${last.slice(0, 200)}` : ''}`);
}

/**
 * A pool of parser processes; falls back to in-process extraction when the parser entry
 * is not built or one core is asked for. A parser that dies (out of memory on a
 * pathological file, or aborted inside the tree-sitter addon) fails only the job it was
 * running; it is replaced and its queued jobs run on the replacement, so one file never
 * stops an index or takes its neighbours down.
 *
 * **Decision:** processes, not worker threads. A thread that reaches its heap limit while
 * V8 is inside a native getter of the tree-sitter addon aborts the whole process: the
 * addon's `Napi::Error::ThrowAsJavaScriptException` cannot throw into a terminating
 * isolate and throws a C++ exception nothing catches (`terminate called after throwing an
 * instance of 'Napi::Error'`; node-addon-api leaves the cure, a compile-time define, to
 * each addon, and tree-sitter does not set it; 2 of 9 runs at 22–26 MB limits aborted).
 * A process that aborts takes only itself. Cost, cold index of the 57 MB cargo corpus
 * alternated twice: threads 20.7 and 20.3 s, process-tree peak PSS 356 and 380 MB;
 * processes 21.0 and 20.4 s, 391 and 398 MB (each process maps its own Node runtime).
 * Whole kernel, one run each: threads 477.1 s and 957 MB; processes 489.9 s and 1,009 MB
 * with glibc's defaults, 490.1 s and 930 MB with parserEnv's.
 */
export function createExtractor(options: PoolOptions | number = {}): Extractor {
  const opts: PoolOptions = typeof options === 'number' ? { parallelism: options } : options;
  const parallelism = opts.parallelism ?? defaultParallelism();
  const limits = opts.heapLimits ?? PARSER_HEAP_LIMITS;
  const script = opts.script ?? workerScript();
  if (!script || parallelism <= 1) return inProcessExtractor();
  const slots: Slot[] = [];
  let closing = false;
  let nextId = 1;
  const post = (slot: Slot, job: Job) => slot.child.send({ id: job.id, lang: job.lang, bytes: job.bytes });
  const enqueue = (job: Job) => {
    const live = slots.filter((s) => !s.failed);
    if (live.length === 0) return job.reject(slots[0].failed ?? new Error('no parser process'));
    const slot = live.reduce((x, y) => (y.jobs.length < x.jobs.length ? y : x));
    slot.jobs.push(job);
    post(slot, job);
  };
  const spawn = (slot: Slot) => {
    const child = fork(script, [], {
      serialization: 'advanced',
      execArgv: heapFlags(limits),
      env: parserEnv(process.env),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    slot.child = child;
    slot.running = undefined;
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT_BYTES);
    });
    child.on('message', (msg: ParserMessage) => {
      if (msg.kind === 'started') {
        slot.running = msg.id;
        return;
      }
      slot.running = undefined;
      slot.idleDeaths = 0;
      const at = slot.jobs.findIndex((j) => j.id === msg.id);
      if (at < 0) return;
      const [job] = slot.jobs.splice(at, 1);
      if (msg.ok && msg.value) job.resolve(msg.value);
      else job.reject(new Error(msg.message ?? 'parser answered without a value'));
    });
    // A send to a process that just died fails here; its exit settles the jobs.
    child.on('error', () => undefined);
    // 'close', not 'exit': by then standard error and every message it sent have been read.
    child.on('close', (code, signal) => {
      if (slot.child !== child) return;
      const jobs = slot.jobs;
      slot.jobs = [];
      if (closing) {
        for (const job of jobs) job.reject(new Error('parser pool closed'));
        return;
      }
      const reason = deathReason(stderr, code, signal, limits);
      const running = jobs.find((j) => j.id === slot.running);
      running?.reject(reason);
      slot.idleDeaths = running ? 0 : slot.idleDeaths + 1;
      if (slot.idleDeaths >= PARSER_IDLE_DEATHS_MAX) slot.failed = reason;
      else spawn(slot);
      for (const job of jobs) if (job !== running) enqueue(job);
    });
  };
  for (let i = 0; i < parallelism; i++) {
    const slot: Slot = { jobs: [], running: undefined, idleDeaths: 0, failed: undefined } as unknown as Slot;
    spawn(slot);
    slots.push(slot);
  }
  return {
    extract(lang, bytes) {
      return new Promise<Extraction>((resolve, reject) => enqueue({ id: nextId++, lang, bytes, resolve, reject }));
    },
    async close() {
      closing = true;
      await Promise.all(
        slots.map(
          (s) =>
            new Promise<void>((resolve) => {
              if (s.failed || s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
              s.child.once('close', () => resolve());
              s.child.kill();
            }),
        ),
      );
    },
  };
}
