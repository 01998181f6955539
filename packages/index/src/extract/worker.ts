// Worker-thread entry: parses files off the main thread so indexing uses both cores.
import { parentPort } from 'node:worker_threads';
import type { Language } from '../classify';
import { treeCollector } from './collect';
import { extractFile } from './extract';

interface Job { id: number; lang: Language; bytes: Uint8Array }

const collect = treeCollector();

parentPort?.on('message', (job: Job) => {
  try {
    parentPort!.postMessage({ id: job.id, ok: true, value: extractFile(job.lang, job.bytes) });
  } catch (err) {
    parentPort!.postMessage({ id: job.id, ok: false, message: (err as Error).message });
  }
  collect(job.bytes.length);
});
