// `hist`: the first-parent commits that changed a target, newest first, read from Git
// directly (docs/history.md). One `git log --first-parent -m --follow -p -U0` per file
// the target lived in, streamed and stopped as soon as the target's history in that file
// ends; the target's lines are mapped back through every hunk (ranges.ts), and when a
// commit added all of them, the parent's versions of the files it changed are searched
// for the definition it was moved from (origin.ts), and the walk goes on there.
import { createHash } from 'node:crypto';
import { extractFile, extractionLanguageOf } from '@trufflepig/index';
import { readBlobs } from './blob';
import { countEdits, diffLines } from './diff';
import { ok, type Outcome } from './errors';
import { runGit, type StreamEnd } from './git';
import {
  EXTRACTED_BLOBS_MAX,
  GIT_TIMEOUT_MS,
  HIST_COMMITS_MAX,
  HIST_DEADLINE_MS,
  HIST_MOVES_MAX,
  HIST_SCANNED_COMMITS_MAX,
  MOVE_CANDIDATE_FILES_MAX,
  SUBJECT_MAX_CHARS,
} from './limits';
import { chooseOrigin, linesOf, type Origin, type OriginCandidate } from './origin';
import { followRecords, type LoadedHistoryIndex, type RecordSource } from './log-index-source';
import type { FileDiff, LogRecord } from './parse-log';
import { mapRangeBack, wholeFileCounts, type LineRange } from './ranges';
import { gitArg, gitFailure, type Repo } from './repo';

/** What `hist` follows: a file (whole) or lines of it, as they are in HEAD. */
export interface HistTarget {
  /** Byte-string path from the top level. */
  readonly path: string;
  /** The target's lines in HEAD; undefined: the whole file. */
  readonly range?: LineRange;
  /** The definition's name, when it is one (a move keeps it, or keeps its lines). */
  readonly name?: string;
}

export interface HistSide {
  readonly path: string;
  /** Undefined for a whole-file target. */
  readonly range?: LineRange;
}

export interface HistCommit {
  readonly commit: string;
  readonly parents: readonly string[];
  readonly date: string;
  readonly subject: string;
  /** The target in this commit. */
  readonly after: HistSide;
  /** The target in the first parent; undefined when this commit added it (or history is cut here). */
  readonly before?: HistSide;
  readonly added: number;
  readonly deleted: number;
  readonly event?: 'added' | 'moved' | 'renamed' | 'boundary';
}

/** Why a walk stopped before the target's first commit. */
export type HistCut = 'commits' | 'scanned' | 'moves' | 'time' | 'bytes' | 'git_failed' | 'path_not_utf8';

export interface HistWalk {
  readonly commits: readonly HistCommit[];
  /** Commits of the files' logs read (listed or not). */
  readonly scanned: number;
  readonly moves: number;
  readonly cut?: { readonly reason: HistCut; readonly detail: string };
  /** The walk reached a shallow clone's boundary: history before this commit is not in the clone. */
  readonly shallow?: { readonly commit: string; readonly date: string };
  /** Records of the files' logs read from the history index instead of Git (0: Git throughout). */
  readonly fromIndex: number;
}

interface Hop {
  readonly rev: string;
  readonly path: string;
  readonly range?: LineRange;
  readonly name?: string;
}

/** The commit's diff of the file the target is in (with --follow, the one file the log shows). */
function fileOf(rec: LogRecord, path: string): FileDiff | undefined {
  return rec.files.find((f) => f.afterPath === path) ?? (rec.files.length === 1 ? rec.files[0] : undefined);
}

/** One commit's effect on the target: its sides and counts, before any move search. */
function stepOf(rec: LogRecord, file: FileDiff, path: string, range: LineRange | undefined, repo: Repo): HistCommit {
  const base = {
    commit: rec.commit,
    parents: rec.parents,
    date: rec.date,
    subject: rec.subject.slice(0, SUBJECT_MAX_CHARS),
    after: { path, ...(range ? { range } : {}) },
  };
  const boundaryOrAdded = repo.shallow.has(rec.commit) ? 'boundary' : 'added';
  if (range === undefined) {
    const counts = wholeFileCounts(file.hunks);
    if (file.beforePath === undefined) return { ...base, ...counts, event: boundaryOrAdded };
    return { ...base, ...counts, before: { path: file.beforePath }, ...pathEvent(file, path) };
  }
  if (file.binary)
    return {
      ...base,
      added: range.end - range.start + 1,
      deleted: 0,
      before: { path: file.beforePath ?? path, range },
    };
  const mapped = mapRangeBack(range, file.hunks);
  if (file.beforePath === undefined || mapped.before === undefined)
    return { ...base, added: mapped.added, deleted: mapped.deleted, event: boundaryOrAdded };
  return {
    ...base,
    added: mapped.added,
    deleted: mapped.deleted,
    before: { path: file.beforePath, range: mapped.before },
    ...pathEvent(file, path),
  };
}

