// Workspace coverage: one JSON row per member and one lines summary naming every
// member's state (workspace contract, "Retrieval and output"). Pure.
import { percentEncode } from '@trufflepig/base/stored-path';
import { standInLabel } from './fallback';
import type { MemberSearchResult } from './member-search';
import { truncationWords } from '../core/truncation';
import { diagnosisLine } from '../core/search';
import { staleFilesWords } from '../core/stale';
import {
  tooLargeUnsearchedFields,
  tooLargeUnsearchedWords,
  unparsedFields,
  unparsedWords,
} from '@trufflepig/navigation';
import { printedPath } from '@trufflepig/render';

export type SearchScope = 'home' | 'all' | 'members' | 'home_widened';

export interface CoverageMember {
  readonly result: MemberSearchResult;
  readonly configuredRoot: string;
  readonly root: string;
  readonly worktree: boolean;
}

const SCOPE_WORDS: Readonly<Record<SearchScope, string>> = {
  home: 'scope home',
  all: 'scope all members',
  members: 'scope selected members',
  home_widened: 'scope home, no hits there: widened to all members',
};

function memberRow(m: CoverageMember): Record<string, unknown> {
  const r = m.result;
  const row: Record<string, unknown> = { state: r.state === 'timed_out' ? 'timed_out' : r.state };
  if (m.worktree) {
    row.root = percentEncode(m.configuredRoot);
    row.worktree = percentEncode(m.root);
  }
  if (r.reason !== undefined) row.reason = r.reason;
  if (r.fallback) {
    row.home_state = r.fallback.homeState;
    row.served_from = r.fallback.servedFrom;
    row.differs = r.fallback.differs;
    row.differing_hits = r.fallback.differingHits;
    if (r.fallback.unchecked > 0) row.unchecked_changed_files = r.fallback.unchecked;
  }
  if (r.generation !== undefined) row.generation = r.generation;
  if (r.coverage) {
    row.indexed_files = r.coverage.indexed_files;
    const unsearched = Object.entries(r.coverage.unsearched).filter(([, n]) => n > 0);
    if (unsearched.length) row.unsearched = Object.fromEntries(unsearched);
    if (r.coverage.unsearched_paths?.length) row.unsearched_paths = r.coverage.unsearched_paths;
    if (Object.keys(r.coverage.excluded).length) row.excluded = r.coverage.excluded;
    if (r.coverage.parse_failures) row.parse_failures = r.coverage.parse_failures;
  }
  row.hits = r.found;
  if (r.hits.length < r.found) row.retained = r.hits.length;
  if (r.truncated) row.truncated = true;
  if (r.truncation) row.truncation = r.truncation;
  if (r.diagnosis) row.filter_diagnosis = r.diagnosis;
  if (r.unparsedMentions) Object.assign(row, unparsedFields(unparsedPaths(r)));
  if (r.tooLargeUnsearched) Object.assign(row, tooLargeUnsearchedFields(tooLargePaths(r)));
  if (r.staleFiles) row.stale_files = r.staleFiles;
  return row;
}

function differsWords(d: number | null): string {
  if (d === null) return 'differences unknown';
  if (d === 0) return 'no files differ';
  return d === 1 ? '1 file differs' : `${d} files differ`;
}

function memberLine(m: CoverageMember): string {
  const r = m.result;
  const label = m.worktree ? standInLabel(r.name, m.root) : r.name;
  let text: string;
  switch (r.state) {
    case 'parent_fallback':
      text = `${label} warming → served from ${r.fallback!.servedFrom} (${differsWords(r.fallback!.differs)})`;
      if (r.reason) text += ` partial (${r.reason})`;
      break;
    case 'warming':
      text = r.reason === 'no parent index' && m.worktree ? `${label} warming (no parent index)` : `${label} warming`;
      break;
    case 'unavailable':
      text = `${label} unavailable (${r.reason ?? 'unknown reason'})`;
      break;
    case 'timed_out':
      text = `${label} timed out`;
      break;
    case 'partial': {
      const un = Object.entries(r.coverage?.unsearched ?? {}).filter(([, n]) => n > 0);
      const n = un.reduce((s, [, v]) => s + v, 0);
      text = `${label} partial (${n} unsearched: ${un.map(([k]) => k).join(', ')})`;
      break;
    }
    default:
      text = `${label} complete`;
  }
  if (r.state !== 'warming' && r.state !== 'unavailable' && r.state !== 'timed_out')
    text += r.found === 1 ? ' 1 hit' : ` ${r.found} hits`;
  if (r.truncation) text += ` ${truncationWords(r.truncation)}`;
  else if (r.truncated) text += ' truncated';
  // A filtered search that found nothing says why, as a single root's does (an agent trial's
  // `file:express/lib/response.js` printed `0 hits` three times and no nearest path).
  if (r.found === 0 && r.diagnosis) text += ` (filters: ${diagnosisLine(r.diagnosis, `${r.name}/`)})`;
  if (r.found === 0 && r.unparsedMentions)
    text += ` (${unparsedWords(unparsedPaths(r), r.unparsedMentions.name, 'definitions')})`;
  // Said whatever the hits: a match may lie in them (this member's live bound left them).
  if (r.tooLargeUnsearched) text += ` (${tooLargeUnsearchedWords(tooLargePaths(r))})`;
  if (r.staleFiles) text += ` (${staleFilesWords(r.staleFiles)})`;
  return text;
}

/** A member's files too large to index left unsearched, as a workspace page prints paths: `MEMBER/path`. */
function tooLargePaths(r: MemberSearchResult): string[] {
  return (r.tooLargeUnsearched ?? []).map((p) => `${r.name}/${printedPath(p)}`);
}

/** A member's unparsed mentions as a workspace page prints paths: `MEMBER/path`. */
function unparsedPaths(r: MemberSearchResult): string[] {
  return (r.unparsedMentions?.paths ?? []).map((p) => `${r.name}/${printedPath(p)}`);
}

export function workspaceCoverage(
  members: readonly CoverageMember[],
  scope: SearchScope,
  total: number,
  truncated: boolean,
): { json: Record<string, unknown>; line: string } {
  const json: Record<string, unknown> = { scope, hits: total };
  if (truncated) json.truncated = true;
  json.members = Object.fromEntries(members.map((m) => [m.result.name, memberRow(m)]));
  const parts = members.map(memberLine);
  // A cut no member's words explain (the set's cap, the page layout's) is said once for the page.
  if (truncated && !members.some((m) => m.result.truncated)) parts.push('truncated');
  parts.push(SCOPE_WORDS[scope]);
  return { json, line: parts.join('; ') };
}
