// A target as it is in the working tree (the index's lines) mapped to HEAD, where its
// history starts: through `git diff HEAD` of its file, with the uncommitted change inside
// it counted on the way.
import { objectTypes } from './blob';
import { ok, type Outcome } from './errors';
import type { HistTarget } from './follow';
import { runGit } from './git';
import { parseDiff } from './parse-log';
import { mapRangeBack, wholeFileCounts } from './ranges';
import { gitArg, gitFailure, type Repo } from './repo';

export interface HeadMapping {
  /** The target in HEAD; undefined when HEAD does not have it (the file, or every line of the range, is uncommitted). */
  readonly target?: HistTarget;
  /** Lines added and deleted inside the target since HEAD (staged or not); undefined when none. */
  readonly uncommitted?: { readonly added: number; readonly deleted: number };
  /** False when HEAD has no such file (or there is no commit yet). */
  readonly inHead: boolean;
}

/** `working` (lines of the working tree's file) in HEAD's version of the file. */
export function mapToHead(repo: Repo, working: HistTarget): Outcome<HeadMapping> {
  const arg = gitArg(working.path);
  if (repo.head === undefined || arg === undefined) return ok({ inHead: false });
  const types = objectTypes(repo.top, [`${repo.head}:${arg}`]);
  if ('failed' in types) return gitFailure(types.failed, 'git cat-file');
  if (types[0] !== 'blob') return ok({ inHead: false });
  const run = runGit(repo.top, [
    'diff',
    '-U0',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    repo.head,
    '--',
    arg,
  ]);
  if (run.state !== 'ok') return gitFailure(run, 'git diff HEAD');
  const file = parseDiff(run.stdout.toString('latin1').split('\n')).find(
    (f) => f.afterPath === working.path || f.beforePath === working.path,
  );
  if (file === undefined || (file.hunks.length === 0 && !file.binary)) return ok({ target: working, inHead: true });
  if (working.range === undefined)
    return ok({ target: working, uncommitted: wholeFileCounts(file.hunks), inHead: true });
  const mapped = mapRangeBack(working.range, file.hunks);
  const uncommitted =
    mapped.added + mapped.deleted > 0 ? { uncommitted: { added: mapped.added, deleted: mapped.deleted } } : {};
  if (mapped.before === undefined) return ok({ ...uncommitted, inHead: true });
  return ok({ target: { ...working, range: mapped.before }, ...uncommitted, inHead: true });
}
