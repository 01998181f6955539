import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { ALWAYS_SKIPPED_DIRS } from './limits';
import { percentEncode } from './paths';

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
}

interface IgnoreLevel {
  /** Directory of the ignore file relative to the root, '' for the root, with trailing '/' otherwise. */
  readonly base: string;
  readonly rules: Ignore;
}

function readIgnoreFile(file: Buffer): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function isIgnored(levels: readonly IgnoreLevel[], relText: string, isDir: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    if (!relText.startsWith(level.base)) continue;
    const sub = relText.slice(level.base.length) + (isDir ? '/' : '');
    const r = level.rules.test(sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Walk a canonical root honouring `.gitignore` files (every level) and `.git/info/exclude`,
 * never entering the always-skipped directories and never following symlinks. Untracked
 * files are included: the file system, not the Git index, is the truth.
 */
export function walkRoot(root: string): WalkResult {
  const files: WalkedFile[] = [];
  const issues: WalkIssue[] = [];
  const rootBuf = Buffer.from(root);
  const rootLevels: IgnoreLevel[] = [];
  const exclude = readIgnoreFile(Buffer.from(path.join(root, '.git', 'info', 'exclude')));
  if (exclude) rootLevels.push({ base: '', rules: ignore().add(exclude) });
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
      const text = readIgnoreFile(Buffer.concat([absDir, Buffer.from('/.gitignore')]));
      if (text) levels = [...parentLevels, { base: relPrefix.toString('utf8'), rules: ignore().add(text) }];
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    const subdirs: Buffer[] = [];
    for (const entry of entries) {
      const nameText = entry.name.toString('utf8');
      const relEntry = Buffer.concat([relPrefix, entry.name]);
      const relText = relEntry.toString('utf8');
      // Skipped whatever the entry is: a `.git` file is a worktree/submodule link and a
      // `node_modules` symlink points into a package store.
      if (ALWAYS_SKIPPED_DIRS.includes(nameText)) continue;
      if (entry.isDirectory()) {
        if (isIgnored(levels, relText, true)) continue;
        subdirs.push(relEntry);
        continue;
      }
      const symlink = entry.isSymbolicLink();
      if (!entry.isFile() && !symlink) continue;
      if (isIgnored(levels, relText, false)) continue;
      const abs = Buffer.concat([rootBuf, Buffer.from('/'), relEntry]);
      try {
        const st = fs.lstatSync(abs, { bigint: true });
        if (symlink) {
          // A symlink is recorded (findable by path) but never followed: it may leave the root.
          files.push({ path: percentEncode(relEntry), raw: relEntry, size: 0, mtimeNs: st.mtimeNs, ino: Number(st.ino), symlink: true });
        } else {
          files.push({ path: percentEncode(relEntry), raw: relEntry, size: Number(st.size), mtimeNs: st.mtimeNs, ino: Number(st.ino), symlink: false });
        }
      } catch (err) {
        issues.push({ path: percentEncode(relEntry), kind: 'walk_error', message: (err as Error).message });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ rel: subdirs[i], levels });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, issues };
}
