// Worker-thread entry: one member's search, so members of a workspace search concurrently.
import { parentPort, workerData } from 'node:worker_threads';
import { searchMember, type MemberSearchRequest } from './member-search';

searchMember(workerData as MemberSearchRequest).then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (err: unknown) => parentPort!.postMessage({ ok: false, message: (err as Error).message ?? String(err) }),
);
