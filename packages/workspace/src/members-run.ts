// Runs member searches concurrently: one worker thread per member when several are
// searched (each loads its own index), in-process otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { IN_PROCESS_MEMBER_MAX } from './limits';
import { cutReason, searchMember, type MemberSearchRequest, type MemberSearchResult } from './member-search';

/** The compiled worker entry; absent when running from TypeScript sources (tests), which then search in-process. */
const WORKER_FILE = path.join(__dirname, 'member-worker.js');

function failed(req: MemberSearchRequest, message: string, started: number): MemberSearchResult {
  return {
    name: req.name, state: 'unavailable', reason: cutReason(`search failed: ${message}`), hits: [], found: 0, truncated: false,
    ownerCache: req.cacheDir, elapsedMs: Date.now() - started,
  };
}

function inWorker(req: MemberSearchRequest): Promise<MemberSearchResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: MemberSearchResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const worker = new Worker(WORKER_FILE, { workerData: req });
    worker.once('message', (m: { ok: true; result: MemberSearchResult } | { ok: false; message: string }) => {
      settle(m.ok ? m.result : failed(req, m.message, started));
      void worker.terminate();
    });
    worker.once('error', (err) => settle(failed(req, err.message, started)));
    worker.once('exit', (code) => settle(failed(req, `worker exited with code ${code}`, started)));
  });
}

export function runMemberSearches(reqs: readonly MemberSearchRequest[]): Promise<MemberSearchResult[]> {
  if (reqs.length <= IN_PROCESS_MEMBER_MAX || !fs.existsSync(WORKER_FILE)) {
    return Promise.all(reqs.map((req) => searchMember(req).catch((err: unknown) => failed(req, (err as Error).message, Date.now()))));
  }
  return Promise.all(reqs.map(inWorker));
}
