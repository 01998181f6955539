// Building the history index (docs/history.md, "The history index"): the first-parent
// commits from HEAD, newest first, each with its changed paths and their -U0 hunks, read
// from one `git log --first-parent -m --no-renames -p -U0` and ended by the bounds of
// limits.ts. A HEAD that descends along first parents from the indexed head adds one
// segment of the new commits (the old bytes are kept as they are); any other HEAD (a
// force-push, a rebase, another branch) rebuilds. Renames are not looked for here: a walk
// asks Git about every commit that added the file it follows (log-index-source.ts), so
// rename detection stays exactly Git's `--follow`.
import * as fs from 'node:fs';
import { makeDirectories } from '@trufflepig/base';
import { fail, ok, type Outcome } from './errors';
import { runGit, streamGit, type StreamEnd } from './git';
import {
  HISTORY_INDEX_BUILD_MS,
  HISTORY_INDEX_COMMIT_FILES_MAX,
  HISTORY_INDEX_COMMITS_MAX,
  HISTORY_INDEX_DAYS_MAX,
  HISTORY_INDEX_FILE_BYTES_MAX,
  HISTORY_INDEX_GIT_BYTES_MAX,
  SUBJECT_MAX_CHARS,
} from './limits';
import {
  encodeCommit,
  encodeFileStart,
  encodeSegment,
  indexedCommitOf,
  type IndexCut,
  type IndexedCommit,
  type SegmentMeta,
} from './log-index-format';
import {
  acquireBuildLock,
  historyIndexDir,
  historyIndexFile,
  readIndexFile,
  removeLeftTemps,
  writeIndexFile,
} from './log-index-store';
import { LOG_FORMAT, parseLogRecord } from './parse-log';
import { openRepo } from './repo';

/** The bounds of one build; the defaults are limits.ts's (tests pass smaller ones). */
export interface IndexBounds {
  readonly commitsMax: number;
  readonly daysMax: number;
  readonly fileBytesMax: number;
  readonly gitBytesMax: number;
  readonly buildMs: number;
  readonly commitFilesMax: number;
}

export const DEFAULT_INDEX_BOUNDS: IndexBounds = {
  commitsMax: HISTORY_INDEX_COMMITS_MAX,
  daysMax: HISTORY_INDEX_DAYS_MAX,
  fileBytesMax: HISTORY_INDEX_FILE_BYTES_MAX,
  gitBytesMax: HISTORY_INDEX_GIT_BYTES_MAX,
  buildMs: HISTORY_INDEX_BUILD_MS,
  commitFilesMax: HISTORY_INDEX_COMMIT_FILES_MAX,
};

export interface BuildReport {
  /** built: a new file; updated: a segment added; current: the index was already at HEAD; busy: another build holds the lock; empty: no commit yet. */
  readonly outcome: 'built' | 'updated' | 'current' | 'busy' | 'empty';
  readonly dir: string;
  readonly head?: string;
  readonly commits: number;
  /** Commits read from Git by this build. */
  readonly read: number;
  readonly bytes: number;
  readonly cut?: SegmentMeta['cut'];
  /** Why an existing index was not extended. */
  readonly rebuilt?: string;
  readonly durationMs: number;
}

const DAY_MS = 86_400_000;

/** Room kept for a segment's meta line (hashes, counts, a cut's detail) within the file bound. */
const META_LINE_BYTES = 640;

/** Commits and their lines within the bounds, applied in order (newest first) as they arrive. */
class Bounded {
  readonly commits: IndexedCommit[] = [];
  readonly lines: string[] = [];
  private bytes = 0;
  private oldest = -Infinity;
  cut: SegmentMeta['cut'];

  constructor(
    private readonly bounds: IndexBounds,
    private readonly startBytes: number,
  ) {}

  /** Keep `c` (true), or end here (false, with `cut` set). */
  add(c: IndexedCommit, line = encodeCommit(c)): boolean {
    if (this.commits.length === 0) this.oldest = Date.parse(c.date) - this.bounds.daysMax * DAY_MS;
    const end = (reason: IndexCut, detail: string) => {
      this.cut = { reason, detail };
      return false;
    };
    if (this.commits.length >= this.bounds.commitsMax)
      return end('commits', `holds the newest ${this.bounds.commitsMax} commits`);
    if (Date.parse(c.date) < this.oldest)
      return end('days', `holds ${this.bounds.daysMax} days of commits before its head's date`);
    const size = Buffer.byteLength(line, 'utf8');
    if (this.startBytes + this.bytes + size > this.bounds.fileBytesMax)
      return end('bytes', `holds ${this.bounds.fileBytesMax} bytes of commits`);
    this.commits.push(c);
    this.lines.push(line);
    this.bytes += size;
    return true;
  }
}

const STREAM_CUT: Partial<Record<StreamEnd, IndexCut>> = {
  timed_out: 'time',
  too_large: 'git_bytes',
  failed: 'git_failed',
  unavailable: 'git_failed',
};

/** Stream `git log` of `revs` into `into` until a bound ends it; the run's end. */
async function readLog(
  top: string,
  revs: readonly string[],
  into: Bounded,
  bounds: IndexBounds,
): Promise<{ end: StreamEnd; reason: string }> {
  const args = [
    'log',
    '--first-parent',
    '-m',
    '--no-renames',
    '-p',
    '-U0',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    LOG_FORMAT,
    ...revs,
    '--',
  ];
  return streamGit(top, args, { timeoutMs: bounds.buildMs, maxBytes: bounds.gitBytesMax }, (raw) => {
    const rec = parseLogRecord(raw.toString('latin1'));
    if (rec === undefined) return true;
    return into.add(indexedCommitOf(rec, SUBJECT_MAX_CHARS, bounds.commitFilesMax));
  });
}

