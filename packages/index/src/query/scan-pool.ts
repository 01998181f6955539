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
// The helper posts its results chunk by chunk and counts every file it finishes. The asking
// thread waits in slices: a helper that finishes no file for SCAN_HELPER_STALL_MS (it died,
// say of its heap limit, or is stuck in one file) or is still at work past the scan's
// deadline is terminated, the results it posted are kept and the asking thread reads the
// rest. One job at a time per helper; a terminated helper is replaced at the next scan, and
// after SCAN_HELPER_FAILURES_MAX failures in a row none is started again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import {
  FILE_MAX_BYTES,
  REGEX_MAX_BYTES_SCANNED,
  REGEX_MAX_HITS,
  SCAN_CHUNK_FILES,
  SCAN_HELPER_FAILURES_MAX,
  SCAN_HELPER_GRACE_MS,
  SCAN_HELPER_HEAP_LIMITS,
  type HeapLimits,
  SCAN_HELPER_MIN_FILES,
  SCAN_HELPER_STALL_MS,
} from '../limits';
import type { IndexedFile } from './reader';
import { liveReadBound, scanRegexFile, type PreparedRegex, type RegexFileScan, type RegexHelper } from './live';

/** Slots of the shared Int32Array. */
const NEXT_CHUNK = 0;
const HITS = 1;
/** Kilobytes read (the byte cap is far above 2^31 bytes' worth of kilobytes). */
const KB_READ = 2;
const STOP = 3;
const STATE = 4;
/**
 * Files either thread has finished. Once the asking thread has read its last chunk it reads
 * no more, so a count that still moves is the helper's sign of life.
 */
const FILES_DONE = 5;
const SLOTS = 6;

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
  /** Bytes each path may be read up to (live.ts liveReadBound), aligned with `paths`. */
  readonly bounds: readonly number[];
  readonly deadlineAt: number;
  readonly shared: SharedArrayBuffer;
}

/** A helper's answer for one chunk it finished: results by file index. */
export interface ScanAnswer {
  readonly id: number;
  readonly results: readonly (readonly [number, RegexFileScan])[];
}

