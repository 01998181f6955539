// Worker-thread entry: the member searches assigned to this thread, one after another,
// each result posted as soon as it is ready.
import { parentPort, workerData } from 'node:worker_threads';
import { searchMember, type MemberSearchRequest } from './member-search';

async function run(reqs: readonly MemberSearchRequest[]): Promise<void> {
  for (let i = 0; i < reqs.length; i++) {
    try {
      parentPort!.postMessage({ index: i, ok: true, result: await searchMember(reqs[i]) });
    } catch (err) {
      parentPort!.postMessage({ index: i, ok: false, message: (err as Error).message ?? String(err) });
    }
  }
}

void run(workerData as MemberSearchRequest[]);
