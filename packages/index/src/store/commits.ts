// Commit documents in the store: one `commits` row per first-parent commit (id, date,
// subject, changed paths) and its message in the contentless `commit_fts` table. Rows are
// inserted oldest first, so row ids grow with recency and trimming drops the lowest ids.
import { identifierExpansions } from '../extract/extract';
import { COMMIT_HISTORY_MAX, FTS_DEAD_REBUILD_FRACTION, IN_LIST_MAX } from '../limits';
import { displayPath } from '@trufflepig/base';
import {
  commitDocument,
  commitsSince,
  probeGit,
  readCommits,
  type CommitRecord,
  type GitLogState,
} from '../reconcile/git-log';
import { COMMIT_FTS_DDL, getMeta, setMeta } from './schema';
import { allRows, oneValue, runStatement, type Database } from './sql';

/** Characters of a subject kept in the row (the whole message stays in Git). */
const SUBJECT_MAX_CHARS = 200;

export interface CommitHistoryUpdate {
  readonly changed: boolean;
  readonly state: GitLogState;
  readonly commits: number;
  readonly added: number;
}

function clear(db: Database): void {
  db.exec('DELETE FROM commits; DROP TABLE commit_fts;');
  db.exec(COMMIT_FTS_DDL);
  setMeta(db, 'commit_fts_docs', '0');
}

function insert(db: Database, newestFirst: readonly CommitRecord[]): void {
  const row = db.prepare(
    'INSERT INTO commits(hash, date, subject, bytes, lines, paths, more_paths) VALUES (?,?,?,?,?,?,?)',
  );
  const fts = db.prepare('INSERT INTO commit_fts(docid, body, idents) VALUES (CAST(? AS INTEGER),?,?)');
  for (const c of [...newestFirst].reverse()) {
    const doc = commitDocument(c);
    const bytes = Buffer.byteLength(doc);
    const lines = doc.split('\n').length - 1;
    const id = Number(
      row.run(
        c.hash,
        c.date,
        c.message.split('\n')[0].slice(0, SUBJECT_MAX_CHARS),
        bytes,
        lines,
        c.paths.join('\n'),
        c.morePaths,
      ).lastInsertRowid,
    );
    const pathWords = c.paths.map(displayPath).join(' ');
    fts.run(id, c.message, `${identifierExpansions(c.message, null)} ; ${pathWords}`);
  }
  setMeta(db, 'commit_fts_docs', String(Number(getMeta(db, 'commit_fts_docs') ?? '0') + newestFirst.length));
}

function count(db: Database): number {
  return Number(oneValue(db, 'SELECT count(*) FROM commits'));
}

/** Keep the newest COMMIT_HISTORY_MAX rows. */
function trim(db: Database): void {
  const excess = count(db) - COMMIT_HISTORY_MAX;
  if (excess > 0)
    runStatement(db, 'DELETE FROM commits WHERE id IN (SELECT id FROM commits ORDER BY id LIMIT ?)', [excess]);
}

/**
 * Bring the stored commit history of `root` up to HEAD. Unchanged HEAD costs one
 * `git rev-parse`; a HEAD that moved forward reads only the new commits; rewritten
 * history (or a dead-document share over FTS_DEAD_REBUILD_FRACTION) reads it again.
 */
export function updateCommitHistory(db: Database, root: string): CommitHistoryUpdate {
  const probe = probeGit(root);
  const previousState = getMeta(db, 'git_log') as GitLogState | undefined;
  const previousHead = getMeta(db, 'git_head') ?? '';
  if (probe.state !== 'indexed' || !probe.head) {
    const had = count(db) > 0;
    if (had) clear(db);
    if (previousState !== probe.state) setMeta(db, 'git_log', probe.state);
    setMeta(db, 'git_head', '');
    return { changed: had || previousState !== probe.state, state: probe.state, commits: 0, added: 0 };
  }
  const head = probe.head;
  if (previousState === 'indexed' && previousHead === head)
    return { changed: false, state: 'indexed', commits: count(db), added: 0 };
  const since =
    previousState === 'indexed' && previousHead
      ? commitsSince(root, previousHead, head, COMMIT_HISTORY_MAX)
      : undefined;
  let added: CommitRecord[] | undefined;
  if (since !== undefined) {
    added = readCommits(root, head, since);
    if (added) {
      insert(db, added);
      trim(db);
      const docs = Number(getMeta(db, 'commit_fts_docs') ?? '0');
      if (docs > 0 && (docs - count(db)) / docs > FTS_DEAD_REBUILD_FRACTION) added = undefined;
    }
  }
  if (added === undefined) {
    clear(db);
    added = readCommits(root, head, COMMIT_HISTORY_MAX);
    if (!added) {
      setMeta(db, 'git_log', 'git_error');
      setMeta(db, 'git_head', '');
      return { changed: true, state: 'git_error', commits: 0, added: 0 };
    }
    insert(db, added);
  }
  setMeta(db, 'git_log', 'indexed');
  setMeta(db, 'git_head', head);
  return { changed: true, state: 'indexed', commits: count(db), added: added.length };
}

/** A stored commit document. */
export interface StoredCommit {
  readonly id: number;
  readonly hash: string;
  readonly date: string;
  readonly subject: string;
  readonly bytes: number;
  readonly lines: number;
  readonly paths: readonly string[];
  readonly morePaths: number;
}

export function commitRows(db: Database, ids: readonly number[]): Map<number, StoredCommit> {
  const out = new Map<number, StoredCommit>();
  for (let i = 0; i < ids.length; i += IN_LIST_MAX) {
    const chunk = ids.slice(i, i + IN_LIST_MAX);
    for (const r of allRows(
      db,
      `SELECT id, hash, date, subject, bytes, lines, paths, more_paths FROM commits WHERE id IN (${chunk.map(() => '?').join(',')})`,
      chunk,
    )) {
      out.set(Number(r[0]), {
        id: Number(r[0]),
        hash: String(r[1]),
        date: String(r[2]),
        subject: String(r[3]),
        bytes: Number(r[4]),
        lines: Number(r[5]),
        paths: String(r[6]).split('\n').filter(Boolean),
        morePaths: Number(r[7]),
      });
    }
  }
  return out;
}
