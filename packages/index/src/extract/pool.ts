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

/** A pool of parser threads; falls back to in-process extraction when workers are unavailable. */
export function createExtractor(parallelism = defaultParallelism()): Extractor {
  const script = workerScript();
  if (!script || parallelism <= 1) return inProcessExtractor();
  const workers: Worker[] = [];
  const load: number[] = [];
  const pending = new Map<number, { resolve: (x: Extraction) => void; reject: (e: Error) => void; worker: number }>();
  let nextId = 1;
  for (let i = 0; i < parallelism; i++) {
    const w = new Worker(script);
    w.on('message', (msg: { id: number; ok: boolean; value?: Extraction; message?: string }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      load[p.worker]--;
      if (msg.ok) p.resolve(msg.value!);
      else p.reject(new Error(msg.message));
    });
    w.on('error', (err) => {
      for (const [id, p] of pending) if (p.worker === i) { pending.delete(id); p.reject(err); }
    });
    workers.push(w);
    load.push(0);
  }
  return {
    extract(lang, bytes) {
      let pick = 0;
      for (let i = 1; i < workers.length; i++) if (load[i] < load[pick]) pick = i;
      const id = nextId++;
      load[pick]++;
      return new Promise<Extraction>((resolve, reject) => {
        pending.set(id, { resolve, reject, worker: pick });
        workers[pick].postMessage({ id, lang, bytes });
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
