// The history index's file format, pure (docs/history.md, "The history index"). A version
// line, a header, then segments: each segment a meta line (`SEGMENT {json}`) and exactly
// its `bytes` of body, one commit a line (a JSON array), newest first. The first segment is
// a build from a head back to where a bound (or the root commit) ended it; every later one
// holds the commits of one incremental update, so its oldest commit's first parent is the
// previous segment's head. An update is the old bytes unchanged plus one segment. Every
// segment carries the SHA-256 of its body: a truncated or altered file is refused whole,
// never read in part.
import { createHash } from 'node:crypto';
import type { FileDiff, Hunk, LogRecord } from './parse-log';

export const HISTORY_INDEX_MAGIC = 'TRUFFLEPIG-HISTORY-INDEX';
export const HISTORY_INDEX_VERSION = 1;
const VERSION_LINE = `${HISTORY_INDEX_MAGIC} ${HISTORY_INDEX_VERSION}\n`;
const SEGMENT = 'SEGMENT ';

/** One changed file of an indexed commit (a file the commit deleted is not kept: no walk asks for it). */
export interface IndexedFile {
  readonly status: FileDiff['status'];
  readonly afterPath: string;
  readonly beforePath?: string;
  readonly binary: boolean;
  readonly hunks: readonly Hunk[];
}

/** A log record as the index keeps it: its files without the deleted ones, maybe cut. */
export interface IndexedCommit extends Omit<LogRecord, 'files'> {
  readonly files: readonly IndexedFile[];
  /** More files changed than HISTORY_INDEX_COMMIT_FILES_MAX: `files` is not all of them, so a walk asks Git. */
  readonly cut?: boolean;
}

/** Why a build stopped before the root commit: what the index does not hold is read from Git. */
export type IndexCut = 'commits' | 'days' | 'bytes' | 'git_bytes' | 'time' | 'git_failed';

export interface SegmentMeta {
  /** Newest commit of the segment. */
  readonly head: string;
  /** Oldest commit of the segment. */
  readonly tail: string;
  readonly commits: number;
  readonly bytes: number;
  readonly sha256: string;
  /** ISO time the segment was written. */
  readonly built_at: string;
  /** First segment only: the bound that ended the build (absent: it reached a commit without parents). */
  readonly cut?: { readonly reason: IndexCut; readonly detail: string };
}

export interface IndexFileHeader {
  /** The Git common directory the index describes (canonical). */
  readonly common_dir: string;
}

export interface DecodedIndex {
  readonly header: IndexFileHeader;
  readonly segments: readonly SegmentMeta[];
  /** Every commit, newest first (the last segment's first). */
  readonly commits: readonly IndexedCommit[];
}

const STATUS_LETTER: Record<FileDiff['status'], string> = {
  modified: 'M',
  added: 'A',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
};
const LETTER_STATUS: Record<string, FileDiff['status']> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
};

/** A parsed log record as the index keeps it: files that exist after the commit, at most `filesMax`. */
export function indexedCommitOf(rec: LogRecord, subjectMax: number, filesMax: number): IndexedCommit {
  const kept = rec.files.filter((f): f is FileDiff & { afterPath: string } => f.afterPath !== undefined);
  const files = kept.slice(0, filesMax).map((f): IndexedFile => ({
    status: f.status,
    afterPath: f.afterPath,
    ...(f.beforePath !== undefined ? { beforePath: f.beforePath } : {}),
    binary: f.binary,
    hunks: f.hunks,
  }));
  return {
    commit: rec.commit,
    parents: rec.parents,
    date: rec.date,
    subject: rec.subject.slice(0, subjectMax),
    files,
    ...(kept.length > filesMax ? { cut: true } : {}),
  };
}

/** One commit's line: `[hash, "parents", date, subject, files, cut?]`; a file `[letter, after, before|"" (same) |null (none), hunks | "binary"]`. */
export function encodeCommit(c: IndexedCommit): string {
  const files = c.files.map((f) => [
    STATUS_LETTER[f.status],
    f.afterPath,
    f.beforePath === undefined ? null : f.beforePath === f.afterPath ? '' : f.beforePath,
    f.binary ? 'binary' : f.hunks.flatMap((h) => [h.a, h.b, h.c, h.d]),
  ]);
  return `${JSON.stringify([c.commit, c.parents.join(' '), c.date, c.subject, files, ...(c.cut ? [1] : [])])}\n`;
}

