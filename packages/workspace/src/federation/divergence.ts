// Which files of a linked worktree differ from the member checkout whose published index
// answers for it while the worktree has none yet (workspace contract, parent fallback).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { percentEncode } from '@trufflepig/base/stored-path';
import { makeDirectories } from '@trufflepig/base/directories';
import { gitEnvironment } from '@trufflepig/base/git-env';
import { DIVERGENCE_REUSE_MS, GIT_DIVERGENCE_TIMEOUT_MS } from '../core/limits';

export interface Divergence {
  /** Percent-encoded root-relative paths that may differ; undefined when the Git probe failed. */
  readonly paths?: readonly string[];
  /** Why the probe failed (when `paths` is undefined). */
  readonly failure?: string;
  /** When the probe ran (ms since epoch). */
  readonly at: number;
}

const DIVERGENCE_FILE = 'divergence.json';

function git(cwd: string, args: readonly string[]): Buffer {
  return execFileSync('git', ['-c', 'core.quotePath=false', ...args], {
    cwd,
    // The worktree asked about, not a repository an inherited GIT_DIR names.
    env: gitEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: GIT_DIVERGENCE_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
}

function nulList(out: Buffer): Buffer[] {
  const items: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < out.length; i++) {
    if (out[i] === 0) {
      if (i > from) items.push(out.subarray(from, i));
      from = i + 1;
    }
  }
  if (from < out.length) items.push(out.subarray(from));
  return items;
}

/**
 * The union of: worktree files that differ from the member's HEAD commit (tracked, staged
 * or not), untracked worktree files, and the member checkout's own uncommitted and
 * untracked files (the member's index saw those bytes, not its commit's). Paths are
 * relative to the roots, which are the same subdirectory of both checkouts.
 */
export function probeDivergence(memberRoot: string, worktreeRoot: string): Divergence {
  const at = Date.now();
  try {
    const head = git(memberRoot, ['rev-parse', '--verify', '-q', 'HEAD']).toString('utf8').trim();
    const lists = [
      git(worktreeRoot, ['diff', '--name-only', '--relative', '-z', head, '--', '.']),
      git(worktreeRoot, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']),
      git(memberRoot, ['diff', '--name-only', '--relative', '-z', 'HEAD', '--', '.']),
      git(memberRoot, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']),
    ];
    const paths = new Set<string>();
    for (const list of lists) for (const item of nulList(list)) paths.add(percentEncode(item));
    return { paths: [...paths].sort(), at };
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString('utf8').trim().split('\n')[0];
    return { failure: (stderr || (err as Error).message).slice(0, 120), at };
  }
}

/** Reuse a probe younger than DIVERGENCE_REUSE_MS (kept in the worktree's cache) unless `refresh`. */
export function divergenceOf(memberRoot: string, worktreeRoot: string, cacheDir: string, refresh: boolean): Divergence {
  const file = path.join(cacheDir, DIVERGENCE_FILE);
  if (!refresh) {
    try {
      const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as Divergence & { member?: string; worktree?: string };
      if (
        cached.member === memberRoot &&
        cached.worktree === worktreeRoot &&
        Date.now() - cached.at >= 0 &&
        Date.now() - cached.at < DIVERGENCE_REUSE_MS
      )
        return cached;
    } catch {
      // no usable cached probe
    }
  }
  const fresh = probeDivergence(memberRoot, worktreeRoot);
  try {
    makeDirectories(cacheDir);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...fresh, member: memberRoot, worktree: worktreeRoot }));
    fs.renameSync(tmp, file);
  } catch {
    // caching is an optimisation; an unwritable cache only costs another probe
  }
  return fresh;
}
