// A helper thread that reads `re:` candidates alongside the thread that asked, for
// long-lived processes (a daemon): a scan of thousands of candidate files is bound by one
// core's syscalls and memchr, and the machine has two.
//
// The search API is synchronous, so the asking thread does not wait on a promise: both
// threads take chunks of the candidate list from a shared counter (Atomics), the asking
// thread reads its chunks, then blocks in Atomics.wait until the helper has finished the
// chunk it holds, and takes the helper's results with receiveMessageOnPort. Chunks are
// taken in path order and each thread finishes the chunk it took, so the files read always
// form a prefix of the list; assembleRegexScan (live.ts) then builds the answer exactly as a
// single thread would, and reads itself any file the helper did not (a helper that is slow
// to start, has died, or ran out of time).
//
// One job at a time per helper; a helper that does not answer within the scan's deadline is
// terminated and replaced at the next scan.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import {
  REGEX_MAX_BYTES_SCANNED,
  REGEX_MAX_HITS,
  SCAN_CHUNK_FILES,
  SCAN_HELPER_GRACE_MS,
  SCAN_HELPER_HEAP_LIMITS,
  SCAN_HELPER_MIN_FILES,
} from '../limits';
import type { IndexedFile } from './reader';
import { scanRegexFile, type PreparedRegex, type RegexFileScan, type RegexHelper } from './live';

/** Slots of the shared Int32Array. */
const NEXT_CHUNK = 0;
const HITS = 1;
/** Kilobytes read (the byte cap is far above 2^31 bytes' worth of kilobytes). */
const KB_READ = 2;
const STOP = 3;
const STATE = 4;
const SLOTS = 5;

/** STATE values: the job is posted, the helper took it, the helper finished it, the asker took it back. */
const POSTED = 0;
const TAKEN = 1;
const FINISHED = 2;
const WITHDRAWN = 3;

/** The job the asking thread posts. */
export interface ScanJob {
  readonly id: number;
  readonly root: string;
  readonly pattern: string;
  readonly paths: readonly string[];
  readonly deadlineAt: number;
  readonly shared: SharedArrayBuffer;
}

/** The helper's answer: results by file index. */
export interface ScanAnswer {
  readonly id: number;
  readonly results: readonly (readonly [number, RegexFileScan])[];
}

/**
 * Take chunks from the shared counter and read their files until the list ends, the caps
 * are reached, another thread said stop, or the deadline passed. The same loop runs on both
 * threads.
 */
export function readChunks(
  counters: Int32Array,
  root: string,
  paths: readonly string[],
  re: PreparedRegex,
  deadlineAt: number,
  record: (index: number, result: RegexFileScan) => void,
): void {
  for (;;) {
    if (Atomics.load(counters, STOP) !== 0) return;
    const chunk = Atomics.add(counters, NEXT_CHUNK, 1);
    const first = chunk * SCAN_CHUNK_FILES;
    if (first >= paths.length) return;
    const last = Math.min(paths.length, first + SCAN_CHUNK_FILES);
    let stop = false;
    for (let i = first; i < last; i++) {
      const r = scanRegexFile(root, paths[i], re, deadlineAt);
      record(i, r);
      if (r.kind === 'deadline') {
        stop = true;
        break;
      }
      const readKb = Math.ceil(r.bytes / 1024);
      const kb = Atomics.add(counters, KB_READ, readKb) + readKb;
      const hits = r.match ? Atomics.add(counters, HITS, 1) + 1 : Atomics.load(counters, HITS);
      if (hits >= REGEX_MAX_HITS || kb * 1024 > REGEX_MAX_BYTES_SCANNED) stop = true;
    }
    // The chunk is finished either way: the files read stay a prefix of the list.
    if (stop) Atomics.store(counters, STOP, 1);
  }
}

/** The helper's side of a job: take it unless the asker withdrew it (it finished alone first). */
export function takeJob(counters: Int32Array): boolean {
  return Atomics.compareExchange(counters, STATE, POSTED, TAKEN) === POSTED;
}

/** The helper's side of a job: its answer is posted; wake the asker. */
export function finishJob(counters: Int32Array): void {
  Atomics.store(counters, STATE, FINISHED);
  Atomics.notify(counters, STATE);
}

