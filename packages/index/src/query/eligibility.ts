// Which files a query's filters admit (file: -file: lang: source: -source:): the one
// predicate that every search lane, navigation (refs, map, show sym:) and the worktree
// fallback's re-extraction apply, so a filter never means one thing to search and another
// to the verbs that follow it. `kind:` is not here: it filters definitions, not files.
import { queryLanguageOf, type Language } from '../classify';
import type { ParsedQuery } from './parse';
import { createPathMatcher } from './pathmatch';

/** What the filters read of a file: its percent-encoded root-relative path, its language and origin tags. */
export interface FilterFacts {
  readonly path: string;
  readonly lang: Language;
  readonly tags: readonly string[];
}

export type FileFilters = Pick<ParsedQuery, 'fileInclude' | 'fileExclude' | 'languages' | 'sources' | 'sourceExclude'>;

/**
 * The predicate of `q`'s file filters. `paths` are the index's paths: whether a `file:`
 * value is a path prefix or a path component depends on what the index holds (pathmatch.ts).
 */
export function fileEligibility(q: FileFilters, paths: readonly string[]): (f: FilterFacts) => boolean {
  const match = createPathMatcher(q.fileInclude, q.fileExclude, paths);
  return (f) =>
    match(f.path) &&
    (q.languages.length === 0 || q.languages.includes(queryLanguageOf(f.lang))) &&
    (q.sources.length === 0 || q.sources.some((s) => f.tags.includes(s))) &&
    !q.sourceExclude.some((s) => f.tags.includes(s));
}
