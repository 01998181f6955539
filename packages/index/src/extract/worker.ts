// Worker-thread entry: parses files off the main thread so indexing uses both cores.
import { parentPort } from 'node:worker_threads';
import type { Language } from '../classify';
import { treeCollector } from './collect';
import { extractFile } from './extract';

interface Job {
  id: number;
  lang: Language;
  bytes: Uint8Array;
}

const collect = treeCollector();
const queue: Job[] = [];
let scheduled = false;

/**
 * One job per turn of the event loop. A message port delivers every queued message in a
 * single turn, and syntax trees are only freed by finalizers that run between turns: a
 * batch handled in one turn kept all of its trees alive at once.
 */
function runNext(): void {
  scheduled = false;
  const job = queue.shift();
  if (!job) return;
  try {
    parentPort!.postMessage({ id: job.id, ok: true, value: extractFile(job.lang, job.bytes) });
  } catch (err) {
    parentPort!.postMessage({ id: job.id, ok: false, message: (err as Error).message });
  }
  collect(job.bytes.length);
  schedule();
}

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setImmediate(runNext);
}

parentPort?.on('message', (job: Job) => {
  queue.push(job);
  schedule();
});
