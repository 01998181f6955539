import * as fs from 'node:fs';
import ignore, { type Ignore } from 'ignore';
import { isAlwaysSkippedDir, percentEncode } from '@trufflepig/base';
import { IGNORE_FILE_MAX_BYTES } from './limits';
import { readInsideRoot } from './read/inside-root';
import { listGitFiles, type GitListing } from './walk/git';
import { summarizeSkipped, type SkippedEntry, type SkipSummary } from './walk/skipped';

export interface WalkedFile {
  /** Percent-encoded root-relative path. */
  readonly path: string;
  /** Raw root-relative path bytes. */
  readonly raw: Buffer;
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ino: number;
  readonly symlink: boolean;
}

export interface WalkIssue {
  readonly path: string;
  readonly kind: 'walk_error';
  readonly message: string;
}

export interface WalkResult {
  readonly files: WalkedFile[];
  readonly issues: WalkIssue[];
  /** Who chose the files: Git (the root is in a work tree) or the walk reading ignore files itself. */
  readonly via: 'git' | 'rules';
  /** What the walk left out (ignored, untracked never-entered directories), counted by class. */
  readonly skipped: SkipSummary;
}

/**
 * The files of a canonical root. Inside a Git work tree they are Git's
 * (`git ls-files --cached --others --exclude-standard`, global excludes file left out);
 * elsewhere the directories are walked honouring `.gitignore` files (every level) and
 * `.git/info/exclude`. Either way untracked files are included, untracked always-skipped
 * directories are never entered (files Git tracks inside one are listed like any other),
 * symlinks are recorded and never followed, and only regular files and symlinks are
 * returned. What was left out is counted by class.
 */
export function walkRoot(root: string): WalkResult {
  const listing = listGitFiles(root);
  return listing ? walkListed(root, listing) : walkByRules(root);
}

function fileOf(relEntry: Buffer, st: fs.BigIntStats): WalkedFile {
  // A symlink is recorded (findable by path) but never followed: it may leave the root.
  const symlink = st.isSymbolicLink();
  return {
    path: percentEncode(relEntry),
    raw: relEntry,
    size: symlink ? 0 : Number(st.size),
    mtimeNs: st.mtimeNs,
    ino: Number(st.ino),
    symlink,
  };
}

