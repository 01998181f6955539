// The query filters (file: -file: lang: source: -source: kind:) applied to navigation
// candidates: the file filters are search's own predicate (IndexReader.eligibility).
import {
  definitionKinds,
  nearestPaths as nearestIndexedPaths,
  type IndexedFile,
  type IndexReader,
  type ParsedQuery,
} from '@trufflepig/index';
import { printedPath } from '@trufflepig/render';

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

/** Indexed paths nearest to `wanted` (the index's rule, nearestPaths), excluded files left out. */
export function nearestPaths(reader: IndexReader, wanted: string): string[] {
  return nearestIndexedPaths(
    wanted,
    reader
      .files()
      .filter((f) => !f.excluded)
      .map((f) => f.path),
  );
}
