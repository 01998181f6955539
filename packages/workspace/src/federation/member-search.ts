// One member's part of a workspace search: its own index, its own ranking, its own
// coverage. Inputs and outputs are plain data so the same function runs in a worker
// thread (members are searched concurrently) or in-process.
import {
  coverageState,
  reconcile,
  searchIndex,
  type FilterDiagnosis,
  type IndexCoverage,
  type ParsedQuery,
  type ScopeGroup,
  type SearchHit,
  type SearchOptions,
  type SearchOutcome,
  type Truncation,
} from '@trufflepig/index';
import { fallbackSearch, type FallbackInfo } from './fallback';
import { UNAVAILABLE_REASON_MAX_CHARS } from '../core/limits';
import { needsIndexing, snippetTerms } from '../core/search';
import { narrowHits } from '../core/spans';
import { readEachOnce } from '../core/live';
import { staleFilesOf } from '../core/stale';
import { DEFAULT_LIMIT } from '@trufflepig/render';
import { openPublished, releaseReader } from '../core/reader-pool';
import type { Host } from '../core/host';

export interface MemberSearchRequest {
  readonly name: string;
  /** The root searched: the configured root or the worktree standing in for it. */
  readonly root: string;
  readonly configuredRoot: string;
  readonly cacheDir: string;
  readonly worktree: boolean;
  readonly parentCacheDir?: string;
  /** Parsed where the search entered (plain data: it crosses to worker threads as it is). */
  readonly query: ParsedQuery;
  /** The process the search runs in (plain data: requests cross to worker threads). */
  readonly host: Host;
  /** Index in the foreground when this root has no published index and the host may (worktrees seeded from the parent). */
  readonly indexIfMissing: boolean;
  /** Hits retained at most: this member's equal share of the set ceiling. */
  readonly share: number;
  /** docs/spec/per-source.md scope setting; `shared` (the default) adds no groups. */
  readonly scopes?: SearchOptions['scopes'];
}

export type MemberState =
  'complete' | 'partial' | 'stale' | 'warming' | 'unavailable' | 'timed_out' | 'parent_fallback';

export interface MemberSearchResult {
  readonly name: string;
  readonly state: MemberState;
  readonly reason?: string;
  readonly hits: SearchHit[];
  /** Hits found before the share cut. */
  readonly found: number;
  readonly truncated: boolean;
  /** What stopped this member's search (its scan or a lane cap), when it did not finish. */
  readonly truncation?: Truncation;
  readonly generation?: number;
  readonly coverage?: IndexCoverage;
  readonly diagnosis?: FilterDiagnosis;
  /** Files of the hits a fused page may show whose bytes changed since indexing (core/stale.ts). */
  readonly staleFiles?: number;
  /** A `sym:` search without hits: code files no extractor read that mention the name. */
  readonly unparsedMentions?: SearchOutcome['unparsedMentions'];
  /** `re:` and `"literal"`: files too large to index this member's search left unread (its live bound). */
  readonly tooLargeUnsearched?: SearchOutcome['tooLargeUnsearched'];
  /** The cache whose publication answered (the parent's under fallback). */
  readonly ownerCache: string;
  readonly fallback?: FallbackInfo;
  /** This root has no publication yet and nothing is indexing it in the foreground. */
  readonly needsIndex?: boolean;
  readonly elapsedMs: number;
  /** Scope groups (per_source or an explicit list), each cut to the member's share. */
  readonly groups?: ScopeGroup[];
  /** Commit documents' state when they were asked for. */
  readonly gitLog?: { readonly state: string; readonly commits: number };
}

export function cutReason(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= UNAVAILABLE_REASON_MAX_CHARS ? line : `${line.slice(0, UNAVAILABLE_REASON_MAX_CHARS - 1)}…`;
}

function stateOf(cov: IndexCoverage): MemberState {
  return coverageState(cov);
}

export async function searchMember(req: MemberSearchRequest): Promise<MemberSearchResult> {
  const started = Date.now();
  const done = (r: Omit<MemberSearchResult, 'name' | 'elapsedMs'>): MemberSearchResult => ({
    name: req.name,
    ...r,
    elapsedMs: Date.now() - started,
  });
  const nothing = { hits: [], found: 0, truncated: false, ownerCache: req.cacheDir };
  const q = req.query;
  let reader = await openPublished(req.host, req.cacheDir, req.root);
  if (!reader.ok && needsIndexing(reader.error.code)) {
    if (req.indexIfMissing && req.host.indexesInForeground) {
      const rec = await reconcile(req.root, {
        cacheDir: req.cacheDir,
        ...(req.parentCacheDir ? { seedFrom: req.parentCacheDir } : {}),
      });
      if (!rec.ok) {
        const state = rec.error.code === 'index_locked' ? 'warming' : 'unavailable';
        return done({ ...nothing, state, reason: cutReason(rec.error.message) });
      }
      reader = await openPublished(req.host, req.cacheDir, req.root);
    } else if (req.worktree && req.parentCacheDir) {
      // An unpublished worktree answers at once from its member's published index.
      const fb = await fallbackSearch(req, q);
      return done({ ...fb, needsIndex: true });
    } else {
      return done({ ...nothing, state: 'warming', reason: cutReason(reader.error.message), needsIndex: true });
    }
  }
  if (!reader.ok) return done({ ...nothing, state: 'unavailable', reason: cutReason(reader.error.message) });
  try {
    const outcome = searchIndex(reader.value, q, req.scopes ? { scopes: req.scopes } : {});
    const coverage = reader.value.coverage();
    // Spans a hit points at (spans.ts), narrowed here where the member's index is open.
    const terms = snippetTerms(q);
    const memo = new Map<SearchHit, SearchHit>();
    const read = readEachOnce();
    const narrow = (hits: readonly SearchHit[]) =>
      narrowHits(reader.value, q, terms, hits.slice(0, req.share), memo, undefined, read);
    const scoped = {
      ...(outcome.groups ? { groups: outcome.groups.map((g) => ({ scope: g.scope, hits: narrow(g.hits) })) } : {}),
      ...(outcome.gitLog ? { gitLog: outcome.gitLog } : {}),
    };
    return done({
      state: stateOf(coverage),
      hits: narrow(outcome.hits),
      found: outcome.hits.length,
      truncated: outcome.truncated || outcome.hits.length > req.share,
      ...(outcome.truncation ? { truncation: outcome.truncation } : {}),
      generation: reader.value.generation,
      coverage,
      ...(outcome.filterDiagnosis ? { diagnosis: outcome.filterDiagnosis } : {}),
      ...(outcome.unparsedMentions ? { unparsedMentions: outcome.unparsedMentions } : {}),
      ...(outcome.tooLargeUnsearched ? { tooLargeUnsearched: outcome.tooLargeUnsearched } : {}),
      // The most of this member a fused page shows: its first page's worth.
      staleFiles: staleFilesOf(req.root, outcome.hits.slice(0, Math.min(req.share, DEFAULT_LIMIT)), read),
      ownerCache: req.cacheDir,
      ...scoped,
    });
  } finally {
    releaseReader(reader.value);
  }
}