function byPath(a: WalkedFile, b: WalkedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

const SLASH = 0x2f;

/** Stat the paths Git listed; keep the regular files and symlinks that are really there. */
export function walkListed(root: string, listing: GitListing): WalkResult {
  const files: WalkedFile[] = [];
  const issues: WalkIssue[] = [];
  const rootSlash = Buffer.from(root.endsWith('/') ? root : `${root}/`);
  // Whether a root-relative directory is a real directory (not a symlink) all the way
  // down: a tracked `d/f` whose `d` became a link must not be reached through it.
  const realDirs = new Map<string, boolean>();
  const isRealDir = (raw: Buffer, end: number): boolean => {
    const key = raw.toString('latin1', 0, end);
    let real = realDirs.get(key);
    if (real !== undefined) return real;
    const up = raw.lastIndexOf(SLASH, end - 1);
    real = up <= 0 || isRealDir(raw, up);
    if (real) {
      try {
        real =
          fs.lstatSync(Buffer.concat([rootSlash, raw.subarray(0, end)]), { throwIfNoEntry: false })?.isDirectory() ===
          true;
      } catch {
        real = false;
      }
    }
    realDirs.set(key, real);
    return real;
  };
  for (const raw of listing.paths) {
    const parent = raw.lastIndexOf(SLASH);
    if (parent > 0 && !isRealDir(raw, parent)) continue;
    let st: fs.BigIntStats | undefined;
    try {
      st = fs.lstatSync(Buffer.concat([rootSlash, raw]), { bigint: true, throwIfNoEntry: false });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTDIR')
        issues.push({ path: percentEncode(raw), kind: 'walk_error', message: (err as Error).message });
      continue;
    }
    // Missing: a tracked file deleted from the work tree (or a sparse checkout's).
    // Directories are submodules; FIFOs, sockets and devices are never files of the index.
    if (st && (st.isFile() || st.isSymbolicLink())) files.push(fileOf(raw, st));
  }
  for (const dir of listing.unreadable)
    issues.push({ path: percentEncode(dir.raw), kind: 'walk_error', message: dir.message });
  for (const dir of listing.unlisted) {
    issues.push({
      path: percentEncode(dir),
      kind: 'walk_error',
      message: 'git could not list this nested repository; run git status in it to see why',
    });
  }
  files.sort(byPath);
  return { files, issues, via: 'git', skipped: summarizeSkipped(root, listing.skipped) };
}

interface TestResult {
  readonly ignored: boolean;
  readonly unignored: boolean;
}

interface IgnoreLevel {
  /** Directory of the ignore file relative to the root, '' for the root, with trailing '/' otherwise. */
  readonly base: string;
  readonly test: (relative: string) => TestResult;
}

/**
 * `ignore`'s public `test()` also applies one file's rules to every parent directory of
 * the path: right for a single flat ignore file, wrong here, where the walk has settled
 * the parents already (a deeper `!deeper/` may have re-included a directory a parent
 * file excluded, and Git then matches each rule against the path alone). Its rule set
 * tests the path alone; the public call is the fallback should a release drop it (the
 * differential test in test/walk-git.test.ts would then fail).
 */
function levelTester(text: string): (relative: string) => TestResult {
  // Git matches case-sensitively unless core.ignorecase is set (never by default on Linux).
  const rules: Ignore = ignore({ ignorecase: false }).add(text);
  const manager = (rules as unknown as { _rules?: { test?: unknown } })._rules;
  if (manager && typeof manager.test === 'function') {
    const testPathOnly = manager.test as (this: unknown, relative: string, mode: string) => TestResult;
    return (relative) => testPathOnly.call(manager, relative, 'regex');
  }
  return (relative) => rules.test(relative);
}

/** An ignore file's rules, read like any file of the root: a FIFO or link in its place is no rule set and never blocks. */
function readIgnoreFile(root: string, relative: Buffer): string | undefined {
  const read = readInsideRoot(root, relative, IGNORE_FILE_MAX_BYTES);
  return read.ok ? read.bytes.toString('utf8') : undefined;
}

function isIgnored(levels: readonly IgnoreLevel[], relText: string, isDir: boolean): boolean {
  // Deeper files outrank shallower ones, as in Git: the last level with a matching rule decides.
  let ignored = false;
  for (const level of levels) {
    if (!relText.startsWith(level.base)) continue;
    const r = level.test(relText.slice(level.base.length) + (isDir ? '/' : ''));
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Walk a root that is not in a Git work tree, honouring `.gitignore` files (every level)
 * and `.git/info/exclude` by matching their rules here.
 */
export function walkByRules(root: string): WalkResult {
  const files: WalkedFile[] = [];
  const issues: WalkIssue[] = [];
  const skipped: SkippedEntry[] = [];
  const rootBuf = Buffer.from(root);
  const rootLevels: IgnoreLevel[] = [];
  const exclude = readIgnoreFile(root, Buffer.from('.git/info/exclude'));
  if (exclude) rootLevels.push({ base: '', test: levelTester(exclude) });
  const stack: { rel: Buffer; levels: IgnoreLevel[] }[] = [{ rel: Buffer.alloc(0), levels: rootLevels }];
  while (stack.length > 0) {
    const { rel, levels: parentLevels } = stack.pop()!;
    const absDir = rel.length === 0 ? rootBuf : Buffer.concat([rootBuf, Buffer.from('/'), rel]);
    const relPrefix = rel.length === 0 ? Buffer.alloc(0) : Buffer.concat([rel, Buffer.from('/')]);
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(absDir, { encoding: 'buffer', withFileTypes: true });
    } catch (err) {
      issues.push({ path: percentEncode(rel), kind: 'walk_error', message: (err as Error).message });
      continue;
    }
    let levels = parentLevels;
    const gitignore = entries.find((e) => e.isFile() && e.name.toString('latin1') === '.gitignore');
    if (gitignore) {
      const text = readIgnoreFile(root, Buffer.concat([relPrefix, Buffer.from('.gitignore')]));
      if (text) levels = [...parentLevels, { base: relPrefix.toString('utf8'), test: levelTester(text) }];
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    const subdirs: Buffer[] = [];
    for (const entry of entries) {
      const nameText = entry.name.toString('utf8');
      const relEntry = Buffer.concat([relPrefix, entry.name]);
      const relText = relEntry.toString('utf8');
      // Skipped whatever the entry is: a `.git` file is a worktree/submodule link and a
      // `node_modules` symlink points into a package store. Outside Git nothing is tracked,
      // so every such directory is an untracked one, counted (`.git` is no content).
      if (isAlwaysSkippedDir(nameText)) {
        if (nameText !== '.git') skipped.push({ raw: relEntry, dir: entry.isDirectory() });
        continue;
      }
      if (entry.isDirectory()) {
        if (isIgnored(levels, relText, true)) {
          skipped.push({ raw: relEntry, dir: true });
          continue;
        }
        subdirs.push(relEntry);
        continue;
      }
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      if (isIgnored(levels, relText, false)) {
        skipped.push({ raw: relEntry, dir: false });
        continue;
      }
      try {
        const st = fs.lstatSync(Buffer.concat([rootBuf, Buffer.from('/'), relEntry]), { bigint: true });
        if (st.isFile() || st.isSymbolicLink()) files.push(fileOf(relEntry, st));
      } catch (err) {
        issues.push({ path: percentEncode(relEntry), kind: 'walk_error', message: (err as Error).message });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ rel: subdirs[i], levels });
  }
  files.sort(byPath);
  return { files, issues, via: 'rules', skipped: summarizeSkipped(root, skipped) };
}
