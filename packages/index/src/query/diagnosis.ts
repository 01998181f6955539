import { queryLanguageOf } from '../classify';
import type { FilterDiagnosis } from './hit';
import type { ParsedQuery } from './parse';
import { nearestPaths } from './nearest-paths';
import { createPathMatcher } from './pathmatch';
import type { IndexedFile } from './reader';

/** Facts about the empty search that need the index rather than the file list. */
export interface DiagnosisEvidence {
  /** The same query without its `-file:` values has hits. */
  readonly excludedEveryMatch?: boolean;
  /** Per `kind:` value, how many definitions (files for `kind:file`) the index holds. */
  readonly kindCounts?: readonly number[];
  /** The same query without any filter has hits (undefined for a filter-only query). */
  readonly unfilteredHits?: boolean;
  /** The same query with `kind:method` for `kind:function` (or the reverse) has this many hits. */
  readonly kindSwapped?: { readonly value: string; readonly hits: number };
}

/** Why a filtered search came back empty: what each filter matched alone and together. */
export function diagnoseFilters(
  q: ParsedQuery,
  files: readonly IndexedFile[],
  evidence: DiagnosisEvidence = {},
): FilterDiagnosis {
  const paths = files.map((f) => f.path);
  const out: { -readonly [K in keyof FilterDiagnosis]: FilterDiagnosis[K] } = {};
  if (q.fileInclude.length > 0) {
    out.file = q.fileInclude.map((value) => {
      const matched = createPathMatcher([value], [], paths).includeCounts[0];
      return matched > 0 ? { value, matched } : { value, matched, nearest: nearestPaths(value, paths) };
    });
  }
  if (q.languages.length > 0) {
    out.lang = q.languages.map((value) => ({
      value,
      matched: files.filter((f) => !f.excluded && queryLanguageOf(f.lang) === value).length,
    }));
  }
  if (q.kinds.length > 0 && evidence.kindCounts)
    out.kind = q.kinds.map((value, i) => ({ value, matched: evidence.kindCounts![i] }));
  if (evidence.kindSwapped && evidence.kindSwapped.hits > 0) out.kind_instead = evidence.kindSwapped;
  if (q.sources.length > 0)
    out.source = q.sources.map((value) => ({ value, matched: files.filter((f) => f.tags.includes(value)).length }));
  if (q.fileExclude.length > 0) {
    const included = createPathMatcher(q.fileInclude, [], paths);
    const both = createPathMatcher(q.fileInclude, q.fileExclude, paths);
    const noPathLeft = paths.some((p) => included(p)) && !paths.some((p) => both(p));
    if (noPathLeft || evidence.excludedEveryMatch) out.excluded_every_match = q.fileExclude;
  }
  const each = [...(out.file ?? []), ...(out.lang ?? []), ...(out.kind ?? []), ...(out.source ?? [])];
  if (evidence.unfilteredHits !== undefined) out.matches_without_filters = evidence.unfilteredHits;
  // Only the combination fails when every filter matches alone and the words match too.
  out.combination_only = each.length > 0 && each.every((e) => e.matched > 0) && evidence.unfilteredHits !== false;
  return out;
}