/** A commit that brought the target from another path: a rename of its file, or a copy Git found (the lines moved with it). */
function pathEvent(file: FileDiff, path: string): { event?: 'renamed' | 'moved' } {
  if (file.beforePath === undefined || file.beforePath === path) return {};
  return { event: file.status === 'copied' ? 'moved' : 'renamed' };
}

function remaining(deadline: number): number {
  return Math.max(1, Math.min(GIT_TIMEOUT_MS, deadline - Date.now()));
}

/**
 * Definitions of blobs this process extracted, by language and content hash: a walk
 * parses every candidate file of a move, and a daemon's next walk (the same file's other
 * functions, the same target again) meets the same blobs; parsing them was about half of
 * a warm `hist` of a moved function.
 */
const extracted = new Map<string, { name: string; range: LineRange }[]>();

/** The definitions of a file's bytes, by the index's extractor for its language. */
function definitionsOf(path: string, bytes: Buffer): { name: string; range: LineRange }[] {
  const lang = extractionLanguageOf(Buffer.from(path, 'latin1').toString('utf8'));
  const key = `${lang}:${createHash('sha256').update(bytes).digest('hex')}`;
  const seen = extracted.get(key);
  if (seen !== undefined) return seen;
  let defs: { name: string; range: LineRange }[];
  try {
    defs = extractFile(lang, bytes).definitions.map((d) => ({
      name: d.name,
      range: { start: d.startLine, end: d.endLine },
    }));
  } catch {
    defs = [];
  }
  extracted.set(key, defs);
  while (extracted.size > EXTRACTED_BLOBS_MAX) extracted.delete(extracted.keys().next().value as string);
  return defs;
}

/** `git diff-tree --name-status` of a commit against its first parent: files that existed in the parent, deleted ones first. */
function changedInParent(repo: Repo, parent: string, commit: string, afterPath: string, deadline: number): string[] {
  const run = runGit(
    repo.top,
    ['diff-tree', '-r', '-z', '--no-renames', '--name-status', '--no-commit-id', parent, commit],
    { timeoutMs: remaining(deadline) },
  );
  if (run.state !== 'ok') return [];
  const parts = run.stdout.toString('latin1').split('\0');
  const deleted: string[] = [];
  const modified: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] === 'D') deleted.push(parts[i + 1]);
    else if (parts[i] === 'M') modified.push(parts[i + 1]);
  }
  const ext = (p: string) => p.slice(p.lastIndexOf('.'));
  const sameKindFirst = (list: string[]) => [
    ...list.filter((p) => ext(p) === ext(afterPath)),
    ...list.filter((p) => ext(p) !== ext(afterPath)),
  ];
  return [...sameKindFirst(deleted), ...sameKindFirst(modified)].slice(0, MOVE_CANDIDATE_FILES_MAX);
}

/** The name of the definition that best covers `range` in `bytes` (the target's name at that commit). */
function nameAt(path: string, bytes: Buffer, range: LineRange): string | undefined {
  let best: { name: string; overlap: number; size: number } | undefined;
  for (const d of definitionsOf(path, bytes)) {
    const overlap = Math.min(d.range.end, range.end) - Math.max(d.range.start, range.start) + 1;
    const size = d.range.end - d.range.start;
    if (overlap > 0 && (best === undefined || overlap > best.overlap || (overlap === best.overlap && size < best.size)))
      best = { name: d.name, overlap, size };
  }
  return best?.name;
}

/** Where the target came from when `step`'s commit added all its lines, with the move's own counts. */
function findOrigin(
  repo: Repo,
  step: HistCommit,
  name: string | undefined,
  deadline: number,
): { origin: Origin; added: number; deleted: number; name?: string } | undefined {
  const parent = step.parents[0];
  const range = step.after.range;
  if (parent === undefined || range === undefined) return undefined;
  const candidates = changedInParent(repo, parent, step.commit, step.after.path, deadline);
  if (candidates.length === 0) return undefined;
  const read = readBlobs(repo.top, [
    { rev: step.commit, path: step.after.path },
    ...candidates.map((path) => ({ rev: parent, path })),
  ]);
  if ('failed' in read) return undefined;
  const [after, ...olds] = read.reads;
  if (after.state !== 'ok') return undefined;
  const lines = linesOf(after.bytes, range);
  const here = nameAt(step.after.path, after.bytes, range) ?? name;
  const options: OriginCandidate[] = [];
  olds.forEach((r, i) => {
    if (r.state !== 'ok') return;
    for (const d of definitionsOf(candidates[i], r.bytes))
      options.push({ path: candidates[i], name: d.name, range: d.range, lines: linesOf(r.bytes, d.range) });
  });
  const origin = chooseOrigin(here, lines, options);
  if (origin === undefined) return undefined;
  return { origin, ...countEdits(diffLines(origin.lines, lines)), ...(here !== undefined ? { name: here } : {}) };
}

