// Parser process entry: parses files in a child process so indexing uses both cores and a
// parser that dies (heap limit, an abort inside the tree-sitter addon) takes only itself.
import type { ExtractionLanguage } from '../classify';
import { treeCollector } from './collect';
import { extractFile } from './extract';
import type { ParserMessage } from './pool';

interface Job {
  id: number;
  lang: ExtractionLanguage;
  bytes: Uint8Array;
}

const collect = treeCollector();
const queue: Job[] = [];
let scheduled = false;

function say(msg: ParserMessage): void {
  process.send?.(msg);
}

/**
 * One job per turn of the event loop. The channel delivers every queued message in a
 * single turn, and syntax trees are only freed by finalizers that run between turns: a
 * batch handled in one turn kept all of its trees alive at once.
 */
function runNext(): void {
  scheduled = false;
  const job = queue.shift();
  if (!job) return;
  say({ kind: 'started', id: job.id });
  try {
    say({ kind: 'done', id: job.id, ok: true, value: extractFile(job.lang, job.bytes) });
  } catch (err) {
    say({ kind: 'done', id: job.id, ok: false, message: (err as Error).message });
  }
  collect(job.bytes.length);
  schedule();
}

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setImmediate(runNext);
}

process.on('message', (job: Job) => {
  queue.push(job);
  schedule();
});
// The pool closed or its process died: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
