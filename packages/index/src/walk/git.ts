// The file set of a root inside a Git work tree is Git's own answer (architecture.md,
// Walk): `git ls-files` applies `.gitignore` at every level, `.git/info/exclude`, tracked
// files under ignored paths and case rules exactly as Git does, which no re-implementation
// of the rules matched (issue 10, finding 9).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { ALWAYS_SKIPPED_DIRS, gitEnvironment } from '@trufflepig/base';
import { WALK_GIT_MAX_LISTING_BYTES, WALK_GIT_TIMEOUT_MS } from '../limits';
import { rootPrefix } from './root-prefix';
import type { SkippedEntry } from './skipped';

export interface GitListing {
  /**
   * Root-relative raw paths Git lists: tracked files (whether or not they still exist)
   * and untracked files that no ignore rule excludes, and the same for each untracked
   * nested repository, as that repository's Git lists them.
   */
  readonly paths: Buffer[];
  /** Directories Git could not open (root-relative raw paths, no trailing slash). */
  readonly unreadable: { readonly raw: Buffer; readonly message: string }[];
  /** Nested repositories Git listed but could not list the files of (root-relative, no trailing slash). */
  readonly unlisted: Buffer[];
  /**
   * What Git left out: ignored entries and untracked never-entered directories, collapsed
   * to directories as `git ls-files -o -i --directory` reports them (root-relative).
   */
  readonly skipped: SkippedEntry[];
}

/**
 * The user's global excludes file is not part of the repository, so it does not shape
 * the index (Git reads it only when core.excludesFile is unset); no fsmonitor hook runs.
 */
const CONFIG = ['-c', `core.excludesFile=${os.devNull}`, '-c', 'core.fsmonitor=false'];

function gitEnv(): NodeJS.ProcessEnv {
  return gitEnvironment({ GIT_OPTIONAL_LOCKS: '0' });
}

interface GitRun {
  readonly ok: boolean;
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

function git(root: string, args: readonly string[]): GitRun {
  const r = spawnSync('git', ['-C', root, ...CONFIG, ...args], {
    env: gitEnv(),
    maxBuffer: WALK_GIT_MAX_LISTING_BYTES,
    timeout: WALK_GIT_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = r.stdout ?? Buffer.alloc(0);
  const stderr = r.stderr ?? Buffer.alloc(0);
  return { ok: !r.error && r.status === 0, status: r.status, stdout, stderr };
}

const SLASH = 0x2f;

const SKIPPED = new Set(ALWAYS_SKIPPED_DIRS);
const SKIPPED_MIN = Math.min(...ALWAYS_SKIPPED_DIRS.map((n) => n.length));
const SKIPPED_MAX = Math.max(...ALWAYS_SKIPPED_DIRS.map((n) => n.length));

/** True when a component of the raw relative path is a directory the walk never enters. */
export function hasSkippedComponent(raw: Buffer): boolean {
  let start = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i < raw.length && raw[i] !== SLASH) continue;
    const length = i - start;
    // The names are ASCII: only components of a plausible length are decoded and compared.
    if (length >= SKIPPED_MIN && length <= SKIPPED_MAX && SKIPPED.has(raw.toString('latin1', start, i))) return true;
    start = i + 1;
  }
  return false;
}

function splitNul(out: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let end = out.indexOf(0, start); end !== -1; end = out.indexOf(0, start)) {
    if (end > start) parts.push(out.subarray(start, end));
    start = end + 1;
  }
  if (start < out.length) parts.push(out.subarray(start));
  return parts;
}

// `warning: could not open directory 'sub/dir/': Permission denied` — the path is
// relative to the top level, not to the directory git ran in.
const UNREADABLE_DIR = /^warning: could not open directory '(.*)\/': (.*)$/;

function unreadableDirs(stderr: Buffer, prefix: Buffer): GitListing['unreadable'] {
  const found: { raw: Buffer; message: string }[] = [];
  for (const line of splitLines(stderr)) {
    const m = UNREADABLE_DIR.exec(line.toString('latin1'));
    if (!m) continue;
    const fromTop = Buffer.from(m[1], 'latin1');
    if (!fromTop.subarray(0, prefix.length).equals(prefix)) continue;
    found.push({ raw: fromTop.subarray(prefix.length), message: m[2] });
  }
  return found;
}

function splitLines(out: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = out.indexOf(0x0a, start); end !== -1; end = out.indexOf(0x0a, start)) {
    lines.push(out.subarray(start, end));
    start = end + 1;
  }
  if (start < out.length) lines.push(out.subarray(start));
  return lines;
}

