// The files a C or C++ `#include` names inside one member's index: a quoted include
// relative to the including file first, then under the repository's `include/`
// directories, then any indexed path ending in the spelling; a system include
// (`<linux/sched.h>`, spelled with its brackets) skips the first step. Several matches
// narrow to those sharing the most leading directories with the including file, then the
// shallowest. A header brings its paired source (`foo.h` → `foo.c` beside it, or under the
// `src/` that mirrors its `include/`), where the functions it declares are defined.
import * as path from 'node:path';
import { type IndexedFile, type IndexReader } from '@trufflepig/index';
import { displayPath, percentEncode } from '@trufflepig/base/stored-path';
import { C_SOURCE_EXTENSIONS, isCHeaderPath } from '@trufflepig/rank';
import { NAV_INCLUDES_CACHED_MAX } from './limits';
import { sharedFileDirs } from './dirs';

/** Indexed files by base name, built once per reader (a kernel tree resolves many includes per refs call). */
const byBaseName = new WeakMap<IndexReader, Map<string, IndexedFile[]>>();
function filesNamed(reader: IndexReader, base: string): readonly IndexedFile[] {
  let map = byBaseName.get(reader);
  if (!map) {
    map = new Map();
    for (const f of reader.files()) {
      if (f.excluded) continue;
      const name = path.posix.basename(displayPath(f.path));
      const list = map.get(name);
      if (list) list.push(f);
      else map.set(name, [f]);
    }
    byBaseName.set(reader, map);
  }
  return map.get(base) ?? [];
}

/** Indexed files (not excluded) whose path is `suffix` or ends in `/suffix`, in path order. */
export function filesEndingWith(reader: IndexReader, suffix: string): IndexedFile[] {
  return filesNamed(reader, path.posix.basename(suffix)).filter((f) => {
    const p = displayPath(f.path);
    return p === suffix || p.endsWith(`/${suffix}`);
  });
}

/** The matches nearest the including file: most shared leading directories, then fewest directories. */
function nearest(from: string, files: readonly IndexedFile[]): IndexedFile[] {
  if (files.length <= 1) return [...files];
  const key = (f: IndexedFile) => [-sharedFileDirs(from, displayPath(f.path)), displayPath(f.path).split('/').length];
  const best = files.map(key).reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
  return files.filter((f) => {
    const k = key(f);
    return k[0] === best[0] && k[1] === best[1];
  });
}

function existingFile(reader: IndexReader, candidate: string): IndexedFile | undefined {
  const normalized = path.posix.normalize(candidate);
  if (normalized.startsWith('..')) return undefined;
  const f = reader.fileByPath(percentEncode(normalized));
  return f && !f.excluded ? f : undefined;
}

/** Sources beside a header or under the `src/` (or `lib/`) mirroring its `include/`. */
function pairedSources(reader: IndexReader, header: string): IndexedFile[] {
  const ext = path.posix.extname(header);
  if (!isCHeaderPath(header)) return [];
  const stem = header.slice(0, -ext.length);
  const stems = [stem];
  const m = /^(.*?)(?:^|\/)include\/(.*)$/.exec(stem);
  if (m) {
    const prefix = m[1] ? `${m[1]}/` : '';
    stems.push(`${prefix}src/${m[2]}`, `${prefix}lib/${m[2]}`, `${prefix}src/${path.posix.basename(m[2])}`);
  }
  const out: IndexedFile[] = [];
  for (const s of stems)
    for (const e of C_SOURCE_EXTENSIONS) {
      const f = existingFile(reader, `${s}.${e}`);
      if (f && !out.includes(f)) out.push(f);
    }
  return out;
}

export interface IncludedFiles {
  readonly files: readonly IndexedFile[];
  readonly pairs: readonly IndexedFile[];
}

/**
 * Resolutions per reader, by the including file's directory and the spelling (all a
 * resolution depends on): a `refs` of a common kernel name follows the `#include`s of
 * hundreds of files, which name the same headers, and probing their candidate paths again
 * each time was a third of it.
 */
const resolved = new WeakMap<IndexReader, Map<string, IncludedFiles>>();

/** Files an `#include` spelling names, seen from the including file (plain, not encoded), and their paired sources. */
export function includeFiles(reader: IndexReader, from: string, spelled: string): IncludedFiles {
  let memo = resolved.get(reader);
  if (memo === undefined) resolved.set(reader, (memo = new Map()));
  const key = `${path.posix.dirname(from)}\0${spelled}`;
  const seen = memo.get(key);
  if (seen !== undefined) return seen;
  const out = resolveInclude(reader, from, spelled);
  if (memo.size >= NAV_INCLUDES_CACHED_MAX) memo.delete(memo.keys().next().value as string);
  memo.set(key, out);
  return out;
}

function resolveInclude(reader: IndexReader, from: string, spelled: string): IncludedFiles {
  const system = spelled.startsWith('<') && spelled.endsWith('>');
  const target = path.posix.normalize(system ? spelled.slice(1, -1).trim() : spelled);
  if (!target || (system && target.startsWith('..'))) return { files: [], pairs: [] };
  let found: IndexedFile[] = [];
  const relative = system ? undefined : existingFile(reader, path.posix.join(path.posix.dirname(from), target));
  if (relative) found = [relative];
  else if (!target.startsWith('.')) {
    found = nearest(from, filesEndingWith(reader, `include/${target}`));
    if (found.length === 0) found = nearest(from, filesEndingWith(reader, target));
  }
  const pairs: IndexedFile[] = [];
  for (const h of found)
    for (const s of pairedSources(reader, displayPath(h.path)))
      if (!found.includes(s) && !pairs.includes(s)) pairs.push(s);
  return { files: found, pairs };
}
