// The records a `hist` walk reads, from the history index where it covers them and from
// Git where it does not (docs/history.md, "The history index"). Both hand the walk the
// records `git log --first-parent -m --follow -p -U0 REV -- PATH` would: the commits, newest
// first, whose first-parent diff touches the path the walk follows now (the walk changes
// it at a rename). From the index, a commit that modified the path is its stored hunks; a
// commit that added it (where --follow looks for a rename), and one whose file list was
// cut, are asked of Git for that one commit (`C^!`), so renames are exactly Git's. New
// commits above the index's head are read from Git first; past the index's oldest commit,
// Git goes on.
import { runGit, streamGit, type StreamEnd } from './git';
import * as fs from 'node:fs';
import { HISTORY_INDEX_GAP_COMMITS_MAX, HISTORY_INDEXES_LOADED_MAX } from './limits';
import type { IndexedCommit, SegmentMeta } from './log-index-format';
import { historyIndexDir, historyIndexFile, readIndexFile, type IndexRead } from './log-index-store';
import { LOG_FORMAT, parseLogRecord, type LogRecord } from './parse-log';
import { gitArg, type Repo } from './repo';

/** A history index loaded for walks: its commits newest first and lookups over them. */
export class LoadedHistoryIndex {
  readonly position: ReadonlyMap<string, number>;
  /** Positions of commits whose file list was cut (a walk asks Git about each it passes). */
  readonly cuts: readonly number[];
  private byPath?: Map<string, number[]>;

  constructor(
    readonly commits: readonly IndexedCommit[],
    readonly segments: readonly SegmentMeta[],
    readonly bytes: number,
  ) {
    const position = new Map<string, number>();
    const cuts: number[] = [];
    commits.forEach((c, i) => {
      position.set(c.commit, i);
      if (c.cut) cuts.push(i);
    });
    this.position = position;
    this.cuts = cuts;
  }

  get head(): string {
    return this.commits[0].commit;
  }

  /** The index reaches a commit without parents: nothing older to read. */
  get complete(): boolean {
    return this.commits[this.commits.length - 1].parents.length === 0;
  }

  /** Positions (ascending: newest first) of the commits that changed or added `path`. */
  touching(path: string): readonly number[] {
    if (this.byPath === undefined) {
      const map = new Map<string, number[]>();
      this.commits.forEach((c, i) => {
        for (const f of c.files) {
          const list = map.get(f.afterPath);
          if (list === undefined) map.set(f.afterPath, [i]);
          else if (list[list.length - 1] !== i) list.push(i);
        }
      });
      this.byPath = map;
    }
    return this.byPath.get(path) ?? [];
  }
}

/**
 * Indexes loaded by this process, by file: a daemon answers many walks, and reading and
 * checking the whole file each time was most of an indexed walk. An entry is used only
 * while the file is the same one (device, inode, size and modification time: a build
 * replaces the file by a rename, so a new generation is a new inode).
 */
const loaded = new Map<string, { readonly stamp: string; readonly index: LoadedHistoryIndex }>();

