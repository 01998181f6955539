// Parsers of Git's output, pure: a `git log --format=%x00… -p -U0` record and the
// sections of a unified diff. Text comes in as byte strings (latin1), so paths and lines
// that are not UTF-8 keep their bytes; only a subject is decoded.

/** One hunk of a `-U0` diff: lines [a, a+b) of the old side became [c, c+d) of the new side (git's numbers). */
export interface Hunk {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

/** One file of a diff. Paths are byte strings relative to the top level; undefined on the side that does not exist. */
export interface FileDiff {
  readonly beforePath?: string;
  readonly afterPath?: string;
  /** How the file came to be on the new side. */
  readonly status: 'modified' | 'added' | 'deleted' | 'renamed' | 'copied';
  readonly hunks: readonly Hunk[];
  /** Git called the file binary: no hunks, the change is the whole file. */
  readonly binary: boolean;
}

export interface LogRecord {
  readonly commit: string;
  readonly parents: readonly string[];
  /** Author date, strict ISO 8601. */
  readonly date: string;
  readonly subject: string;
  readonly files: readonly FileDiff[];
}

/** The `--format` whose records parseLogRecord reads. */
export const LOG_FORMAT = '--format=%x00%H %P%x00%aI%x00%s';

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Git's C-style quoting of a path (`"a/we\tird\"q.ts"`) undone, as a byte string; unquoted text as is. */
export function unquotePath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const body = text.slice(1, -1);
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    '"': '"',
  };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[i + 1];
    if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(oct, 8) & 0xff);
      i += oct.length;
    } else {
      out += simple[next] ?? next;
      i++;
    }
  }
  return out;
}

/** `--- a/x` / `+++ b/x` / `rename from x`: the path after the prefix, unquoted; undefined for /dev/null. */
function headerPath(value: string, prefix: string): string | undefined {
  if (value === '/dev/null') return undefined;
  const path = unquotePath(value);
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** `diff --git a/X b/X` when both names are equal and unquoted (a mode change, a binary file). */
function gitHeaderPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*")$/.exec(rest);
    return m ? [headerPath(m[1], 'a/')!, headerPath(m[2], 'b/')!] : undefined;
  }
  // `a/P b/P`: unambiguous only when the halves are the same path.
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return undefined;
  const left = rest.slice(0, half);
  const right = rest.slice(half + 1);
  return left.startsWith('a/') && right.startsWith('b/') && left.slice(2) === right.slice(2)
    ? [left.slice(2), right.slice(2)]
    : undefined;
}

interface Section {
  before?: string;
  after?: string;
  status: FileDiff['status'];
  hunks: Hunk[];
  binary: boolean;
  sawOld: boolean;
  sawNew: boolean;
}

/**
 * The file sections of a unified diff (the lines after a log record's header, or a whole
 * `git diff` output). Hunk bodies are skipped by their counts, so an added line that reads
 * `+++ x` is never taken for a header.
 */
export function parseDiff(lines: readonly string[]): FileDiff[] {
  const out: FileDiff[] = [];
  let cur: Section | undefined;
  const flush = () => {
    if (!cur) return;
    // A file Git says it added has no old side, one it deleted no new side.
    const before = cur.status === 'added' ? undefined : cur.before;
    const after = cur.status === 'deleted' ? undefined : cur.after;
    out.push({
      ...(before !== undefined ? { beforePath: before } : {}),
      ...(after !== undefined ? { afterPath: after } : {}),
      status: cur.status,
      hunks: cur.hunks,
      binary: cur.binary,
    });
    cur = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) {
      flush();
      const both = gitHeaderPaths(line.slice('diff --git '.length));
      cur = {
        status: 'modified',
        hunks: [],
        binary: false,
        sawOld: false,
        sawNew: false,
        ...(both ? { before: both[0], after: both[1] } : {}),
      };
      continue;
    }
    if (!cur) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      const h = {
        a: Number(hunk[1]),
        b: hunk[2] === undefined ? 1 : Number(hunk[2]),
        c: Number(hunk[3]),
        d: hunk[4] === undefined ? 1 : Number(hunk[4]),
      };
      cur.hunks.push(h);
      // Skip the body: b old lines and d new lines (with -U0 no context), plus "\ No newline" notes.
      let old = h.b;
      let neu = h.d;
      while (i + 1 < lines.length && (old > 0 || neu > 0 || lines[i + 1].startsWith('\\'))) {
        const body = lines[i + 1];
        if (body.startsWith('-') && old > 0) old--;
        else if (body.startsWith('+') && neu > 0) neu--;
        else if (body.startsWith(' ') && old > 0 && neu > 0) {
          old--;
          neu--;
        } else if (!body.startsWith('\\')) break;
        i++;
      }
      continue;
    }
    if (line.startsWith('new file mode')) cur.status = 'added';
    else if (line.startsWith('deleted file mode')) cur.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      cur.status = 'renamed';
      cur.before = headerPath(line.slice('rename from '.length), '');
    } else if (line.startsWith('rename to ')) cur.after = headerPath(line.slice('rename to '.length), '');
    else if (line.startsWith('copy from ')) {
      cur.status = 'copied';
      cur.before = headerPath(line.slice('copy from '.length), '');
    } else if (line.startsWith('copy to ')) cur.after = headerPath(line.slice('copy to '.length), '');
    else if (line.startsWith('--- ') && !cur.sawOld) {
      cur.sawOld = true;
      cur.before = headerPath(line.slice(4), 'a/');
    } else if (line.startsWith('+++ ') && !cur.sawNew) {
      cur.sawNew = true;
      cur.after = headerPath(line.slice(4), 'b/');
    } else if (line.startsWith('Binary files ')) cur.binary = true;
  }
  flush();
  return out;
}

/** One record of `git log LOG_FORMAT -p` (a byte string, starting with its NUL marker); undefined when malformed. */
export function parseLogRecord(text: string): LogRecord | undefined {
  const newline = text.indexOf('\n');
  const header = (newline < 0 ? text : text.slice(0, newline)).split('\0');
  // ['', 'HASH PARENTS', 'DATE', 'SUBJECT']
  if (header.length < 4 || header[0] !== '') return undefined;
  const ids = header[1].trim().split(' ').filter(Boolean);
  if (ids.length === 0 || !ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) return undefined;
  const subject = Buffer.from(header.slice(3).join('\0'), 'latin1').toString('utf8');
  const body = newline < 0 ? [] : text.slice(newline + 1).split('\n');
  return { commit: ids[0], parents: ids.slice(1), date: header[2], subject, files: parseDiff(body) };
}
