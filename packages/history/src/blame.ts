// `blame`: for each line of a target, the commit that last changed it, from `git blame
// --porcelain -w -M -C` of the working tree (whitespace-only changes and moved or copied
// lines do not count), grouped into runs of consecutive lines of one commit.
import { runGit } from './git';
import { BLAME_LINES_MAX, BLAME_MOVE_MIN_CHARS, SUBJECT_MAX_CHARS } from './limits';
import { fail, ok, type Outcome } from './errors';
import { unquotePath } from './parse-log';
import type { LineRange } from './ranges';
import { gitArg, gitFailure, type Repo } from './repo';

/** Git's id of the lines nobody committed yet. */
const UNCOMMITTED = /^0+$/;

export interface BlameLine {
  /** Line in the working tree's file. */
  readonly line: number;
  readonly commit: string;
  /** Line in that commit's version of `path`. */
  readonly origLine: number;
  /** Byte-string path (top level) in that commit. */
  readonly path: string;
}

export interface BlameCommit {
  readonly date: string;
  readonly subject: string;
  /** The parent blame went on in, and the path there; undefined at a boundary (root commit or shallow clone). */
  readonly previous?: { readonly commit: string; readonly path: string };
  readonly boundary: boolean;
}

export interface BlameRun {
  /** Lines of the working tree's file. */
  readonly lines: LineRange;
  /** Undefined for lines not committed yet. */
  readonly commit?: string;
  /** Lines and path in that commit's version. */
  readonly orig?: { readonly path: string; readonly range: LineRange };
}

export interface Blame {
  readonly runs: readonly BlameRun[];
  readonly commits: ReadonlyMap<string, BlameCommit>;
  /** Lines of the target left out (BLAME_LINES_MAX). */
  readonly cutLines: number;
}

function isoDate(seconds: number, tz: string): string {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(tz);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 19);
  return m ? `${local}${m[1]}${m[2]}:${m[3]}` : `${local}Z`;
}

/** `git blame --porcelain` output (a byte string): every line's commit and origin, and each commit's facts. */
export function parsePorcelain(text: string): { lines: BlameLine[]; commits: Map<string, BlameCommit> } {
  const lines: BlameLine[] = [];
  const commits = new Map<string, BlameCommit>();
  const facts = new Map<
    string,
    {
      time?: number;
      tz?: string;
      subject?: string;
      previous?: { commit: string; path: string };
      boundary: boolean;
      path?: string;
    }
  >();
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const head = /^([0-9a-f]{40,64}) (\d+) (\d+)(?: \d+)?$/.exec(rows[i]);
    if (!head) continue;
    const commit = head[1];
    const f = facts.get(commit) ?? { boundary: false };
    facts.set(commit, f);
    // Key lines until the TAB-prefixed content line.
    for (i++; i < rows.length && !rows[i].startsWith('\t'); i++) {
      const row = rows[i];
      const space = row.indexOf(' ');
      const key = space < 0 ? row : row.slice(0, space);
      const value = space < 0 ? '' : row.slice(space + 1);
      if (key === 'author-time') f.time = Number(value);
      else if (key === 'author-tz') f.tz = value;
      else if (key === 'summary') f.subject = Buffer.from(value, 'latin1').toString('utf8').slice(0, SUBJECT_MAX_CHARS);
      else if (key === 'boundary') f.boundary = true;
      else if (key === 'filename') f.path = unquotePath(value);
      else if (key === 'previous') {
        const sp = value.indexOf(' ');
        if (sp > 0) f.previous = { commit: value.slice(0, sp), path: unquotePath(value.slice(sp + 1)) };
      }
    }
    lines.push({ line: Number(head[3]), commit, origLine: Number(head[2]), path: f.path ?? '' });
  }
  for (const [commit, f] of facts) {
    commits.set(commit, {
      date: f.time !== undefined ? isoDate(f.time, f.tz ?? '+0000') : '',
      subject: f.subject ?? '',
      ...(f.previous && !f.boundary ? { previous: f.previous } : {}),
      boundary: f.boundary,
    });
  }
  return { lines, commits };
}

/** Consecutive lines of one commit whose origins are consecutive lines of one path: one run. */
export function runsOf(lines: readonly BlameLine[]): BlameRun[] {
  const runs: BlameRun[] = [];
  let open:
    { start: number; end: number; commit: string; path: string; origStart: number; origEnd: number } | undefined;
  const close = () => {
    if (!open) return;
    const uncommitted = UNCOMMITTED.test(open.commit);
    runs.push({
      lines: { start: open.start, end: open.end },
      ...(uncommitted
        ? {}
        : { commit: open.commit, orig: { path: open.path, range: { start: open.origStart, end: open.origEnd } } }),
    });
    open = undefined;
  };
  for (const l of [...lines].sort((a, b) => a.line - b.line)) {
    const joins =
      open &&
      l.commit === open.commit &&
      l.line === open.end + 1 &&
      (UNCOMMITTED.test(l.commit) || (l.path === open.path && l.origLine === open.origEnd + 1));
    if (open && joins) {
      open.end = l.line;
      open.origEnd = l.origLine;
      continue;
    }
    close();
    open = { start: l.line, end: l.line, commit: l.commit, path: l.path, origStart: l.origLine, origEnd: l.origLine };
  }
  close();
  return runs;
}

/** Blame of `range` of the working tree's file `path` (byte string, top level); a file HEAD lacks is all uncommitted. */
export function blameRange(repo: Repo, path: string, range: LineRange): Outcome<Blame> {
  const end = Math.min(range.end, range.start + BLAME_LINES_MAX - 1);
  const cutLines = range.end - end;
  const arg = gitArg(path);
  if (arg === undefined)
    return fail(
      'git_failed',
      `${Buffer.from(path, 'latin1').toString('utf8')} is not UTF-8; Git cannot be asked about it`,
    );
  if (repo.head === undefined)
    return ok({ runs: [{ lines: { start: range.start, end } }], commits: new Map(), cutLines });
  const moved = String(BLAME_MOVE_MIN_CHARS);
  const run = runGit(repo.top, [
    'blame',
    '--porcelain',
    '-w',
    `-M${moved}`,
    `-C${moved}`,
    '-L',
    `${range.start},${end}`,
    '--',
    arg,
  ]);
  if (run.state !== 'ok') {
    // A file HEAD does not have: Git refuses to blame it; every line is uncommitted.
    if (run.state === 'failed' && /no such path/.test(run.reason))
      return ok({ runs: [{ lines: { start: range.start, end } }], commits: new Map(), cutLines });
    return gitFailure(run, 'git blame');
  }
  const parsed = parsePorcelain(run.stdout.toString('latin1'));
  return ok({ runs: runsOf(parsed.lines), commits: parsed.commits, cutLines });
}
