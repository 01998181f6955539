// Result-set entries for navigation answers: every locator a verb prints gets a handle
// that `show` reads back, verified, from the stored owner.
import { queryLanguageOf, type IndexedDefinition, type IndexedFile } from '@trufflepig/index';
import { percentEncode } from '@trufflepig/base/stored-path';
import type { LiveSourceEntry } from '@trufflepig/result-cache';
import type { NavTarget } from './target';
import { rootIdentity as directoryIdentity } from '@trufflepig/index';

export interface Span {
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
}

export function spanEntry(
  t: NavTarget,
  file: IndexedFile,
  span: Span,
  fields: Partial<LiveSourceEntry> = {},
): LiveSourceEntry {
  return {
    tag: 'live_source',
    root: percentEncode(t.root),
    ...(t.member !== undefined ? { member: t.member, root_id: rootIdentity(t.root) } : {}),
    path: file.path,
    revision: file.revision ?? '',
    generation: t.reader.generation,
    start: span.start,
    end: span.end,
    start_line: span.startLine,
    end_line: span.endLine,
    sources: [...file.tags],
    lang: queryLanguageOf(file.lang),
    cache: t.cacheDir,
    ...fields,
  };
}

import { qualifiedName } from '@trufflepig/index';

export { qualifiedName };

export function definitionEntry(t: NavTarget, d: IndexedDefinition): LiveSourceEntry {
  return spanEntry(t, d.file, d, { name: qualifiedName(d), kind: d.kind });
}

/**
 * Filesystem identity of a root (device and inode, as the index records its owner): a
 * checkout replaced at the same path gets a new one; '' when the root cannot be read.
 * Entries carry it as `root_id`; the facade's owner check compares against it.
 */
export function rootIdentity(root: string): string {
  return directoryIdentity(root) ?? '';
}
