// Ranking of commit documents (`source:git-log`). They are a corpus of their own, with
// their own FTS statistics, ranked by the text lanes that apply to prose (phrase,
// all-terms, any-term; reciprocal rank fusion as for files). Structural and live-byte
// queries (`sym:`, `re:`, `lang:`, `kind:`) describe files and find no commits.
import { fuseLanes, WEIGHT_DEFAULT, WEIGHT_PHRASE, type Lane } from '@trufflepig/rank';
import { LANE_REGION_SCAN_MAX } from '../limits';
import { commitRows, type StoredCommit } from '../store/commits';
import { allRows } from '../store/sql';
import { bm25, ftsExpression, type FtsMode } from './fts';
import type { SearchHit } from './hit';
import { identifierTokens } from './lanes';
import type { ParsedQuery } from './parse';
import { createPathMatcher } from './pathmatch';
import type { IndexReader } from './reader';

export const GIT_LOG_TAG = 'source:git-log';
export const COMMIT_PATH_PREFIX = 'commit:';

/** Whether the query's source filters let commit documents through. */
export function commitsAllowed(q: ParsedQuery): boolean {
  if (q.sourceExclude.includes(GIT_LOG_TAG)) return false;
  if (q.sources.length > 0 && !q.sources.includes(GIT_LOG_TAG)) return false;
  return q.mode !== 'sym' && q.mode !== 're' && q.languages.length === 0 && q.kinds.length === 0;
}

function commitHit(c: StoredCommit): SearchHit {
  return {
    path: `${COMMIT_PATH_PREFIX}${c.hash}`,
    start: 0,
    end: c.bytes,
    startLine: 1,
    endLine: Math.max(1, c.lines),
    lane: 'commit',
    revision: c.hash,
    tags: [GIT_LOG_TAG],
    lang: 'text',
    name: c.subject,
    commit: { hash: c.hash, date: c.date, paths: c.paths, morePaths: c.morePaths },
  };
}

function scoredIds(
  reader: IndexReader,
  expression: string,
  truncated: { value: boolean },
): { id: number; score: number }[] {
  const out = allRows(
    reader.db,
    `SELECT c.id, matchinfo(commit_fts, 'pcnalx') FROM commit_fts JOIN commits c ON c.id = commit_fts.docid
     WHERE commit_fts MATCH ? LIMIT ${LANE_REGION_SCAN_MAX}`,
    [expression],
  ).map((r) => ({ id: Number(r[0]), score: bm25(r[1] as Uint8Array) }));
  if (out.length >= LANE_REGION_SCAN_MAX) truncated.value = true;
  // Best score first; newer commits (higher ids) break ties.
  return out.sort((a, b) => b.score - a.score || b.id - a.id);
}

/** Commit hits of a query, best first; empty when the query's filters exclude commits. */
export function searchCommits(reader: IndexReader, q: ParsedQuery): { hits: SearchHit[]; truncated: boolean } {
  if (!commitsAllowed(q)) return { hits: [], truncated: false };
  const truncated = { value: false };
  const fileFilter =
    q.fileInclude.length + q.fileExclude.length > 0
      ? createPathMatcher(
          q.fileInclude,
          q.fileExclude,
          reader.files().map((f) => f.path),
        )
      : undefined;
  // A commit passes a file: filter when some path it changed does.
  const eligible = (c: StoredCommit) => !fileFilter || c.paths.some((p) => fileFilter(p));
  const tokens = q.identifier ? identifierTokens(q.text) : [...q.words];
  if (tokens.length === 0) {
    if (q.text) return { hits: [], truncated: false };
    // Filters alone (`source:git-log file:src/`): the commits, newest first.
    const ids = allRows(reader.db, 'SELECT id FROM commits ORDER BY id DESC').map((r) => Number(r[0]));
    const rows = commitRows(reader.db, ids);
    return {
      hits: ids
        .map((id) => rows.get(id)!)
        .filter(eligible)
        .map(commitHit),
      truncated: false,
    };
  }
  const modes: [string, FtsMode, number][] =
    q.mode === 'literal' || q.identifier
      ? [['phrase', 'phrase', WEIGHT_PHRASE]]
      : tokens.length >= 2
        ? [
            ['phrase', 'phrase', WEIGHT_PHRASE],
            ['all_terms', 'all', WEIGHT_DEFAULT],
            ['any_term', 'any', WEIGHT_DEFAULT],
          ]
        : [['any_term', 'any', WEIGHT_DEFAULT]];
  const perLane = modes.map(([name, mode, weight]) => ({
    name,
    weight,
    ids: scoredIds(reader, ftsExpression(tokens, mode), truncated),
  }));
  const rows = commitRows(reader.db, [...new Set(perLane.flatMap((l) => l.ids.map((x) => x.id)))]);
  const lanes: Lane<SearchHit>[] = perLane.map((l) => ({
    name: l.name,
    weight: l.weight,
    entries: l.ids
      .map((x) => rows.get(x.id)!)
      .filter(eligible)
      .map((c) => {
        const hit = commitHit(c);
        return { path: hit.path, start: 0, end: hit.end, payload: hit };
      }),
  }));
  // One kind of document: no path prior, no tiers. Equal scores fall back to the hash
  // order of fuseLanes, which is deterministic.
  return { hits: fuseLanes(lanes).map((f) => f.representative.payload), truncated: truncated.value };
}
