import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitEnvironment } from '@trufflepig/base/git-env';
import { GIT_PROBE_TIMEOUT_MS } from './limits';
import { fail, ok, type Outcome } from './outcome';

/** What Git says about a directory. Paths are canonical (realpath). */
export type GitInfo =
  | { insideWorkTree: false }
  | {
      insideWorkTree: true;
      /** Top level of the work tree (main checkout or linked worktree) containing the dir. */
      topLevel: string;
      /** This work tree's own Git directory (.git, or .git/worktrees/NAME for a linked one). */
      gitDir: string;
      /** The repository's shared Git directory; equal for all worktrees of one repository. */
      commonDir: string;
      /** True when the dir is in a linked worktree (git-dir differs from the common dir). */
      linkedWorktree: boolean;
    };

function realpathOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

// stderr phrases meaning "this directory is simply not in a work tree".
const NOT_A_WORK_TREE = [/not a git repository/i, /must be run in a work tree/i];

/**
 * Ask Git whether `dir` is inside a work tree and, if so, where its top level, own Git
 * directory and common directory are. Synchronous on purpose: callers such as workspace
 * selection need a plain boolean predicate. Uses the `git` executable directly.
 */
export function gitInfo(dir: string): Outcome<GitInfo> {
  const cwd = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch {
    return fail('root_not_found', `${cwd} does not exist; check the path`);
  }
  if (!stat.isDirectory()) return fail('root_not_directory', `${cwd} is not a directory; pass a directory`);
  let stdout: string;
  try {
    stdout = execFileSync(
      'git',
      ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'],
      {
        cwd,
        env: gitEnvironment(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: GIT_PROBE_TIMEOUT_MS,
      },
    );
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT')
      return fail('git_unavailable', 'git is not installed or not on PATH; install git to detect worktrees');
    const stderr = typeof err.stderr === 'string' ? err.stderr : '';
    if (NOT_A_WORK_TREE.some((re) => re.test(stderr))) return ok({ insideWorkTree: false });
    const firstLine = stderr.split('\n').find((line) => line.trim() !== '') ?? String(err.message);
    return fail(
      'git_failed',
      `git rev-parse failed in ${cwd}: ${firstLine.trim()}; fix the repository (e.g. safe.directory) and retry`,
    );
  }
  const [topLevel, gitDir, commonDir] = stdout.split('\n');
  if (!topLevel || !gitDir || !commonDir) {
    return fail(
      'git_failed',
      `git rev-parse gave unexpected output in ${cwd}; check the git installation (2.31 or newer)`,
    );
  }
  const canonicalGitDir = realpathOr(gitDir);
  const canonicalCommonDir = realpathOr(commonDir);
  return ok({
    insideWorkTree: true,
    topLevel: realpathOr(topLevel),
    gitDir: canonicalGitDir,
    commonDir: canonicalCommonDir,
    linkedWorktree: canonicalGitDir !== canonicalCommonDir,
  });
}
