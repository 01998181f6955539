// `since REV`: the definitions added, removed and changed between a commit and the working
// tree, file by file: `git diff --name-status -M REV` (staged and unstaged together) plus
// untracked files, each file's two versions read (the blob hashed, the working file read
// once) and their definitions compared (since-match.ts).
import { extractFile, extractionLanguageOf, qualifiedName, readLiveFile } from '@trufflepig/index';
import { readBlobs } from './blob';
import { countEdits, diffLines } from './diff';
import { fail, ok, type Outcome } from './errors';
import { runGit } from './git';
import { BLOB_MAX_BYTES, DIFF_KEPT_BYTES_MAX, SINCE_FILES_MAX, SUBJECT_MAX_CHARS } from './limits';
import { linesOf } from './origin';
import { outsideHunks, type OutsideHunk } from './outside-hunks';
import { definitionChanges, type DefChange, type DefSpan } from './since-match';
import { encodedPath, gitArg, gitFailure, type Repo } from './repo';

export interface Revision {
  readonly commit: string;
  readonly date: string;
  readonly subject: string;
}

export interface SinceFile {
  /** Byte-string paths from the top level: the working tree's, and REV's when it differs or is the only one. */
  readonly path: string;
  readonly beforePath?: string;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed' | 'untracked';
  /** --uncommitted: the index differs from HEAD in this file (staged), the working tree from the index (unstaged). */
  readonly staged?: boolean;
  readonly unstaged?: boolean;
  readonly changes: readonly DefChange[];
  /** No definition changed (a document, a config file, a change between definitions): the file's own counts. */
  readonly fileCounts?: { readonly added: number; readonly deleted: number };
  /** SHA-256 of the working tree's bytes read; undefined when the file is gone from it. */
  readonly revision?: string;
  /** Why the file's definitions were not compared (binary, too large, unreadable). */
  readonly skipped?: string;
  /** With `hunks` (`diff`): the hunks outside every listed definition change. */
  readonly outside?: readonly OutsideHunk[];
  /** With `hunks`: the bytes compared (REV's blob, the working file), for the hunks' rows; not kept past DIFF_KEPT_BYTES_MAX in all. */
  readonly beforeBytes?: Buffer;
  readonly afterBytes?: Buffer;
}

export interface Since {
  readonly base: Revision;
  readonly files: readonly SinceFile[];
  /** Changed files beyond SINCE_FILES_MAX, not examined. */
  readonly cutFiles: number;
}

/** `rev` as a commit of this repository, else `bad_revision`. */
export function resolveRevision(repo: Repo, rev: string): Outcome<Revision> {
  if (rev.startsWith('-') || rev.includes('\n'))
    return fail('bad_revision', `${rev.slice(0, 64)} is not a revision; name a commit (HEAD~3, main, a hash)`);
  // Git reads `A..B`, `A...B`, `^A`, `A^@` and `A^!` as sets of commits, and `log -1` below
  // would quietly pick one of them: the answer would compare another commit than the one asked.
  if (/\.\.|^\^|\^[@!]/.test(rev)) {
    return fail(
      'bad_revision',
      `${rev.slice(0, 64)} is a range; since and diff compare one commit with the working tree: name one commit (since A^ lists what changed after A's parent); for one commit's own change, hist TARGET and show SET:N`,
    );
  }
  const run = runGit(repo.top, ['log', '-1', '--no-walk', '--format=%H%x00%aI%x00%s', `${rev}^{commit}`, '--']);
  if (run.state === 'unavailable') return gitFailure(run, 'git log');
  const [commit, date, subject] = run.stdout.toString('utf8').trim().split('\0');
  if (run.state !== 'ok' || !/^[0-9a-f]{40,64}$/.test(commit ?? ''))
    return fail(
      'bad_revision',
      `${rev.slice(0, 64)} names no commit in ${repo.top}; use HEAD~N, a branch, a tag or a hash (git log --oneline lists them)`,
    );
  return ok({ commit, date: date ?? '', subject: (subject ?? '').slice(0, SUBJECT_MAX_CHARS) });
}

