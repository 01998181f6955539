// Helper-thread entry of scan-pool.ts: reads `re:` candidates for the thread that asked.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { prepareRegex, type RegexFileScan } from './live';
import { finishJob, readChunks, takeJob, type ScanAnswer, type ScanJob } from './scan-pool';

const answers = (workerData as { answers: MessagePort }).answers;

parentPort!.on('message', (job: ScanJob) => {
  const counters = new Int32Array(job.shared);
  if (!takeJob(counters)) return;
  const results: [number, RegexFileScan][] = [];
  try {
    readChunks(counters, job.root, job.paths, prepareRegex(job.pattern), job.deadlineAt, (i, r) =>
      results.push([i, r]),
    );
  } finally {
    const answer: ScanAnswer = { id: job.id, results };
    answers.postMessage(answer);
    finishJob(counters);
  }
});