const HASH = /^[0-9a-f]{40,64}$/;

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

/** A commit line back; undefined when it is not one encodeCommit wrote. */
export function decodeCommit(line: string): IndexedCommit | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  return commitOfArray(v);
}

/** A parsed commit line (a JSON array) as a commit; undefined when it is not one encodeCommit wrote. */
function commitOfArray(v: unknown): IndexedCommit | undefined {
  if (!Array.isArray(v) || v.length < 5 || v.length > 6) return undefined;
  const [commit, parents, date, subject, files, cut] = v as unknown[];
  if (
    typeof commit !== 'string' ||
    !HASH.test(commit) ||
    typeof parents !== 'string' ||
    typeof date !== 'string' ||
    typeof subject !== 'string' ||
    !Array.isArray(files)
  )
    return undefined;
  const parentList = parents === '' ? [] : parents.split(' ');
  if (!parentList.every((p) => HASH.test(p))) return undefined;
  const out: IndexedFile[] = [];
  for (const f of files as unknown[]) {
    if (!Array.isArray(f) || f.length !== 4) return undefined;
    const [letter, after, before, hunks] = f as unknown[];
    const status = typeof letter === 'string' ? LETTER_STATUS[letter] : undefined;
    if (status === undefined || typeof after !== 'string' || (before !== null && typeof before !== 'string'))
      return undefined;
    const beforePath = before === null ? undefined : before === '' ? after : before;
    if (hunks === 'binary') {
      out.push({
        status,
        afterPath: after,
        ...(beforePath !== undefined ? { beforePath } : {}),
        binary: true,
        hunks: [],
      });
      continue;
    }
    if (!Array.isArray(hunks) || hunks.length % 4 !== 0) return undefined;
    const list: Hunk[] = [];
    for (let i = 0; i < hunks.length; i += 4) {
      const [a, b, c, d] = [hunks[i], hunks[i + 1], hunks[i + 2], hunks[i + 3]] as unknown[];
      if (!isCount(a) || !isCount(b) || !isCount(c) || !isCount(d)) return undefined;
      list.push({ a, b, c, d });
    }
    out.push({
      status,
      afterPath: after,
      ...(beforePath !== undefined ? { beforePath } : {}),
      binary: false,
      hunks: list,
    });
  }
  if (cut !== undefined && cut !== 1) return undefined;
  return { commit, parents: parentList, date, subject, files: out, ...(cut === 1 ? { cut: true } : {}) };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file's first bytes: the version line and the header. */
export function encodeFileStart(header: IndexFileHeader): Buffer {
  return Buffer.from(`${VERSION_LINE}${JSON.stringify(header)}\n`, 'utf8');
}

/** One segment: its meta line and body, from commit lines newest first (at least one). */
export function encodeSegment(
  lines: readonly string[],
  commits: readonly IndexedCommit[],
  builtAt: string,
  cut?: SegmentMeta['cut'],
): { bytes: Buffer; meta: SegmentMeta } {
  const body = Buffer.from(lines.join(''), 'utf8');
  const meta: SegmentMeta = {
    head: commits[0].commit,
    tail: commits[commits.length - 1].commit,
    commits: commits.length,
    bytes: body.length,
    sha256: sha256(body),
    built_at: builtAt,
    ...(cut ? { cut } : {}),
  };
  return { bytes: Buffer.concat([Buffer.from(`${SEGMENT}${JSON.stringify(meta)}\n`, 'utf8'), body]), meta };
}

export type Decoded =
  { readonly ok: true; readonly index: DecodedIndex } | { readonly ok: false; readonly reason: string };

function lineAt(bytes: Buffer, from: number): { text: string; next: number } | undefined {
  const nl = bytes.indexOf(0x0a, from);
  return nl < 0 ? undefined : { text: bytes.subarray(from, nl).toString('utf8'), next: nl + 1 };
}

function isSegmentMeta(v: unknown): v is SegmentMeta {
  const m = v as SegmentMeta;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.head === 'string' &&
    typeof m.tail === 'string' &&
    Number.isInteger(m.commits) &&
    m.commits > 0 &&
    Number.isInteger(m.bytes) &&
    m.bytes > 0 &&
    typeof m.sha256 === 'string' &&
    typeof m.built_at === 'string'
  );
}