const CUT_OF: Partial<Record<StreamEnd, HistCut>> = {
  timed_out: 'time',
  too_large: 'bytes',
  failed: 'git_failed',
  unavailable: 'git_failed',
};

/**
 * The commits that changed `target`, newest first, from `repo.head` along first parents,
 * within HIST_COMMITS_MAX listed, HIST_SCANNED_COMMITS_MAX read, HIST_MOVES_MAX moves and
 * HIST_DEADLINE_MS; what cut it short is `cut`.
 */
export async function walkHistory(
  repo: Repo,
  target: HistTarget,
  options: { readonly deadlineMs?: number; readonly index?: LoadedHistoryIndex } = {},
): Promise<Outcome<HistWalk>> {
  const deadline = Date.now() + (options.deadlineMs ?? HIST_DEADLINE_MS);
  // The index, where it holds the commits asked for, answers as the file's log would (log-index-source.ts).
  const src: RecordSource = {
    repo,
    ...(options.index ? { index: options.index } : {}),
    remaining: () => remaining(deadline),
    fromIndex: 0,
    gaps: new Map(),
  };
  const commits: HistCommit[] = [];
  let scanned = 0;
  let moves = 0;
  let shallow: HistWalk['shallow'];
  const done = (cut?: HistWalk['cut']): Outcome<HistWalk> =>
    ok({ commits, scanned, moves, ...(cut ? { cut } : {}), ...(shallow ? { shallow } : {}), fromIndex: src.fromIndex });
  if (repo.head === undefined) return done();
  let hop: Hop | undefined = {
    rev: repo.head,
    path: target.path,
    ...(target.range ? { range: target.range } : {}),
    ...(target.name ? { name: target.name } : {}),
  };
  while (hop !== undefined) {
    const current: Hop = hop;
    hop = undefined;
    const arg = gitArg(current.path);
    if (arg === undefined)
      return done({
        reason: 'path_not_utf8',
        detail: `${Buffer.from(current.path, 'latin1').toString('utf8')} is not UTF-8; Git cannot be asked about it`,
      });
    let path = current.path;
    let range = current.range;
    let ended = false;
    let pending: HistCommit | undefined;
    let cut: HistWalk['cut'];
    const stream = await followRecords(
      src,
      current.rev,
      () => path,
      (rec) => {
        scanned++;
        const file = fileOf(rec, path);
        if (file !== undefined) {
          const step = stepOf(rec, file, path, range, repo);
          if (step.event === 'added' && range !== undefined && rec.parents.length > 0) {
            // All of the target's lines are new here: moved from elsewhere, or added. Decided after the run.
            pending = step;
            return false;
          }
          if (step.added + step.deleted > 0 || step.event !== undefined) commits.push(step);
          if (step.event === 'boundary') shallow = { commit: rec.commit, date: rec.date };
          if (step.before === undefined) {
            ended = true;
            return false;
          }
          path = step.before.path;
          range = step.before.range;
          if (commits.length >= HIST_COMMITS_MAX) {
            cut = { reason: 'commits', detail: `listed the newest ${HIST_COMMITS_MAX} commits` };
            return false;
          }
        }
        if (scanned >= HIST_SCANNED_COMMITS_MAX) {
          cut = { reason: 'scanned', detail: `read ${HIST_SCANNED_COMMITS_MAX} commits of the file's log` };
          return false;
        }
        return true;
      },
    );
    if (cut) return done(cut);
    if (stream.end === 'failed' && commits.length === 0 && scanned === 0 && moves === 0)
      return gitFailure({ state: 'failed', stdout: Buffer.alloc(0), reason: stream.reason }, 'git log');
    const streamCut = CUT_OF[stream.end];
    if (streamCut && !ended && pending === undefined) return done({ reason: streamCut, detail: stream.reason });
    if (pending !== undefined) {
      if (moves >= HIST_MOVES_MAX) {
        commits.push(pending);
        return done({ reason: 'moves', detail: `followed ${HIST_MOVES_MAX} moves` });
      }
      const found = Date.now() < deadline ? findOrigin(repo, pending, current.name, deadline) : undefined;
      if (found === undefined) {
        commits.push(pending);
        if (Date.now() >= deadline)
          return done({ reason: 'time', detail: `the walk ran past ${options.deadlineMs ?? HIST_DEADLINE_MS} ms` });
      } else {
        moves++;
        const from = found.origin;
        commits.push({
          ...pending,
          added: found.added,
          deleted: found.deleted,
          before: { path: from.path, range: from.range },
          event: 'moved',
        });
        if (commits.length >= HIST_COMMITS_MAX)
          return done({ reason: 'commits', detail: `listed the newest ${HIST_COMMITS_MAX} commits` });
        hop = { rev: pending.parents[0], path: from.path, range: from.range, name: from.name };
      }
    }
  }
  return done();
}
