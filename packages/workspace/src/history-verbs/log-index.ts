// The history index in the background (docs/history.md, "The history index"): the daemon
// starts a detached, low-priority builder after each reconcile when its repository's HEAD
// moved (`node history-verbs/log-index.js ROOT CACHE_BASE`); the builder takes the repository's build
// lock, so the daemons of two worktrees of one repository never build at once, and exits.
// `hist` reads whatever index is there and never waits for one: what it lacks is read
// from Git, within the budget. One index per Git common directory, under the cache base
// (the parent of every root's cache directory, `--cache` included).
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildHistoryIndex,
  buildLockState,
  historyIndexDir,
  historyIndexFile,
  historyIndexStatus,
  headStamp,
  loadHistoryIndex,
  openRepo,
  type HistoryIndexStatus,
  type LoadedHistoryIndex,
  type Repo,
} from '@trufflepig/history';
import { runDetachedJob, startDetached } from '../serving/launch/detached-job';

const SCRIPT = path.join(__dirname, 'log-index.js');

/** The cache base a root's cache directory lies in (`<base>/<root hash>`): where history indexes live. */
export function cacheBaseOf(cacheDir: string): string {
  return path.dirname(path.resolve(cacheDir));
}

/** Start a detached builder of `root`'s repository index; false when it cannot start (e.g. running from TypeScript sources). */
export function startHistoryIndexBuild(root: string, cacheBase: string): boolean {
  return startDetached(SCRIPT, [root, cacheBase]);
}

// HEAD a builder was last started at, per index directory: a reconcile after an edit burst
// spawns nothing when HEAD did not move and the file is there.
const startedAt = new Map<string, string>();

// Per root: where its repository keeps HEAD, the HEAD a builder was started at, and the
// HEAD stamp (history headStamp) read before that HEAD was looked up ('' when none was: the
// first lookup learns where HEAD lives). While the stamp reads the same, HEAD has not moved
// and no Git runs: the two `git rev-parse` of openRepo were ~25 ms of the daemon's thread
// after every reconcile, before the search waiting for the edit was answered.
const stampedAt = new Map<
  string,
  {
    readonly stamp: string;
    /** Undefined: the repository had no commit yet. */
    readonly head: string | undefined;
    readonly repo: Pick<Repo, 'headFile' | 'commonDir'>;
  }
>();

/**
 * The daemon's hook after a reconcile: start a builder when the repository's HEAD is not
 * the one a builder was last started at, or its index file is gone. Cheap otherwise (a
 * read of HEAD and a stat of its ref); never throws, never waits for the build.
 */
export function refreshHistoryIndex(
  root: string,
  cacheBase: string,
): 'started' | 'fresh' | 'no_repository' | 'not_started' {
  try {
    // Read before Git is asked: a HEAD that moves after it reads another stamp next time.
    const known = stampedAt.get(root);
    const stamp = known ? headStamp(known.repo) : undefined;
    if (known && stamp !== undefined && stamp === known.stamp) {
      if (known.head === undefined) return 'no_repository';
      const dir = historyIndexDir(cacheBase, known.repo.commonDir);
      if (startedAt.get(dir) === known.head && fs.existsSync(historyIndexFile(dir))) return 'fresh';
    }
    stampedAt.delete(root);
    const repo = openRepo(root);
    if (!repo.ok) return 'no_repository';
    const head = repo.value.head;
    const remember = () => stampedAt.set(root, { stamp: stamp ?? '', head, repo: repo.value });
    if (head === undefined) {
      remember();
      return 'no_repository';
    }
    const dir = historyIndexDir(cacheBase, repo.value.commonDir);
    const fresh = startedAt.get(dir) === head && fs.existsSync(historyIndexFile(dir));
    if (!fresh && !startHistoryIndexBuild(root, cacheBase)) return 'not_started';
    startedAt.set(dir, head);
    remember();
    return fresh ? 'fresh' : 'started';
  } catch {
    return 'not_started';
  }
}

/** `status`'s `history` field: the index of the root's repository (absent outside Git). */
export function historyIndexReport(root: string, cacheBase: string): HistoryIndexStatus | undefined {
  const repo = openRepo(root);
  if (!repo.ok) return undefined;
  try {
    return historyIndexStatus(repo.value, cacheBase);
  } catch (err) {
    return {
      state: 'absent',
      file: historyIndexFile(historyIndexDir(cacheBase, repo.value.commonDir)),
      notes: [`cannot be read: ${(err as Error).message}`],
    };
  }
}

/**
 * The history index `hist` walks with (undefined: Git throughout), and what coverage says
 * of it. When it is missing or behind HEAD, a builder is started (unless the caller may
 * start nothing) and this answer reads Git meanwhile: it never waits for the build.
 */
export function historyIndexForWalk(
  repo: Repo,
  cacheBase: string,
  mayStart: boolean,
): { index?: LoadedHistoryIndex; state: string; started: boolean } {
  const loaded = loadHistoryIndex(repo, cacheBase);
  const dir = historyIndexDir(cacheBase, repo.commonDir);
  const building = buildLockState(dir).state === 'held';
  const current = loaded.index !== undefined && loaded.index.head === repo.head;
  const started =
    !current && !building && mayStart && repo.head !== undefined && startHistoryIndexBuild(repo.top, cacheBase);
  const state =
    building || started
      ? 'building'
      : loaded.index === undefined
        ? loaded.read === 'ok'
          ? 'absent'
          : loaded.read
        : current
          ? 'current'
          : 'behind_head';
  return { ...(loaded.index ? { index: loaded.index } : {}), state, started };
}

if (require.main === module) {
  const [root, cacheBase] = process.argv.slice(2);
  runDetachedJob(Boolean(root && cacheBase), 'usage: history-index ROOT CACHE_BASE', () =>
    buildHistoryIndex(root, cacheBase),
  );
}