/**
 * A whole index file, checked: its version, every segment's length, checksum and commit
 * count, its first and last commits, and the chain from each segment to the one before.
 * Any fault refuses the file (a reason, for status), so a walk never reads a wrong commit.
 */
export function decodeIndex(bytes: Buffer): Decoded {
  const bad = (reason: string): Decoded => ({ ok: false, reason });
  const version = lineAt(bytes, 0);
  if (version === undefined || !version.text.startsWith(`${HISTORY_INDEX_MAGIC} `))
    return bad('not a history index file');
  if (`${version.text}\n` !== VERSION_LINE)
    return bad(
      `format ${version.text.slice(HISTORY_INDEX_MAGIC.length + 1)}, this build reads ${HISTORY_INDEX_VERSION}`,
    );
  const head = lineAt(bytes, version.next);
  let header: IndexFileHeader;
  try {
    header = JSON.parse(head?.text ?? '') as IndexFileHeader;
  } catch {
    return bad('its header is not JSON');
  }
  if (head === undefined || typeof header?.common_dir !== 'string') return bad('its header names no repository');
  const segments: SegmentMeta[] = [];
  const perSegment: IndexedCommit[][] = [];
  let at = head.next;
  while (at < bytes.length) {
    const line = lineAt(bytes, at);
    if (line === undefined || !line.text.startsWith(SEGMENT))
      return bad(`segment ${segments.length + 1} has no meta line (truncated?)`);
    let meta: unknown;
    try {
      meta = JSON.parse(line.text.slice(SEGMENT.length));
    } catch {
      return bad(`segment ${segments.length + 1}'s meta line is not JSON`);
    }
    if (!isSegmentMeta(meta)) return bad(`segment ${segments.length + 1}'s meta line is malformed`);
    const body = bytes.subarray(line.next, line.next + meta.bytes);
    if (body.length !== meta.bytes)
      return bad(`segment ${segments.length + 1} is truncated (${body.length} of ${meta.bytes} bytes)`);
    if (sha256(body) !== meta.sha256) return bad(`segment ${segments.length + 1}'s checksum does not match its bytes`);
    const text = body.toString('utf8');
    const lines = text.split('\n');
    if (lines.pop() !== '' || lines.length !== meta.commits)
      return bad(`segment ${segments.length + 1} holds ${lines.length} commits, its meta says ${meta.commits}`);
    // One JSON.parse of the whole body (its lines as one array) is several times faster than one a line.
    let arrays: unknown;
    try {
      arrays = JSON.parse(`[${lines.join(',')}]`);
    } catch {
      return bad(`segment ${segments.length + 1} has a malformed commit line`);
    }
    if (!Array.isArray(arrays) || arrays.length !== meta.commits)
      return bad(`segment ${segments.length + 1} has a malformed commit line`);
    const commits: IndexedCommit[] = [];
    for (const a of arrays) {
      const c = commitOfArray(a);
      if (c === undefined) return bad(`segment ${segments.length + 1} has a malformed commit line`);
      commits.push(c);
    }
    if (commits[0].commit !== meta.head || commits[commits.length - 1].commit !== meta.tail)
      return bad(`segment ${segments.length + 1}'s commits are not the ones its meta names`);
    for (let i = 1; i < commits.length; i++) {
      if (commits[i - 1].parents[0] !== commits[i].commit)
        return bad(`segment ${segments.length + 1} is not one first-parent chain`);
    }
    const previous = segments[segments.length - 1];
    if (previous !== undefined && commits[commits.length - 1].parents[0] !== previous.head)
      return bad(`segment ${segments.length + 1} does not continue segment ${segments.length}`);
    segments.push(meta);
    perSegment.push(commits);
    at = line.next + meta.bytes;
  }
  if (segments.length === 0) return bad('it holds no segment');
  const commits: IndexedCommit[] = [];
  for (let i = perSegment.length - 1; i >= 0; i--) for (const c of perSegment[i]) commits.push(c);
  return { ok: true, index: { header, segments, commits } };
}