/** The compiled helper entry beside this module (absent when running from TypeScript sources). */
const HELPER_SCRIPT = path.join(__dirname, 'scan-worker.js');

/** One helper thread and the port its answers come back on. */
interface Helper {
  readonly worker: Worker;
  readonly answers: MessagePort;
}

/** What the helper did in the last scan it was offered. */
export interface HelperReport {
  /** Candidate files of the scan. */
  readonly files: number;
  /** Files the helper thread read (0 when the asking thread finished before it took the job). */
  readonly helperFiles: number;
}

/** A process's `re:` helper thread, started on first use. */
export class ScanPool implements RegexHelper {
  private helper: Helper | undefined;
  private nextId = 1;
  /** The last scan's report (diagnostics and tests). */
  lastScan: HelperReport | undefined;

  private readonly script: string | undefined;

  constructor(
    /** The helper's entry script; a pool whose script does not exist reads on the asking thread alone. */
    script: string = HELPER_SCRIPT,
    /** Fewer candidates than this are read by the asking thread alone. */
    private readonly minFiles: number = SCAN_HELPER_MIN_FILES,
  ) {
    this.script = fs.existsSync(script) ? script : undefined;
  }

  /** Whether a helper thread can be started at all (the compiled entry exists). */
  get available(): boolean {
    return this.script !== undefined;
  }

  scanAlongside(
    root: string,
    files: readonly IndexedFile[],
    pattern: string,
    re: PreparedRegex,
    deadlineAt: number,
  ): ReadonlyMap<number, RegexFileScan> | undefined {
    if (files.length < this.minFiles) return undefined;
    const helper = this.started();
    if (!helper) return undefined;
    const shared = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const counters = new Int32Array(shared);
    const paths = files.map((f) => f.path);
    const id = this.nextId++;
    const job: ScanJob = { id, root, pattern, paths, deadlineAt, shared };
    helper.worker.postMessage(job);
    const results = new Map<number, RegexFileScan>();
    readChunks(counters, root, paths, re, deadlineAt, (i, r) => results.set(i, r));
    Atomics.store(counters, STOP, 1);
    this.lastScan = { files: files.length, helperFiles: 0 };
    // A helper that has not taken the job yet (still starting) never will: nothing to wait for.
    if (Atomics.compareExchange(counters, STATE, POSTED, WITHDRAWN) === POSTED) return results;
    const wait = Math.max(0, deadlineAt - Date.now()) + SCAN_HELPER_GRACE_MS;
    if (Atomics.wait(counters, STATE, TAKEN, wait) === 'timed-out' && Atomics.load(counters, STATE) !== FINISHED) {
      this.retire();
      return results;
    }
    for (let m = receiveMessageOnPort(helper.answers); m; m = receiveMessageOnPort(helper.answers)) {
      const answer = m.message as ScanAnswer;
      if (answer.id !== id) continue; // a withdrawn job's late answer
      for (const [i, r] of answer.results) if (!results.has(i)) results.set(i, r);
      this.lastScan = { files: files.length, helperFiles: answer.results.length };
      break;
    }
    return results;
  }

  /** Stop the helper thread (a process that ends calls it, or lets the unreferenced thread die with it). */
  close(): void {
    this.retire();
  }

  private started(): Helper | undefined {
    if (this.helper || !this.script) return this.helper;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(this.script, {
      workerData: { answers: port2 },
      transferList: [port2],
      resourceLimits: SCAN_HELPER_HEAP_LIMITS,
    });
    worker.unref();
    port1.unref();
    const helper = { worker, answers: port1 };
    const forget = () => {
      if (this.helper === helper) this.helper = undefined;
    };
    worker.once('error', forget);
    worker.once('exit', forget);
    this.helper = helper;
    return helper;
  }

  private retire(): void {
    const h = this.helper;
    this.helper = undefined;
    if (h) {
      h.answers.close();
      void h.worker.terminate();
    }
  }
}

/** The process's pool (readers of a long-lived process share its one helper thread). */
let processPool: ScanPool | undefined;

export function sharedScanPool(): ScanPool {
  processPool ??= new ScanPool();
  return processPool;
}
