// Runs the member searches of one query. A search is CPU-bound and its first run in a
// thread is dominated by start-up (modules, the SQLite engine, JIT warm-up: ~150 ms
// measured on the workspace benchmark) while a warm search of a small member costs tens
// of milliseconds. So members share this thread, and only a member whose index is large
// enough to outweigh a thread's start-up gets a worker thread of its own, never more
// threads than cores (docs/workspace.md, "Concurrency").
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { indexPath } from '@trufflepig/index';
import { WORKER_MIN_INDEX_BYTES } from '../core/limits';
import type { Host } from '../core/host';
import { cutReason, searchMember, type MemberSearchRequest, type MemberSearchResult } from './member-search';

/** The compiled worker entry; absent when running from TypeScript sources (tests), which then search in-process. */
const WORKER_FILE = path.join(__dirname, 'member-worker.js');

function failed(req: MemberSearchRequest, message: string, started: number): MemberSearchResult {
  return {
    name: req.name,
    state: 'unavailable',
    reason: cutReason(`search failed: ${message}`),
    hits: [],
    found: 0,
    truncated: false,
    ownerCache: req.cacheDir,
    elapsedMs: Date.now() - started,
  };
}

type WorkerMessage =
  { index: number; ok: true; result: MemberSearchResult } | { index: number; ok: false; message: string };

/** One worker thread searching `reqs` in order; a crash fails the members it had not answered. */
function inWorker(reqs: readonly MemberSearchRequest[]): Promise<MemberSearchResult>[] {
  const started = Date.now();
  const settle: ((r: MemberSearchResult) => void)[] = [];
  const done = reqs.map(() => false);
  const promises = reqs.map((_, i) => new Promise<MemberSearchResult>((resolve) => (settle[i] = resolve)));
  const answer = (i: number, r: MemberSearchResult) => {
    if (!done[i]) {
      done[i] = true;
      settle[i](r);
    }
  };
  const worker = new Worker(WORKER_FILE, { workerData: reqs });
  worker.on('message', (m: WorkerMessage) => {
    answer(m.index, m.ok ? m.result : failed(reqs[m.index], m.message, started));
    if (done.every(Boolean)) void worker.terminate();
  });
  const failAll = (message: string) => reqs.forEach((req, i) => answer(i, failed(req, message, started)));
  worker.once('error', (err) => failAll(err.message));
  worker.once('exit', (code) => failAll(`worker exited with code ${code}`));
  return promises;
}

function timedOut(req: MemberSearchRequest): MemberSearchResult {
  return {
    name: req.name,
    state: 'timed_out',
    hits: [],
    found: 0,
    truncated: false,
    ownerCache: req.cacheDir,
    elapsedMs: 0,
  };
}

async function inProcess(reqs: readonly MemberSearchRequest[], deadlineAt?: number): Promise<MemberSearchResult[]> {
  const out: MemberSearchResult[] = [];
  for (const req of reqs) {
    if (deadlineAt !== undefined && Date.now() > deadlineAt) out.push(timedOut(req));
    else out.push(await searchMember(req).catch((err: unknown) => failed(req, (err as Error).message, Date.now())));
  }
  return out;
}

/** WORKER_MIN_INDEX_BYTES, or TRUFFLEPIG_WORKER_MIN_INDEX_BYTES when set (tests and tuning on other machines). */
function workerMinIndexBytes(): number {
  const value = Number(process.env.TRUFFLEPIG_WORKER_MIN_INDEX_BYTES);
  return process.env.TRUFFLEPIG_WORKER_MIN_INDEX_BYTES !== undefined && Number.isFinite(value) && value >= 0
    ? value
    : WORKER_MIN_INDEX_BYTES;
}

/** Size of a member's published index: a cheap stand-in for how long its search takes. */
function indexBytes(req: MemberSearchRequest): number {
  try {
    return fs.statSync(indexPath(req.cacheDir)).size;
  } catch {
    return 0;
  }
}

/**
 * Which member runs on which thread (lane 0 is this thread). The largest index stays
 * here; the next largest ones at or above `minWorkerBytes` get a worker each, up to
 * `threads - 1` workers; everything else runs here after the largest.
 */
export function assignThreads(sizes: readonly number[], threads: number, minWorkerBytes: number): number[][] {
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
  const lanes: number[][] = [[]];
  for (const i of order) {
    const isLargest = i === order[0];
    if (!isLargest && sizes[i] >= minWorkerBytes && lanes.length < threads) lanes.push([i]);
    else lanes[0].push(i);
  }
  return lanes;
}

/**
 * `deadlineAt` (a daemon-backed query): members not reached by then report timed_out. In
 * a long-lived process every member runs on its thread, where its index stays warm.
 */
export async function runMemberSearches(
  host: Host,
  reqs: readonly MemberSearchRequest[],
  deadlineAt?: number,
): Promise<MemberSearchResult[]> {
  if (reqs.length <= 1 || !fs.existsSync(WORKER_FILE) || host.readers) return inProcess(reqs, deadlineAt);
  const lanes = assignThreads(reqs.map(indexBytes), Math.max(1, os.availableParallelism()), workerMinIndexBytes());
  const results = new Array<Promise<MemberSearchResult>>(reqs.length);
  // Workers first, so they start up while this thread searches its own share.
  for (const lane of lanes.slice(1)) {
    if (lane.length === 0) continue;
    inWorker(lane.map((i) => reqs[i])).forEach((p, k) => (results[lane[k]] = p));
  }
  const local = inProcess(lanes[0].map((i) => reqs[i]));
  lanes[0].forEach((i, k) => (results[i] = local.then((rs) => rs[k])));
  return Promise.all(results);
}
