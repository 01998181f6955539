// A stored change read back from Git objects for `show`: the commit must still exist
// (else `history_missing`, never other bytes), each side's blob is read by id and hashed
// (blob.ts), and the target's lines must lie inside it. A blame run's before lines are
// mapped here, through the diff of the two blobs.
import { percentDecode } from '@trufflepig/index';
import type { ChangeRecord } from '@trufflepig/result-cache';
import { objectTypes, readBlobs, type BlobRead } from './blob';
import { diffLines, hunksOf } from './diff';
import { fail, ok, type Outcome } from './errors';
import { lineCount } from './hunk-view';
import { linesOf } from './origin';
import { mapRangeBack, type LineRange } from './ranges';
import { decodedPath, gitFailure } from './repo';

export interface ReadSide {
  /** Byte-string path from the top level. */
  readonly path: string;
  readonly oid: string;
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
  if (read.state === 'corrupt') return fail('history_corrupt', `${what} at ${short(commit)} does not hash to its object id ${short(read.oid)}; check the repository with git fsck`);
  if (read.state === 'too_large') return fail('file_too_large', `${what} at ${short(commit)} is ${read.size} bytes, more than a change is read for; use git show ${short(commit)} directly`);
  return fail('history_missing', `${what} is not in commit ${short(commit)} any more; run hist again`);
}

function sideRange(bytes: Buffer, start: number | undefined, end: number | undefined, whole: boolean): LineRange | undefined {
  if (whole) return { start: 1, end: lineCount(bytes) };
  if (start === undefined || end === undefined) return undefined;
  return { start, end };
}

/** The change `record` names, read and verified. */
export function readChange(record: ChangeRecord): Outcome<ReadChange> {
  const top = percentDecode(record.repo).toString('utf8');
  const ids = [record.commit, ...(record.parent !== undefined ? [record.parent] : [])];
  const types = objectTypes(top, ids.map((id) => `${id}^{commit}`));
  if ('failed' in types) {
    if (types.failed.state === 'unavailable') return gitFailure(types.failed, 'git cat-file');
    return fail('history_missing', `${top} cannot be read as a Git repository any more (${types.failed.reason}); run hist again where it now is`);
  }
  const gone = ids.find((_, i) => types[i] !== 'commit');
  if (gone !== undefined) return fail('history_missing', `commit ${short(gone)} is no longer in ${top} (history rewritten: a force-push, a rebase or gc); run hist again`);
  const afterPath = decodedPath(record.after.path);
  const beforePath = record.before ? decodedPath(record.before.path) : undefined;
  const read = readBlobs(top, [
    { rev: record.commit, path: afterPath },
    ...(beforePath !== undefined && record.parent !== undefined ? [{ rev: record.parent, path: beforePath }] : []),
  ]);
  if ('failed' in read) return gitFailure(read.failed, 'git cat-file');
  const [a, b] = read.reads;
  if (a.state !== 'ok') return blobFailure(a, Buffer.from(afterPath, 'latin1').toString('utf8'), record.commit);
  if (b !== undefined && b.state !== 'ok') return blobFailure(b, Buffer.from(beforePath!, 'latin1').toString('utf8'), record.parent!);
  const whole = record.whole_file === true;
  const afterRange = sideRange(a.bytes, record.after.start_line, record.after.end_line, whole);
  if (afterRange === undefined || afterRange.end > lineCount(a.bytes) || afterRange.start < 1) {
    return fail('history_missing', `lines ${record.after.start_line}-${record.after.end_line} are not in ${Buffer.from(afterPath, 'latin1').toString('utf8')} at ${short(record.commit)}; run hist again`);
  }
  const after: ReadSide = { path: afterPath, oid: a.oid, bytes: a.bytes, range: afterRange };
  if (b === undefined || b.state !== 'ok') return ok({ top, after });
  let beforeRange = sideRange(b.bytes, record.before?.start_line, record.before?.end_line, whole);
  if (beforeRange === undefined) {
    // A blame run: its lines in the parent are where the commit's diff maps them.
    const mapped = mapRangeBack(afterRange, hunksOf(diffLines(linesOf(b.bytes), linesOf(a.bytes))));
    if (mapped.before === undefined) return ok({ top, after });
    beforeRange = mapped.before;
  }
  if (beforeRange.end > lineCount(b.bytes)) return fail('history_missing', `lines ${beforeRange.start}-${beforeRange.end} are not in the parent's ${Buffer.from(beforePath!, 'latin1').toString('utf8')}; run hist again`);
  return ok({ top, after, before: { path: beforePath!, oid: b.oid, bytes: b.bytes, range: beforeRange } });
}
