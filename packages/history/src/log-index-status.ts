// What `status` says of a repository's history index (docs/history.md, "The history
// index"): absent, building, ready (at HEAD, back to the first commit) or partial (behind
// HEAD, or ended by a bound: what it lacks is read from Git), with what it covers.
import { buildLockState, historyIndexDir, historyIndexFile, readIndexFile } from './log-index-store';
import type { Repo } from './repo';

export type HistoryIndexState = 'absent' | 'building' | 'ready' | 'partial';

export interface HistoryIndexStatus {
  readonly state: HistoryIndexState;
  readonly file: string;
  /** Commits the index holds (first-parent, newest first from `head`). */
  readonly commits?: number;
  /** The commit it was built (or last updated) at. */
  readonly head?: string;
  readonly oldest?: string;
  readonly bytes?: number;
  /** When its newest segment was written (ISO). */
  readonly built_at?: string;
  readonly segments?: number;
  /** Why it is partial, or why a file there was not used. */
  readonly notes?: readonly string[];
  /** The build running now. */
  readonly building?: { readonly pid: number; readonly since: string };
}

/** The history index of `repo` under `cacheBase`, as status reports it. Reads (and checks) the whole file. */
export function historyIndexStatus(repo: Repo, cacheBase: string): HistoryIndexStatus {
  const dir = historyIndexDir(cacheBase, repo.commonDir);
  const file = historyIndexFile(dir);
  const lock = buildLockState(dir);
  const building = lock.state === 'held' ? { building: { pid: lock.pid, since: lock.since } } : {};
  const read = readIndexFile(dir, repo.commonDir);
  const notes: string[] = [];
  if (read.state !== 'ok') {
    if (read.state === 'corrupt')
      notes.push(`history_index_corrupt: the file there is not used (${read.reason}); the next build replaces it`);
    if (read.state === 'foreign') notes.push(`the file there describes ${read.commonDir}; the next build replaces it`);
    if (lock.state === 'stale')
      notes.push(`a build lock left by process ${lock.pid}, which is gone; the next build takes it over`);
    // `absent` alone read as "no history" beside an index report saying git_log indexed (an
    // agent trial): say what this file is and what answers meanwhile.
    if (read.state === 'absent' && lock.state !== 'held')
      notes.push(
        "the commit index of hist and blame is not built yet: the root's daemon builds it, and until then they read Git; commit messages (source:git-log) are in the search index",
      );
    return {
      state: lock.state === 'held' ? 'building' : 'absent',
      file,
      ...building,
      ...(notes.length ? { notes } : {}),
    };
  }
  const { commits, segments } = read.index;
  const head = segments[segments.length - 1].head;
  const oldest = commits[commits.length - 1];
  const cut = segments[0].cut;
  if (repo.head !== head)
    notes.push(
      `built at ${head.slice(0, 12)}, HEAD is ${repo.head?.slice(0, 12) ?? 'unborn'}: commits above it are read from Git until the daemon updates it`,
    );
  if (cut)
    notes.push(
      `ends at ${oldest.commit.slice(0, 12)} (${oldest.date.slice(0, 10)}): ${cut.detail} (bound: ${cut.reason}); older commits are read from Git`,
    );
  else if (oldest.parents.length > 0)
    notes.push(`ends at ${oldest.commit.slice(0, 12)}; older commits are read from Git`);
  const state: HistoryIndexState = lock.state === 'held' ? 'building' : notes.length === 0 ? 'ready' : 'partial';
  return {
    state,
    file,
    commits: commits.length,
    head,
    oldest: oldest.commit,
    bytes: read.bytes,
    built_at: segments[segments.length - 1].built_at,
    segments: segments.length,
    ...building,
    ...(notes.length ? { notes } : {}),
  };
}
