// The query filters (file: -file: lang: source: -source: kind:) applied to navigation
// candidates: the file filters are search's own predicate (IndexReader.eligibility).
import { definitionKinds, type IndexedFile, type IndexReader, type ParsedQuery } from '@trufflepig/index';
import { displayPath } from '@trufflepig/base/stored-path';
import { printedPath } from '@trufflepig/render';
import { NEAREST_PATHS_MAX } from './limits';

export function fileFilter(reader: IndexReader, q: ParsedQuery): (f: IndexedFile) => boolean {
  const eligible = reader.eligibility(q);
  return (f) => !f.excluded && eligible(f);
}

export function kindFilter(q: ParsedQuery): (kind: string) => boolean {
  const kinds = definitionKinds(q);
  return (kind) => kinds.length === 0 || kinds.includes(kind);
}

/** The filters of a query as written, for messages (`file:src lang:rust`). */
export function filterWords(q: ParsedQuery): string {
  return [
    ...q.fileInclude.map((v) => `file:${printedPath(v)}`),
    ...q.fileExclude.map((v) => `-file:${printedPath(v)}`),
    ...q.languages.map((v) => `lang:${v}`),
    ...q.kinds.map((v) => `kind:${v}`),
    ...q.sources,
    ...q.sourceExclude.map((v) => `-${v}`),
  ].join(' ');
}

/** Indexed paths nearest to `wanted`: sharing the longest leading part, then the same base name. */
export function nearestPaths(reader: IndexReader, wanted: string): string[] {
  const target = displayPath(wanted).replace(/\/+$/, '');
  const base = target.split('/').pop() ?? target;
  const score = (p: string): number => {
    let common = 0;
    while (common < p.length && common < target.length && p[common] === target[common]) common++;
    return common + (p.split('/').pop() === base ? 1000 : 0) + (p.includes(base) ? 100 : 0);
  };
  return reader
    .files()
    .filter((f) => !f.excluded)
    .map((f) => ({ p: f.path, s: score(displayPath(f.path)) }))
    .sort((a, b) => b.s - a.s || (a.p < b.p ? -1 : 1))
    .slice(0, NEAREST_PATHS_MAX)
    .map((x) => x.p);
}
