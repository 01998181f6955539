import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Language } from '../classify';
import { treeCollector } from './collect';
import { extractFile } from './extract';
import type { Extraction } from './facts';

export interface Extractor {
  extract(lang: Language, bytes: Uint8Array): Promise<Extraction>;
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

/** Default parallelism: every core; the main thread's hashing and inserts overlap with parsing. */
export function defaultParallelism(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * Heap limits of a parser thread. Without them V8 let each thread's heap fill with
 * extraction garbage (a 350 KB generated Rust file left ~85 MB behind); with them the
 * cold index of the Debian corpus peaked at 443 MB instead of 487-498 MB, at equal speed.
 */
export const PARSER_HEAP_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 } as const;

export interface PoolOptions {
  readonly parallelism?: number;
  readonly heapLimits?: { readonly maxOldGenerationSizeMb: number; readonly maxYoungGenerationSizeMb: number };
}

interface Job {
  id: number;
  lang: Language;
  bytes: Uint8Array;
  resolve: (x: Extraction) => void;
  reject: (e: Error) => void;
}

/** A parser thread and the jobs it holds, in the order it runs them. */
interface Slot {
  worker: Worker;
  jobs: Job[];
}

/**
 * A pool of parser threads; falls back to in-process extraction when workers are
 * unavailable. A thread that dies (out of memory on a pathological file) fails only the
 * job it was running; it is replaced and its queued jobs run on the replacement, so one
 * file never stops an index or takes its neighbours down.
 */
export function createExtractor(options: PoolOptions | number = {}): Extractor {
  const opts: PoolOptions = typeof options === 'number' ? { parallelism: options } : options;
  const parallelism = opts.parallelism ?? defaultParallelism();
  const script = workerScript();
  if (!script || parallelism <= 1) return inProcessExtractor();
  const slots: Slot[] = [];
  let closing = false;
  let nextId = 1;
  const post = (slot: Slot, job: Job) => slot.worker.postMessage({ id: job.id, lang: job.lang, bytes: job.bytes });
  const spawn = (slot: Slot) => {
    const w = new Worker(script, { resourceLimits: opts.heapLimits ?? PARSER_HEAP_LIMITS });
    slot.worker = w;
    let failure: Error | undefined;
    w.on('message', (msg: { id: number; ok: boolean; value?: Extraction; message?: string }) => {
      const at = slot.jobs.findIndex((j) => j.id === msg.id);
      if (at < 0) return;
      const [job] = slot.jobs.splice(at, 1);
      if (msg.ok) job.resolve(msg.value!);
      else job.reject(new Error(msg.message));
    });
    w.on('error', (err) => {
      failure = err;
    });
    w.on('exit', () => {
      if (slot.worker !== w) return;
      const [running, ...queued] = slot.jobs;
      slot.jobs = [];
      if (closing) {
        for (const job of [running, ...queued]) job?.reject(new Error('parser pool closed'));
        return;
      }
      running?.reject(failure ?? new Error('parser thread exited'));
      spawn(slot);
      for (const job of queued) {
        slot.jobs.push(job);
        post(slot, job);
      }
    });
  };
  for (let i = 0; i < parallelism; i++) {
    const slot = { jobs: [] } as unknown as Slot;
    spawn(slot);
    slots.push(slot);
  }
  return {
    extract(lang, bytes) {
      const slot = slots.reduce((a, b) => (b.jobs.length < a.jobs.length ? b : a));
      return new Promise<Extraction>((resolve, reject) => {
        const job = { id: nextId++, lang, bytes, resolve, reject };
        slot.jobs.push(job);
        post(slot, job);
      });
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