/**
 * Git's file set for `root`, or undefined when Git cannot answer for it (workTreePrefix,
 * or `ls-files` failed): the caller walks such roots by the ignore rules instead.
 */
export function listGitFiles(root: string): GitListing | undefined {
  const prefix = workTreePrefix(root);
  if (prefix === undefined) return undefined;
  const listing: GitListing = { paths: [], unreadable: [], unlisted: [], skipped: [] };
  return listRepository(root, Buffer.alloc(0), prefix, listing) ? listing : undefined;
}

/**
 * Git's answer for `scope` alone (root-relative raw paths, each a file or a directory with
 * everything below it, taken literally): what `listGitFiles` would list there. `'whole'`
 * when the scope cannot be answered alone: it reaches into an untracked nested repository
 * (whose files are its own Git's answer), holds something ignored (which changes the skip
 * summary) or an unreadable directory, names a path that is not UTF-8, or Git failed on it.
 * Undefined when Git cannot answer for the root at all, as for `listGitFiles`.
 */
export function listGitScope(root: string, scope: readonly Buffer[]): GitListing | 'whole' | undefined {
  // Arguments are strings: a path that is not UTF-8 cannot be named to git.
  const specs = scope.map((raw) => raw.toString('utf8'));
  if (specs.some((spec, i) => !Buffer.from(spec).equals(scope[i]))) return 'whole';
  const prefix = workTreePrefix(root);
  if (prefix === undefined) return undefined;
  const skip = ALWAYS_SKIPPED_DIRS.flatMap((name) => ['-x', name]);
  const ls = (args: readonly string[]) =>
    git(root, ['--literal-pathspecs', 'ls-files', '-z', ...args, '--exclude-standard', ...skip, '--', ...specs]);
  const listed = ls(['--cached', '--others']);
  if (!listed.ok) return 'whole';
  const paths = splitNul(listed.stdout);
  if (paths.some((p) => p[p.length - 1] === SLASH) || unreadableDirs(listed.stderr, prefix).length > 0) return 'whole';
  // What Git listed must explain every path of the scope: otherwise the path is ignored,
  // never entered or in a nested repository, and only the whole walk counts it right.
  const named = new Set(paths.map((p) => p.toString('latin1')));
  const rootSlash = rootPrefix(root);
  const listsInside = (dir: Buffer) =>
    paths.some((p) => p.length > dir.length && p[dir.length] === SLASH && p.subarray(0, dir.length).equals(dir));
  let mayHoldIgnored = false;
  for (const raw of scope) {
    if (named.has(raw.toString('latin1'))) continue;
    const state = pathState(Buffer.concat([rootSlash, raw]));
    // Gone: its published rows go. (An ignored entry it held stays counted in the skip
    // summary until the next whole walk; nothing unsearched hides there.)
    if (state === 'gone' || state === 'empty_dir') continue;
    if (state !== 'dir' || !listsInside(raw)) return 'whole';
    mayHoldIgnored = true;
  }
  if (mayHoldIgnored) {
    // Not --no-empty-directory: with a pathspec it hides ignored files too (git 2.39); an
    // empty ignored directory then sends the reconcile to the whole walk, which is safe.
    const ignored = ls(['--others', '--ignored', '--directory']);
    if (!ignored.ok || splitNul(ignored.stdout).length > 0) return 'whole';
  }
  // An unmerged path is listed once per stage, and the stages are adjacent.
  const unique = paths.filter((p, i) => i === 0 || !p.equals(paths[i - 1]));
  return { paths: unique, unreadable: [], unlisted: [], skipped: [] };
}

/** What is at an absolute path now, for listGitScope; anything unreadable counts as 'other'. */
function pathState(abs: Buffer): 'gone' | 'empty_dir' | 'dir' | 'other' {
  try {
    const st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st) return 'gone';
    if (!st.isDirectory()) return 'other';
    return fs.readdirSync(abs).length === 0 ? 'empty_dir' : 'dir';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'gone' : 'other';
  }
}

/**
 * The root's path inside its work tree ('' or ending in '/'), or undefined when Git cannot
 * answer for the root: git is missing, the root is not inside a work tree (or is inside a
 * `.git` directory), or the root directory is itself ignored by the repository around it
 * (it is then not part of that repository: a project under a home directory tracked with
 * `*` ignored, a checkout under an ignored `vendor/`); such roots are walked by the rules.
 */