/** What a thread does with its results: record each file's, and (the helper) post them after each chunk. */
export interface ChunkReader {
  record(index: number, result: RegexFileScan): void;
  chunkDone?(): void;
  /**
   * Whether this thread reads files over the index's bound (a file too large to index):
   * the helper does not, its heap is sized for indexed files (SCAN_HELPER_HEAP_LIMITS), and
   * a file it leaves is read by the asking thread (assembleRegexScan reads what is missing).
   */
  readonly readsLarge: boolean;
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
  bounds: readonly number[],
  re: PreparedRegex,
  deadlineAt: number,
  reader: ChunkReader,
): void {
  for (;;) {
    if (Atomics.load(counters, STOP) !== 0) return;
    const chunk = Atomics.add(counters, NEXT_CHUNK, 1);
    const first = chunk * SCAN_CHUNK_FILES;
    if (first >= paths.length) return;
    const last = Math.min(paths.length, first + SCAN_CHUNK_FILES);
    let stop = false;
    for (let i = first; i < last; i++) {
      if (bounds[i] > FILE_MAX_BYTES && !reader.readsLarge) continue;
      const r = scanRegexFile(root, paths[i], re, deadlineAt, bounds[i]);
      reader.record(i, r);
      Atomics.add(counters, FILES_DONE, 1);
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
    reader.chunkDone?.();
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
  /** Files the helper thread read and answered (0 when the asking thread finished before it took the job). */
  readonly helperFiles: number;
  /** Set when the helper was terminated in this scan: it finished no file for SCAN_HELPER_STALL_MS, or ran past the deadline. */
  readonly retired?: 'stalled' | 'deadline';
}

/** How a ScanPool runs its helper; the defaults are limits.ts's. */
export interface ScanPoolOptions {
  /** The helper's entry script; a pool whose script does not exist reads on the asking thread alone. */
  readonly script?: string;
  /** Fewer candidates than this are read by the asking thread alone. */
  readonly minFiles?: number;
  /** The helper thread's heap. */
  readonly heapLimits?: HeapLimits;
  /** A helper that finishes no file for this long is terminated. */
  readonly stallMs?: number;
}

/** A process's `re:` helper thread, started on first use. */
export class ScanPool implements RegexHelper {
  private helper: Helper | undefined;
  private nextId = 1;
  /** Helpers in a row that failed (died, stalled, ran past a deadline); reset by one that answers. */
  private failures = 0;
  /** The last scan's report (diagnostics and tests). */
  lastScan: HelperReport | undefined;

  private readonly script: string | undefined;
  private readonly minFiles: number;
  private readonly heapLimits: HeapLimits;
  private readonly stallMs: number;

  constructor(options: ScanPoolOptions = {}) {
    const script = options.script ?? HELPER_SCRIPT;
    this.script = fs.existsSync(script) ? script : undefined;
    this.minFiles = options.minFiles ?? SCAN_HELPER_MIN_FILES;
    this.heapLimits = options.heapLimits ?? SCAN_HELPER_HEAP_LIMITS;
    this.stallMs = options.stallMs ?? SCAN_HELPER_STALL_MS;
  }

  /** Whether a helper thread can be started (the compiled entry exists, and helpers have not kept failing). */
  get available(): boolean {
    return this.script !== undefined && this.failures < SCAN_HELPER_FAILURES_MAX;
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
    const bounds = files.map(liveReadBound);
    const id = this.nextId++;
    const job: ScanJob = { id, root, pattern, paths, bounds, deadlineAt, shared };
    helper.worker.postMessage(job);
    const results = new Map<number, RegexFileScan>();
    readChunks(counters, root, paths, bounds, re, deadlineAt, {
      record: (i, r) => results.set(i, r),
      readsLarge: true,
    });
    Atomics.store(counters, STOP, 1);
    this.lastScan = { files: files.length, helperFiles: 0 };
    // A helper that has not taken the job yet (still starting) never will: nothing to wait for.
    if (Atomics.compareExchange(counters, STATE, POSTED, WITHDRAWN) === POSTED) return results;
    const retired = this.awaitHelper(counters, deadlineAt);
    // What the helper posted before it finished, died or was stopped: whole chunks.
    let helperFiles = 0;
    for (let m = receiveMessageOnPort(helper.answers); m; m = receiveMessageOnPort(helper.answers)) {
      const answer = m.message as ScanAnswer;
      if (answer.id !== id) continue; // a withdrawn or abandoned job's late answer
      for (const [i, r] of answer.results) if (!results.has(i)) results.set(i, r);
      helperFiles += answer.results.length;
    }
    this.lastScan = { files: files.length, helperFiles, ...(retired ? { retired } : {}) };
    if (retired) {
      this.failures++;
      this.retire();
    } else this.failures = 0;
    return results;
  }

  /**
   * Wait, in slices, until the helper has finished its job: undefined then, or why it must
   * be terminated (no file finished for a whole slice, or still at work past the deadline).
   */
  private awaitHelper(counters: Int32Array, deadlineAt: number): HelperReport['retired'] {
    let seen = Atomics.load(counters, FILES_DONE);
    for (;;) {
      const left = deadlineAt + SCAN_HELPER_GRACE_MS - Date.now();
      if (left <= 0) return Atomics.load(counters, STATE) === FINISHED ? undefined : 'deadline';
      Atomics.wait(counters, STATE, TAKEN, Math.min(left, this.stallMs));
      if (Atomics.load(counters, STATE) === FINISHED) return undefined;
      const now = Atomics.load(counters, FILES_DONE);
      if (now === seen && Date.now() < deadlineAt + SCAN_HELPER_GRACE_MS) return 'stalled';
      seen = now;
    }
  }

  /** Stop the helper thread (a process that ends calls it, or lets the unreferenced thread die with it). */
  close(): void {
    this.retire();
  }

  private started(): Helper | undefined {
    if (this.helper || !this.available || !this.script) return this.helper;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(this.script, {
      workerData: { answers: port2 },
      transferList: [port2],
      resourceLimits: this.heapLimits,
    });
    worker.unref();
    port1.unref();
    const helper = { worker, answers: port1 };
    // A helper that dies on its own (an error at start, its heap limit) counts as failed.
    const forget = () => {
      if (this.helper !== helper) return;
      this.helper = undefined;
      this.failures++;
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