/** A stream's end as the build's cut, when it ended the build early (a stop by a bound already set `cut`). */
function cutOf(run: { end: StreamEnd; reason: string }, into: Bounded): SegmentMeta['cut'] {
  if (into.cut) return into.cut;
  const reason = STREAM_CUT[run.end];
  return reason ? { reason, detail: run.reason } : undefined;
}

/**
 * Build or update the history index of the repository `root` is in, under `cacheBase`.
 * Takes the repository's build lock (a held lock answers `busy` at once); never leaves a
 * partial file: the new file replaces the old one whole.
 */
export async function buildHistoryIndex(
  root: string,
  cacheBase: string,
  options: { readonly bounds?: Partial<IndexBounds> } = {},
): Promise<Outcome<BuildReport>> {
  const started = Date.now();
  const bounds: IndexBounds = { ...DEFAULT_INDEX_BOUNDS, ...options.bounds };
  const opened = openRepo(root);
  if (!opened.ok) return opened;
  const repo = opened.value;
  const dir = historyIndexDir(cacheBase, repo.commonDir);
  const report = (r: Omit<BuildReport, 'dir' | 'durationMs'>): Outcome<BuildReport> =>
    ok({ ...r, dir, durationMs: Date.now() - started });
  if (repo.head === undefined) return report({ outcome: 'empty', commits: 0, read: 0, bytes: 0 });
  makeDirectories(dir);
  const release = acquireBuildLock(dir);
  if (release === undefined) return report({ outcome: 'busy', commits: 0, read: 0, bytes: 0 });
  try {
    removeLeftTemps(dir);
    const head = repo.head;
    const old = readIndexFile(dir, repo.commonDir);
    let rebuilt: string | undefined;
    if (old.state === 'ok') {
      const oldHead = old.index.segments[old.index.segments.length - 1].head;
      if (oldHead === head)
        return report({
          outcome: 'current',
          head,
          commits: old.index.commits.length,
          read: 0,
          bytes: old.bytes,
          ...(old.index.segments[0].cut ? { cut: old.index.segments[0].cut } : {}),
        });
      const fresh = new Bounded(bounds, 0);
      const run = await readLog(repo.top, [head, '--not', oldHead], fresh, bounds);
      const joins =
        fresh.commits.length > 0 && run.end === 'ok' && fresh.commits[fresh.commits.length - 1].parents[0] === oldHead;
      if (joins) {
        const all = new Bounded(bounds, encodeFileStart({ common_dir: repo.commonDir }).length + META_LINE_BYTES);
        const fits = [...fresh.commits, ...old.index.commits].every((c) => all.add(c));
        const now = new Date().toISOString();
        if (fits) {
          const seg = encodeSegment(fresh.lines, fresh.commits, now);
          writeIndexFile(dir, [old.raw, seg.bytes]);
          return report({
            outcome: 'updated',
            head,
            commits: all.commits.length,
            read: fresh.commits.length,
            bytes: old.raw.length + seg.bytes.length,
            ...(old.index.segments[0].cut ? { cut: old.index.segments[0].cut } : {}),
          });
        }
        // Past a bound with the new commits: the oldest go, and the rest is one segment.
        const start = encodeFileStart({ common_dir: repo.commonDir });
        const seg = encodeSegment(all.lines, all.commits, now, all.cut);
        writeIndexFile(dir, [start, seg.bytes]);
        return report({
          outcome: 'built',
          head,
          commits: all.commits.length,
          read: fresh.commits.length,
          bytes: start.length + seg.bytes.length,
          ...(all.cut ? { cut: all.cut } : {}),
          rebuilt: 'a bound dropped the oldest commits',
        });
      }
      const descends = runGit(repo.top, ['merge-base', '--is-ancestor', oldHead, head]).state === 'ok';
      rebuilt = !descends
        ? `HEAD ${head.slice(0, 12)} does not descend from the indexed head ${oldHead.slice(0, 12)} (a force-push, a rebase, another branch)`
        : `the indexed head ${oldHead.slice(0, 12)} is not on HEAD's first-parent line`;
    } else if (old.state === 'corrupt') rebuilt = `the old file was refused: ${old.reason}`;
    else if (old.state === 'foreign') rebuilt = `the old file described ${old.commonDir}`;
    const start = encodeFileStart({ common_dir: repo.commonDir });
    const all = new Bounded(bounds, start.length + META_LINE_BYTES);
    const run = await readLog(repo.top, [head], all, bounds);
    if (all.commits.length === 0 && all.cut !== undefined) {
      // Not even HEAD's commit fits the bounds: no index (every walk reads Git).
      fs.rmSync(historyIndexFile(dir), { force: true });
      return report({
        outcome: 'built',
        head,
        commits: 0,
        read: 0,
        bytes: 0,
        cut: all.cut,
        ...(rebuilt ? { rebuilt } : {}),
      });
    }
    if (all.commits.length === 0) {
      return run.end === 'unavailable'
        ? fail('git_unavailable', `${run.reason}; install git to build the history index`)
        : fail('git_failed', `git log failed: ${run.reason || 'no commit read'}`);
    }
    const cut = cutOf(run, all);
    const seg = encodeSegment(all.lines, all.commits, new Date().toISOString(), cut);
    writeIndexFile(dir, [start, seg.bytes]);
    return report({
      outcome: 'built',
      head,
      commits: all.commits.length,
      read: all.commits.length,
      bytes: start.length + seg.bytes.length,
      ...(cut ? { cut } : {}),
      ...(rebuilt ? { rebuilt } : {}),
    });
  } finally {
    release();
  }
}
