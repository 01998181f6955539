// The repository a root lives in, as the history verbs address it: its Git top level,
// where the root sits inside it, HEAD, and (in a shallow clone) where history is cut off.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { percentDecode, percentEncode } from '@trufflepig/base';
import { fail, ok, type Outcome } from './errors';
import { runGit, type GitRun } from './git';

export interface Repo {
  /** Absolute Git top level (canonical). */
  readonly top: string;
  /** The root's place inside it: '' at the top level, else `dir/sub/` (a byte string, '/'-separated). */
  readonly prefix: string;
  /** The commit HEAD names; undefined before the first commit. */
  readonly head?: string;
  /** Commits whose parents this clone does not have (a shallow clone's boundary). */
  readonly shallow: ReadonlySet<string>;
  /** The Git common directory (canonical): shared by every linked worktree; keys the history index. */
  readonly commonDir: string;
  /** The file HEAD is kept in: this worktree's own (a linked worktree's is not the common directory's). */
  readonly headFile: string;
}

/** The error of a Git run that did not succeed, in the history verbs' codes. */
export function gitFailure<T>(run: GitRun, what: string): Outcome<T> {
  if (run.state === 'unavailable')
    return fail('git_unavailable', `${run.reason}; install git to use the history verbs`);
  return fail('git_failed', `${what} failed: ${run.reason}`);
}

function readShallow(file: string): Set<string> {
  try {
    return new Set(
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^[0-9a-f]{40,64}$/.test(l)),
    );
  } catch {
    return new Set();
  }
}

/** The repository of `root` (an absolute, canonical directory); `not_git` outside a Git work tree. */
export function openRepo(root: string): Outcome<Repo> {
  const info = runGit(root, [
    'rev-parse',
    '--show-toplevel',
    '--show-prefix',
    '--git-path',
    'shallow',
    '--git-common-dir',
    '--git-path',
    'HEAD',
  ]);
  if (info.state === 'unavailable') return gitFailure(info, 'git rev-parse');
  if (info.state !== 'ok')
    return fail(
      'not_git',
      `${root} is not inside a Git work tree; the history verbs read Git history (run git init, or use --root on a clone)`,
    );
  const [top, , shallowFile, commonDir, headFile] = info.stdout.toString('utf8').split('\n');
  const prefix = info.stdout.toString('latin1').split('\n')[1];
  const canonical = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p; // as Git printed it
    }
  };
  const canonicalTop = canonical(top);
  const head = runGit(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  return ok({
    top: canonicalTop,
    prefix: prefix ?? '',
    ...(head.state === 'ok' ? { head: head.stdout.toString('utf8').trim() } : {}),
    shallow: readShallow(path.resolve(root, shallowFile ?? '.git/shallow')),
    commonDir: canonical(path.resolve(root, commonDir || '.git')),
    headFile: path.resolve(root, headFile || '.git/HEAD'),
  });
}

/**
 * What HEAD's commit depends on, read from files without running Git: HEAD's own text, and
 * the identity (inode, size, modification time) of the ref file it names, of `packed-refs`
 * and of a reftable's table list. Git replaces these files whenever a commit, checkout,
 * reset or merge moves HEAD, so an equal stamp means HEAD did not move; a different one
 * only that it may have (the caller then asks Git). Undefined when HEAD cannot be read.
 */
export function headStamp(repo: Pick<Repo, 'headFile' | 'commonDir'>): string | undefined {
  let head: string;
  try {
    head = fs.readFileSync(repo.headFile, 'utf8');
  } catch {
    return undefined;
  }
  const identity = (file: string) => {
    try {
      const st = fs.statSync(file, { bigint: true });
      return `${st.ino}:${st.size}:${st.mtimeNs}`;
    } catch {
      return '-';
    }
  };
  const ref = /^ref: (\S+)/.exec(head)?.[1];
  const parts = [head.trim(), identity(path.join(repo.commonDir, 'packed-refs'))];
  parts.push(identity(path.join(repo.commonDir, 'reftable', 'tables.list')));
  // A symbolic HEAD names its ref under the common directory (refs/heads/...).
  if (ref !== undefined) parts.push(identity(path.join(repo.commonDir, ref)));
  return parts.join('|');
}

// Paths inside this package are byte strings (one character per byte, as Git's output is
// read as latin1), so names that are not UTF-8 survive parsing; they become text only for
// Git's arguments and percent-encoded text for storage and printing.

/** A root-relative path (percent-encoded) as Git names it from the top level (a byte string). */
export function gitPathOf(repo: Repo, rootRelative: string): string {
  return repo.prefix + percentDecode(rootRelative).toString('latin1');
}

/** A byte-string path as a Git argument; undefined when it is not UTF-8 (no argument can carry it). */
export function gitArg(gitPath: string): string | undefined {
  const bytes = Buffer.from(gitPath, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** A byte-string path, percent-encoded (the stored form of a ChangeSide path). */
export function encodedPath(gitPath: string): string {
  return percentEncode(Buffer.from(gitPath, 'latin1'));
}

/** A stored (percent-encoded) path back as a byte string. */
export function decodedPath(encoded: string): string {
  return percentDecode(encoded).toString('latin1');
}

/**
 * How a root names top-level paths (both percent-encoded), from the two absolute paths
 * alone: a stored change knows its repository and its owner root, not a Repo.
 */
export function pathPrinter(repoTop: string, root: string): (encodedTopPath: string) => string {
  const prefix = root.startsWith(`${repoTop}/`) ? `${root.slice(repoTop.length + 1)}/` : '';
  return (p) => (p.startsWith(prefix) ? p.slice(prefix.length) : `:/${p}`);
}

/**
 * A top-level path as the root names it, percent-encoded; a path outside the root (a
 * definition that moved in from elsewhere in the repository) keeps Git's `:/` form.
 */
export function rootPathOf(repo: Repo, gitPath: string): string {
  if (gitPath.startsWith(repo.prefix)) return encodedPath(gitPath.slice(repo.prefix.length));
  return `:/${encodedPath(gitPath)}`;
}
