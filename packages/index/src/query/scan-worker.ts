// Helper-thread entry of scan-pool.ts: reads `re:` candidates for the thread that asked.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { prepareRegex, type RegexFileScan } from './live';
import { finishJob, readChunks, takeJob, type ScanAnswer, type ScanJob } from './scan-pool';

const answers = (workerData as { answers: MessagePort }).answers;

parentPort!.on('message', (job: ScanJob) => {
  const counters = new Int32Array(job.shared);
  if (!takeJob(counters)) return;
  let results: [number, RegexFileScan][] = [];
  // Each chunk's results go out as it ends: what was read survives this thread's death.
  const post = () => {
    if (results.length === 0) return;
    const answer: ScanAnswer = { id: job.id, results };
    answers.postMessage(answer);
    results = [];
  };
  try {
    readChunks(counters, job.root, job.paths, job.bounds, prepareRegex(job.pattern), job.deadlineAt, {
      record: (i, r) => results.push([i, r]),
      chunkDone: post,
      readsLarge: false,
    });
  } finally {
    post();
    finishJob(counters);
  }
});