function workTreePrefix(root: string): Buffer | undefined {
  const probe = git(root, ['rev-parse', '--is-inside-work-tree', '--show-prefix']);
  if (!probe.ok) return undefined;
  const lines = splitLines(probe.stdout);
  if (lines[0]?.toString('latin1') !== 'true') return undefined;
  // --show-prefix is unquoted and ends with '/' when non-empty.
  const prefix = lines[1] ?? Buffer.alloc(0);
  if (prefix.length > 0) {
    const rootIgnored = git(root, ['check-ignore', '-q', '--no-index', '.']);
    // 0: ignored; 1: not ignored; anything else: Git could not tell, so do not trust it.
    if (rootIgnored.status !== 1) return undefined;
  }
  return prefix;
}

/**
 * Append the files of the checked-out submodule (or other nested repository) at
 * `root/under` (root-relative, ending in '/') to `listing`, as its own Git lists them;
 * false when Git could not (then `listing.unlisted` names it).
 */
export function listNestedRepository(root: string, under: Buffer, listing: GitListing): boolean {
  return listRepository(root, under, Buffer.alloc(0), listing);
}

/**
 * Append the files of the work tree at `root/under` to `listing`. An untracked nested
 * repository (Git lists it as `dir/` and does not look inside) is listed the same way by
 * its own Git, so its files stay part of the enclosing root as they always were
 * (docs/workspace.md): with its own rules, as Git applies them in that repository.
 */
function listRepository(root: string, under: Buffer, prefix: Buffer, listing: GitListing): boolean {
  // Arguments are strings: a nested repository whose name is not UTF-8 cannot be named to git.
  const dir = `${root}/${under.toString('utf8')}`;
  const nameable = Buffer.from(dir).equals(Buffer.concat([Buffer.from(`${root}/`), under]));
  // `-x` patterns outrank every ignore file and apply to untracked paths only, so Git never
  // descends into an untracked never-entered directory (a `node_modules` nobody ignored can
  // be huge), while the files it tracks under one are listed and indexed like any other.
  const skip = ALWAYS_SKIPPED_DIRS.flatMap((name) => ['-x', name]);
  const cwd = under.length === 0 ? root : dir;
  const listed = nameable
    ? git(cwd, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', ...skip])
    : undefined;
  if (!listed?.ok) {
    if (under.length > 0) listing.unlisted.push(under.subarray(0, under.length - 1));
    return false;
  }
  let previous: Buffer | undefined;
  for (const raw of splitNul(listed.stdout)) {
    // An unmerged path is listed once per stage, and the stages are adjacent.
    if (previous && previous.equals(raw)) continue;
    previous = raw;
    const path = under.length === 0 ? raw : Buffer.concat([under, raw]);
    if (raw[raw.length - 1] === SLASH) listRepository(root, path, Buffer.alloc(0), listing);
    else listing.paths.push(path);
  }
  // What was left out, for coverage: Git collapses a directory holding nothing it would
  // list to one entry (and the `-x` names are never entered), so this costs about what the
  // listing above does. Without an answer nothing is counted; the file set is right either way.
  const ignored = git(cwd, [
    'ls-files',
    '-z',
    '--others',
    '--ignored',
    '--directory',
    '--no-empty-directory',
    '--exclude-standard',
    ...skip,
  ]);
  if (ignored.ok) {
    for (const raw of splitNul(ignored.stdout)) {
      const dirEntry = raw[raw.length - 1] === SLASH;
      const rel = dirEntry ? raw.subarray(0, raw.length - 1) : raw;
      listing.skipped.push({ raw: under.length === 0 ? rel : Buffer.concat([under, rel]), dir: dirEntry });
    }
  }
  const own = unreadableDirs(listed.stderr, prefix);
  for (const u of own)
    listing.unreadable.push({ raw: under.length === 0 ? u.raw : Buffer.concat([under, u.raw]), message: u.message });
  return true;
}

/**
 * The directories inside never-entered ones (`node_modules`, `target`, ...) that hold files
 * Git tracks, as root-relative text without a trailing '/', each with its ancestors: the
 * only such directories whose files are indexed, so the only ones worth watching. Empty
 * when Git cannot answer (the walk then enters none of them either).
 */
export function trackedDirsUnderSkipped(root: string): Set<string> {
  const dirs = new Set<string>();
  const listed = git(root, ['ls-files', '-z', '--cached']);
  if (!listed.ok) return dirs;
  for (const raw of splitNul(listed.stdout)) {
    if (!hasSkippedComponent(raw)) continue;
    for (let i = raw.indexOf(SLASH); i !== -1; i = raw.indexOf(SLASH, i + 1)) dirs.add(raw.toString('utf8', 0, i));
  }
  return dirs;
}