function nulFields(run: { stdout: Buffer }): string[] {
  const parts = run.stdout.toString('latin1').split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

interface Listed {
  readonly status: SinceFile['status'];
  readonly path: string;
  readonly beforePath?: string;
}

/** Files that differ between `commit` and the working tree under the root, then untracked ones. */
function listChanged(repo: Repo, root: string, commit: string): Outcome<Listed[]> {
  const diff = runGit(root, ['diff', '-z', '--name-status', '-M', '--no-ext-diff', commit, '--', '.']);
  if (diff.state !== 'ok') return gitFailure(diff, 'git diff --name-status');
  const out: Listed[] = [];
  const f = nulFields(diff);
  for (let i = 0; i < f.length; i++) {
    const code = f[i][0];
    if (code === 'R' || code === 'C') {
      out.push({ status: code === 'R' ? 'renamed' : 'added', beforePath: f[i + 1], path: f[i + 2] });
      i += 2;
    } else {
      const status = code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified';
      out.push({ status, path: f[i + 1], ...(status !== 'added' ? { beforePath: f[i + 1] } : {}) });
      i += 1;
    }
  }
  // ls-files names paths from the directory it runs in: the root, below the top level by repo.prefix.
  const others = runGit(root, ['ls-files', '-z', '--others', '--exclude-standard', '--', '.']);
  if (others.state === 'ok')
    for (const p of nulFields(others)) out.push({ status: 'untracked', path: repo.prefix + p });
  return ok(out);
}

function namesOf(run: { state: string; stdout: Buffer }): Set<string> {
  return new Set(run.state === 'ok' ? nulFields(run) : []);
}

function spansOf(path: string, bytes: Buffer): DefSpan[] {
  let defs;
  try {
    defs = extractFile(extractionLanguageOf(Buffer.from(path, 'latin1').toString('utf8')), bytes).definitions;
  } catch {
    return [];
  }
  return defs.map((d) => {
    const range = { start: d.startLine, end: d.endLine };
    return {
      name: qualifiedName(d),
      kind: d.kind,
      range,
      lines: linesOf(bytes, range),
    };
  });
}

/** The root-relative (percent-encoded) path of a top-level path, for reading the working file. */
function rootRelative(repo: Repo, path: string): string | undefined {
  return path.startsWith(repo.prefix) ? encodedPath(path.slice(repo.prefix.length)) : undefined;
}

export interface SinceOptions {
  readonly uncommitted?: boolean;
  /** One top-level path: only that file (its working or REV path). */
  readonly only?: string;
  /** `diff`: also the hunks outside the definition changes, and the bytes compared. */
  readonly hunks?: boolean;
}

/**
 * The definition changes since `base` in the working tree under `root`; `uncommitted`
 * marks each file staged and/or unstaged (HEAD against the index, the index against the
 * working tree).
 */
export function sinceRevision(repo: Repo, root: string, base: Revision, options: SinceOptions = {}): Outcome<Since> {
  const listed = listChanged(repo, root, base.commit);
  if (!listed.ok) return listed;
  const wanted =
    options.only === undefined
      ? listed.value
      : listed.value.filter((l) => l.path === options.only || l.beforePath === options.only);
  const examined = wanted.slice(0, SINCE_FILES_MAX);
  const staged = options.uncommitted
    ? namesOf(runGit(root, ['diff', '-z', '--name-only', '--cached', '--no-renames', base.commit, '--', '.']))
    : undefined;
  const unstaged = options.uncommitted
    ? namesOf(runGit(root, ['diff', '-z', '--name-only', '--no-renames', '--', '.']))
    : undefined;
  const olds = readBlobs(
    repo.top,
    examined.filter((l) => l.beforePath !== undefined).map((l) => ({ rev: base.commit, path: l.beforePath! })),
  );
  if ('failed' in olds) return gitFailure(olds.failed, 'git cat-file');
  let next = 0;
  let kept = 0;
  const files: SinceFile[] = examined.map((l): SinceFile => {
    const old = l.beforePath !== undefined ? olds.reads[next++] : undefined;
    const marks = options.uncommitted
      ? {
          ...(staged!.has(l.path) || (l.beforePath !== undefined && staged!.has(l.beforePath)) ? { staged: true } : {}),
          ...(unstaged!.has(l.path) || l.status === 'untracked' ? { unstaged: true } : {}),
        }
      : {};
    const base = {
      path: l.path,
      ...(l.beforePath !== undefined && l.beforePath !== l.path ? { beforePath: l.beforePath } : {}),
      status: l.status,
      ...marks,
    };
    if (old !== undefined && old.state !== 'ok')
      return {
        ...base,
        changes: [],
        skipped:
          old.state === 'too_large'
            ? 'too large to compare'
            : `its ${base.status === 'deleted' ? 'last' : 'old'} version cannot be read (${old.state})`,
      };
    let bytes: Buffer | undefined;
    let revision: string | undefined;
    if (l.status !== 'deleted') {
      const rel = rootRelative(repo, l.path);
      const live =
        rel !== undefined && gitArg(l.path) !== undefined ? readLiveFile(root, rel, BLOB_MAX_BYTES) : undefined;
      if (!live?.ok)
        return { ...base, changes: [], skipped: 'the working file cannot be read (too large, or not a regular file)' };
      bytes = live.bytes;
      revision = live.revision;
    }
    const oldBytes = old?.state === 'ok' ? old.bytes : undefined;
    if ((bytes && bytes.includes(0)) || (oldBytes && oldBytes.includes(0)))
      return { ...base, changes: [], ...(revision ? { revision } : {}), skipped: 'binary' };
    const before = oldBytes ? spansOf(l.beforePath!, oldBytes) : [];
    const after = bytes ? spansOf(l.path, bytes) : [];
    const changes = definitionChanges(before, after);
    const oldLines = oldBytes ? linesOf(oldBytes) : [];
    const newLines = bytes ? linesOf(bytes) : [];
    const script = changes.length === 0 || options.hunks ? diffLines(oldLines, newLines) : undefined;
    // A change outside every definition (or in a file without any) still shows, as the file's own counts.
    const fileCounts = changes.length === 0 ? countEdits(script!) : undefined;
    const keep =
      options.hunks === true && (kept += (oldBytes?.length ?? 0) + (bytes?.length ?? 0)) <= DIFF_KEPT_BYTES_MAX;
    const hunks = options.hunks
      ? {
          outside: outsideHunks(
            oldLines,
            newLines,
            script!,
            changes,
            after.map((d) => d.range),
          ),
          ...(keep ? { ...(oldBytes ? { beforeBytes: oldBytes } : {}), afterBytes: bytes ?? Buffer.alloc(0) } : {}),
        }
      : {};
    return { ...base, changes, ...(fileCounts ? { fileCounts } : {}), ...(revision ? { revision } : {}), ...hunks };
  });
  return ok({ base, files, cutFiles: wanted.length - examined.length });
}
