// A stored change read back from Git objects for `show`: the commit must still exist
// (else `history_missing`, never other bytes), each side's blob is read by id and hashed
// (blob.ts), and the target's lines must lie inside it. A blame run's before lines are
// mapped here, through the diff of the two blobs.
import { percentDecode } from '@trufflepig/base';
import { readLiveFile } from '@trufflepig/index';
import type { ChangeRecord } from '@trufflepig/result-cache';
import { objectTypes, readBlobs, type BlobRead } from './blob';
import { diffLines, hunksOf } from './diff';
import { fail, ok, type Outcome } from './errors';
import { lineCount } from './hunk-view';
import { linesOf } from './origin';
import { mapRangeBack, type LineRange } from './ranges';
import { BLOB_MAX_BYTES } from './limits';
import { decodedPath, gitFailure, pathPrinter } from './repo';

/** A `since` record's worktree revision for a file the working tree no longer has. */
export const NO_WORKTREE_FILE = '0'.repeat(64);

export interface ReadSide {
  /** Byte-string path from the top level. */
  readonly path: string;
  /** The blob's object id, or for the working tree's file (`since`) the SHA-256 of its bytes. */
  readonly oid: string;
  /** True for the working tree's file (verified by its revision, not a Git object). */
  readonly worktree?: boolean;
  readonly bytes: Buffer;
  readonly range: LineRange;
}

export interface ReadChange {
  /** The Git top level (a file-system path). */
  readonly top: string;
  readonly after: ReadSide;
  /** Undefined when the commit added the target. */
  readonly before?: ReadSide;
}

const short = (id: string) => id.slice(0, 12);

function blobFailure(read: BlobRead, what: string, commit: string): Outcome<never> {
  if (read.state === 'corrupt')
    return fail(
      'history_corrupt',
      `${what} at ${short(commit)} does not hash to its object id ${short(read.oid)}; check the repository with git fsck`,
    );
  if (read.state === 'too_large')
    return fail(
      'file_too_large',
      `${what} at ${short(commit)} is ${read.size} bytes, more than a change is read for; use git show ${short(commit)} directly`,
    );
  return fail('history_missing', `${what} is not in commit ${short(commit)} any more; run hist again`);
}

function sideRange(
  bytes: Buffer,
  start: number | undefined,
  end: number | undefined,
  whole: boolean,
): LineRange | undefined {
  if (whole) return { start: 1, end: lineCount(bytes) };
  if (start === undefined || end === undefined) return undefined;
  return { start, end };
}

/** A `since` record's after side: the working tree's file, read once, with the revision it was listed with. */
function worktreeSide(record: ChangeRecord, root: string): Outcome<{ oid: string; bytes: Buffer }> {
  const rel = pathPrinter(record.repo, root)(record.after.path);
  const shown = Buffer.from(decodedPath(record.after.path), 'latin1').toString('utf8');
  if (record.worktree === NO_WORKTREE_FILE) {
    const now = rel.startsWith(':/')
      ? undefined
      : readLiveFile(percentDecode(root).toString('utf8'), rel, BLOB_MAX_BYTES);
    if (now?.ok) return fail('stale_source', `${shown} exists again since since listed it as deleted; run since again`);
    return ok({ oid: NO_WORKTREE_FILE, bytes: Buffer.alloc(0) });
  }
  const live = rel.startsWith(':/')
    ? undefined
    : readLiveFile(percentDecode(root).toString('utf8'), rel, BLOB_MAX_BYTES);
  if (!live?.ok)
    return fail(
      'stale_source',
      `${shown} cannot be read as it was listed (moved, deleted or replaced); run since again`,
    );
  if (live.revision !== record.worktree)
    return fail('stale_source', `${shown} changed since it was listed; run since again`);
  return ok({ oid: live.revision, bytes: live.bytes });
}

/**
 * The change `record` names, read and verified; `root` (percent-encoded, the entry's
 * owner) is where a `since` record's working tree file is read.
 */
export function readChange(record: ChangeRecord, root: string = record.repo): Outcome<ReadChange> {
  const top = percentDecode(record.repo).toString('utf8');
  // A `since` record compares the working tree with `commit`: its before side is read there.
  const beforeCommit = record.worktree !== undefined ? record.commit : record.parent;
  const ids = [record.commit, ...(record.parent !== undefined ? [record.parent] : [])];
  const types = objectTypes(
    top,
    ids.map((id) => `${id}^{commit}`),
  );
  if ('failed' in types) {
    if (types.failed.state === 'unavailable') return gitFailure(types.failed, 'git cat-file');
    return fail(
      'history_missing',
      `${top} cannot be read as a Git repository any more (${types.failed.reason}); run hist again where it now is`,
    );
  }
  const gone = ids.find((_, i) => types[i] !== 'commit');
  if (gone !== undefined)
    return fail(
      'history_missing',
      `commit ${short(gone)} is no longer in ${top} (history rewritten: a force-push, a rebase or gc); run hist again`,
    );
  const afterPath = decodedPath(record.after.path);
  const beforePath = record.before ? decodedPath(record.before.path) : undefined;
  const inTree = record.worktree !== undefined;
  const read = readBlobs(top, [
    ...(inTree ? [] : [{ rev: record.commit, path: afterPath }]),
    ...(beforePath !== undefined && beforeCommit !== undefined ? [{ rev: beforeCommit, path: beforePath }] : []),
  ]);
  if ('failed' in read) return gitFailure(read.failed, 'git cat-file');
  let a: BlobRead;
  if (inTree) {
    const live = worktreeSide(record, root);
    if (!live.ok) return live;
    a = { state: 'ok', ...live.value };
  } else a = read.reads[0];
  const b = read.reads[inTree ? 0 : 1];
  if (a.state !== 'ok') return blobFailure(a, Buffer.from(afterPath, 'latin1').toString('utf8'), record.commit);
  if (b !== undefined && b.state !== 'ok')
    return blobFailure(b, Buffer.from(beforePath!, 'latin1').toString('utf8'), beforeCommit!);
  const whole = record.whole_file === true;
  const afterRange = sideRange(a.bytes, record.after.start_line, record.after.end_line, whole);
  if (
    afterRange === undefined ||
    afterRange.end > lineCount(a.bytes) ||
    afterRange.start < 1 ||
    afterRange.end < afterRange.start - 1
  ) {
    return fail(
      'history_missing',
      `lines ${record.after.start_line}-${record.after.end_line} are not in ${Buffer.from(afterPath, 'latin1').toString('utf8')} at ${short(record.commit)}; run hist again`,
    );
  }
  const after: ReadSide = {
    path: afterPath,
    oid: a.oid,
    bytes: a.bytes,
    range: afterRange,
    ...(inTree ? { worktree: true } : {}),
  };
  if (b === undefined || b.state !== 'ok') return ok({ top, after });
  let beforeRange = sideRange(b.bytes, record.before?.start_line, record.before?.end_line, whole);
  if (beforeRange === undefined) {
    // A blame run: its lines in the parent are where the commit's diff maps them.
    const mapped = mapRangeBack(afterRange, hunksOf(diffLines(linesOf(b.bytes), linesOf(a.bytes))));
    if (mapped.before === undefined) return ok({ top, after });
    beforeRange = mapped.before;
  }
  if (beforeRange.end > lineCount(b.bytes))
    return fail(
      'history_missing',
      `lines ${beforeRange.start}-${beforeRange.end} are not in the parent's ${Buffer.from(beforePath!, 'latin1').toString('utf8')}; run hist again`,
    );
  return ok({ top, after, before: { path: beforePath!, oid: b.oid, bytes: b.bytes, range: beforeRange } });
}