function fileStamp(file: string): string | undefined {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/** The index of `repo` under `cacheBase`, when one is there and reads whole; else why not (for coverage). */
export function loadHistoryIndex(
  repo: Repo,
  cacheBase: string,
): { index?: LoadedHistoryIndex; read: IndexRead['state'] } {
  const dir = historyIndexDir(cacheBase, repo.commonDir);
  const file = historyIndexFile(dir);
  const stamp = fileStamp(file);
  const memo = loaded.get(file);
  if (stamp !== undefined && memo?.stamp === stamp) return { index: memo.index, read: 'ok' };
  let read: IndexRead;
  try {
    read = readIndexFile(dir, repo.commonDir);
  } catch {
    return { read: 'corrupt' };
  }
  if (read.state !== 'ok') return { read: read.state };
  const index = new LoadedHistoryIndex(read.index.commits, read.index.segments, read.bytes);
  // The stamp taken before the read: a file replaced meanwhile is read again next time.
  if (stamp !== undefined) {
    loaded.delete(file);
    loaded.set(file, { stamp, index });
    while (loaded.size > HISTORY_INDEXES_LOADED_MAX) loaded.delete(loaded.keys().next().value as string);
  }
  return { index, read: 'ok' };
}

/** The first value of ascending `list` at or after `from` (Infinity: none). */
function firstAtLeast(list: readonly number[], from: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : Infinity;
}

export interface RecordRun {
  readonly end: StreamEnd;
  readonly reason: string;
}

export interface RecordSource {
  readonly repo: Repo;
  readonly index?: LoadedHistoryIndex;
  /** Milliseconds left for the next Git run. */
  readonly remaining: () => number;
  /** Records handed over from the index (not read from Git). */
  fromIndex: number;
  /** Where the commits above the index's head end, per starting revision (one gap search a walk). */
  readonly gaps: Map<string, string | null>;
}

const FOLLOW_ARGS = [
  'log',
  '--first-parent',
  '-m',
  '--follow',
  '-p',
  '-U0',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  LOG_FORMAT,
];

function streamFromGit(
  src: RecordSource,
  revs: readonly string[],
  path: string,
  onRecord: (rec: LogRecord) => boolean,
): Promise<RecordRun> {
  const arg = gitArg(path);
  if (arg === undefined)
    return Promise.resolve({ end: 'failed', reason: 'a path that is not UTF-8 cannot be passed to Git' });
  return streamGit(src.repo.top, [...FOLLOW_ARGS, ...revs, '--', arg], { timeoutMs: src.remaining() }, (raw) => {
    const rec = parseLogRecord(raw.toString('latin1'));
    return rec === undefined ? true : onRecord(rec);
  });
}

/** Git's own record of one commit for `path` (`C^!`): undefined when the commit does not touch it. */
function askGit(src: RecordSource, commit: string, path: string): { rec?: LogRecord } | { failed: string } {
  const arg = gitArg(path);
  if (arg === undefined) return { failed: 'a path that is not UTF-8 cannot be passed to Git' };
  const run = runGit(src.repo.top, [...FOLLOW_ARGS, `${commit}^!`, '--', arg], { timeoutMs: src.remaining() });
  if (run.state !== 'ok') return { failed: run.reason };
  const text = run.stdout.toString('latin1');
  if (text.length === 0) return {};
  const rec = parseLogRecord(text);
  return rec !== undefined && rec.commit === commit
    ? { rec }
    : { failed: `git log ${commit.slice(0, 12)}^! printed no record of it` };
}

/**
 * The index position the walk from `rev` reaches after reading the commits above the
 * index's head from Git: `rev`'s own position, the commit where its first-parent line
 * meets the index (the gap before it read from Git with `--not`), or null (Git throughout).
 */
function meetingPoint(src: RecordSource, index: LoadedHistoryIndex, rev: string): string | null {
  if (index.position.has(rev)) return rev;
  const known = src.gaps.get(rev);
  if (known !== undefined) return known;
  const run = runGit(
    src.repo.top,
    [
      'rev-list',
      '--first-parent',
      '--parents',
      `--max-count=${HISTORY_INDEX_GAP_COMMITS_MAX + 1}`,
      rev,
      '--not',
      index.head,
    ],
    { timeoutMs: src.remaining() },
  );
  let meet: string | null = null;
  const rows = run.state === 'ok' ? run.stdout.toString('utf8').trim().split('\n').filter(Boolean) : [];
  if (rows.length > 0 && rows.length <= HISTORY_INDEX_GAP_COMMITS_MAX) {
    const parent = rows[rows.length - 1].split(' ')[1];
    if (parent !== undefined && index.position.has(parent)) meet = parent;
  }
  src.gaps.set(rev, meet);
  return meet;
}

/**
 * Hand `onRecord` the records of `git log --first-parent -m --follow -p -U0 REV -- PATH`
 * for the path `path()` names as the walk goes, from the index where it can; `onRecord`
 * returns false to stop. The end is a Git run's end (`stopped` when the walk stopped it).
 */
export async function followRecords(
  src: RecordSource,
  rev: string,
  path: () => string,
  onRecord: (rec: LogRecord) => boolean,
): Promise<RecordRun> {
  const index = src.index;
  const meet = index === undefined ? null : meetingPoint(src, index, rev);
  if (index === undefined || meet === null) return streamFromGit(src, [rev], path(), onRecord);
  if (meet !== rev) {
    const gap = await streamFromGit(src, [rev, '--not', meet], path(), onRecord);
    if (gap.end !== 'ok') return gap;
  }
  let pos = index.position.get(meet)!;
  for (;;) {
    const p = path();
    const next = Math.min(firstAtLeast(index.touching(p), pos), firstAtLeast(index.cuts, pos));
    if (next === Infinity) break;
    pos = next + 1;
    const c = index.commits[next];
    const file = c.files.find((f) => f.afterPath === p);
    let rec: LogRecord | undefined;
    if (c.cut || (file !== undefined && file.status !== 'modified' && c.parents.length > 0)) {
      const asked = askGit(src, c.commit, p);
      if ('failed' in asked) return { end: 'failed', reason: asked.failed };
      rec = asked.rec;
    } else if (file !== undefined) {
      rec = { commit: c.commit, parents: c.parents, date: c.date, subject: c.subject, files: [file] };
      src.fromIndex++;
    }
    if (rec !== undefined && !onRecord(rec)) return { end: 'stopped', reason: '' };
    if (src.remaining() <= 1) return { end: 'timed_out', reason: 'the walk ran past its deadline' };
  }
  if (index.complete) return { end: 'ok', reason: '' };
  // Older than the index holds: Git goes on from there, on the path followed now.
  return streamFromGit(src, [index.commits[index.commits.length - 1].parents[0]], path(), onRecord);
}
