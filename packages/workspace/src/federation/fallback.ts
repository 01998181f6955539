// Parent fallback (workspace contract): an unpublished linked-worktree home answers at
// once from its member's published index, reading the worktree's bytes. Hits from files
// that differ are marked; sym: re-extracts the changed files in the worktree.
import * as path from 'node:path';
import {
  extractFile,
  IndexReader,
  extractionLanguageOf,
  percentDecode,
  queryLanguageOf,
  searchIndex,
  sourceTags,
  storedLanguageOf,
  type ParsedQuery,
  type SearchHit,
  qualifiedName,
} from '@trufflepig/index';
import { identifierKey } from '@trufflepig/rank';
import { divergenceOf } from './divergence';
import { FALLBACK_REEXTRACT_MAX_FILES } from '../core/limits';
import { readOnce } from '../core/live';
import type { MemberSearchRequest, MemberSearchResult } from './member-search';
import { openPublished, releaseReader } from '../core/reader-pool';
import { snippetTerms } from '../core/search';
import { narrowHits } from '../core/spans';

export interface FallbackInfo {
  readonly homeState: 'warming';
  /** `MEMBER index`, or `MEMBER index; re-extracted in worktree`. */
  readonly servedFrom: string;
  /** Files that differ between the worktree and the member checkout; null when unknown. */
  readonly differs: number | null;
  readonly differingHits: number;
  /** Paths among the retained hits whose worktree bytes may differ from the indexed ones. */
  readonly differingPaths: readonly string[];
  /** Changed files re-extracted for sym:, and changed files left unexamined. */
  readonly reextracted: number;
  readonly unchecked: number;
  readonly probeFailure?: string;
}

type FallbackResult = Omit<MemberSearchResult, 'name' | 'elapsedMs'>;

export async function fallbackSearch(req: MemberSearchRequest, q: ParsedQuery): Promise<FallbackResult> {
  const parentCache = req.parentCacheDir!;
  // Paths are relative to the same subdirectory of both checkouts, so the parent's
  // index is opened over the worktree's root: live checks read worktree bytes. The index
  // must still be the member's own (built for the configured root).
  const parent = await openPublished(req.host, parentCache, req.root, { builtFor: req.configuredRoot });
  if (!parent.ok) {
    return {
      state: 'warming',
      reason: 'no parent index',
      hits: [],
      found: 0,
      truncated: false,
      ownerCache: parentCache,
    };
  }
  try {
    const outcome = searchIndex(parent.value, q);
    let hits = outcome.hits;
    let divergence = divergenceOf(req.configuredRoot, req.root, req.cacheDir, false);
    let reextracted = 0;
    let unchecked = 0;
    let servedFrom = `${req.name} index`;
    if (q.mode === 'sym') {
      // An exact miss must not be a stale "no": look again before saying so.
      if (hits.length === 0) divergence = divergenceOf(req.configuredRoot, req.root, req.cacheDir, true);
      if (divergence.paths) {
        const examined = divergence.paths.slice(0, FALLBACK_REEXTRACT_MAX_FILES);
        unchecked = divergence.paths.length - examined.length;
        const changed = new Set(examined);
        const fresh = reextractDefinitions(req.root, examined, q, parent.value);
        const kept = hits.filter((h) => !changed.has(h.path));
        hits = [...kept.filter((h) => h.kind !== undefined), ...fresh, ...kept.filter((h) => h.kind === undefined)];
        reextracted = examined.length;
        servedFrom += '; re-extracted in worktree';
      }
    }
    const changedSet = new Set(divergence.paths ?? []);
    // Spans narrowed as a member's own search narrows them (never a storage region): the
    // parent's definitions fit the files the worktree has not changed, the others keep the
    // index's span. An agent trial's first worktree search printed `route.js:1-205`.
    const retained = narrowHits(parent.value, q, snippetTerms(q), hits.slice(0, req.share));
    const differingPaths = retained
      .filter((h) => changedSet.has(h.path) && !h.lane.startsWith('worktree'))
      .map((h) => h.path);
    // Absence is not exhaustive when changed files went unexamined or Git could not say which.
    const incomplete = q.mode === 'sym' && (unchecked > 0 || divergence.paths === undefined);
    const coverage = parent.value.coverage();
    return {
      state: 'parent_fallback',
      hits: retained,
      found: hits.length,
      truncated: outcome.truncated || hits.length > req.share || incomplete,
      generation: parent.value.generation,
      coverage,
      ...(outcome.filterDiagnosis ? { diagnosis: outcome.filterDiagnosis } : {}),
      ...(outcome.unparsedMentions ? { unparsedMentions: outcome.unparsedMentions } : {}),
      ...(outcome.tooLargeUnsearched ? { tooLargeUnsearched: outcome.tooLargeUnsearched } : {}),
      ownerCache: parentCache,
      fallback: {
        homeState: 'warming',
        servedFrom,
        differs: divergence.paths ? divergence.paths.length : null,
        differingHits: differingPaths.length,
        differingPaths,
        reextracted,
        unchecked,
        ...(divergence.failure !== undefined ? { probeFailure: divergence.failure } : {}),
      },
      ...(incomplete
        ? {
            reason:
              divergence.paths === undefined
                ? `git probe failed: ${divergence.failure}`
                : `${unchecked} changed files not examined`,
          }
        : {}),
    };
  } finally {
    releaseReader(parent.value);
  }
}

/** Definitions of the sym: name in the changed files, extracted from the worktree's bytes. */
function reextractDefinitions(
  root: string,
  changed: readonly string[],
  q: ParsedQuery,
  parent: IndexReader,
): SearchHit[] {
  const parts = q.text.split('::');
  const name = parts[parts.length - 1];
  const owner = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const eligible = parent.eligibility(q);
  const hits: SearchHit[] = [];
  for (const rel of changed) {
    const plain = percentDecode(rel).toString('utf8');
    const start = extractionLanguageOf(plain);
    // A file without extension is judged once its bytes chose its language (C++ or text).
    if (start !== 'extensionless' && !eligible({ path: rel, lang: start, tags: sourceTags(plain, start) })) continue;
    const live = readOnce(root, rel);
    if (!live.ok || live.bytes.includes(0)) continue;
    const x = extractFile(start, live.bytes);
    const lang = x.lang ?? storedLanguageOf(start);
    const tags = sourceTags(plain, lang);
    if (start === 'extensionless' && !eligible({ path: rel, lang, tags })) continue;
    const defs = x.definitions.filter(
      (d) =>
        identifierKey(d.name) === identifierKey(name) &&
        (owner === undefined || d.container === owner) &&
        (q.kinds.length === 0 || q.kinds.includes(d.kind)),
    );
    defs.sort((a, b) => Number(a.name !== name) - Number(b.name !== name) || a.start - b.start);
    const d = defs[0];
    if (!d) continue;
    hits.push({
      path: rel,
      start: d.start,
      end: d.end,
      startLine: d.startLine,
      endLine: d.endLine,
      name: qualifiedName(d),
      kind: d.kind,
      lane: 'worktree-definitions',
      revision: live.revision,
      tags,
      lang: queryLanguageOf(lang),
    });
  }
  return hits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `lunatic@feature`: the member and the worktree directory standing in for it. */
export function standInLabel(member: string, worktreeRoot: string): string {
  return `${member}@${path.basename(worktreeRoot)}`;
}
