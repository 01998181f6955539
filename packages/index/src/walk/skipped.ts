// What the walk left out, by class (docs/spec/retrieval.md §3: nothing is skipped silently). Entries
// are counted as the walk meets them, collapsed to directories as Git collapses ignored
// ones, and only the directories are then counted file by file, within a budget: an
// untracked `node_modules` can hold a million files, and counting them must stay cheap.
import * as fs from 'node:fs';
import { SKIPPED_DIR_COUNT_MAX_ENTRIES, SKIPPED_DIR_FILES_COUNTED, SKIPPED_DIRS_SHOWN } from '../limits';
import { percentEncode } from '@trufflepig/base';
import { hasSkippedComponent } from './git';
import { rootPrefix } from './root-prefix';

/**
 * `ignored`: excluded by ignore rules; `untracked_vendor`: an untracked node_modules, target
 * or .trufflepig; `submodule`: a Git submodule that is not checked out (an empty directory:
 * nothing on disk to index). A checked-out submodule's files are indexed as the root's.
 */
export type SkipClass = 'ignored' | 'untracked_vendor' | 'submodule';

/** Every skip class, in the order coverage lists them. */
export const SKIP_CLASSES: readonly SkipClass[] = ['ignored', 'untracked_vendor', 'submodule'];

export interface SkippedDir {
  /** Percent-encoded root-relative path, with a trailing '/'. */
  readonly path: string;
  readonly class: SkipClass;
  /** Files found inside, counted up to SKIPPED_DIR_FILES_COUNTED (then `capped`). */
  readonly files: number;
  readonly capped?: true;
}

export interface SkipSummary {
  /** Entries (files, or directories counted once) left out per class. */
  readonly counts: Readonly<Record<SkipClass, number>>;
  /** The largest skipped directories, most files first (at most SKIPPED_DIRS_SHOWN). */
  readonly largest: readonly SkippedDir[];
}

/** An entry the walk left out: a root-relative raw path, a directory when `dir`. */
export interface SkippedEntry {
  readonly raw: Buffer;
  readonly dir: boolean;
  /** Its class when the walk knows it (a submodule); else skipClassOf decides by its path. */
  readonly class?: SkipClass;
}

/** Zero entries of every class. */
export function emptySkipCounts(): Record<SkipClass, number> {
  return Object.fromEntries(SKIP_CLASSES.map((c) => [c, 0])) as Record<SkipClass, number>;
}

/** The class of a skipped entry: under (or being) a never-entered directory, else ignored. */
export function skipClassOf(raw: Buffer): SkipClass {
  return hasSkippedComponent(raw) ? 'untracked_vendor' : 'ignored';
}

/**
 * Git lists an ignored directory and, at times, entries inside it too (a directory holding
 * only ignored entries is collapsed after its children were listed): an entry under an
 * already listed directory is the same omission and is dropped.
 */
export function outermostEntries(entries: readonly SkippedEntry[]): SkippedEntry[] {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a.raw, b.raw));
  const out: SkippedEntry[] = [];
  let openDir: Buffer | undefined;
  for (const e of sorted) {
    if (
      openDir &&
      e.raw.length > openDir.length &&
      e.raw.subarray(0, openDir.length).equals(openDir) &&
      e.raw[openDir.length] === 0x2f
    )
      continue;
    out.push(e);
    openDir = e.dir ? e.raw : undefined;
  }
  return out;
}

/** Files under `abs`, depth first, up to `limit` files or `budget.entries` directory entries read. */
function countFiles(abs: Buffer, limit: number, budget: { entries: number }): { files: number; capped: boolean } {
  let files = 0;
  const stack = [abs];
  while (stack.length > 0) {
    if (files >= limit || budget.entries <= 0) return { files, capped: true };
    const dir = stack.pop()!;
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(dir, { encoding: 'buffer', withFileTypes: true });
    } catch {
      continue;
    }
    budget.entries -= entries.length;
    for (const e of entries) {
      // Links are not followed (they may leave the root); they count as files.
      if (e.isDirectory()) stack.push(Buffer.concat([dir, Buffer.from('/'), e.name]));
      else files++;
    }
  }
  return files > limit ? { files: limit, capped: true } : { files, capped: false };
}

/** Count the skipped entries by class and the files of the skipped directories (bounded). */
export function summarizeSkipped(root: string, entries: readonly SkippedEntry[]): SkipSummary {
  const counts = emptySkipCounts();
  const dirs: SkippedDir[] = [];
  const budget = { entries: SKIPPED_DIR_COUNT_MAX_ENTRIES };
  const rootSlash = rootPrefix(root);
  for (const e of outermostEntries(entries)) {
    const cls = e.class ?? skipClassOf(e.raw);
    counts[cls]++;
    if (!e.dir) continue;
    const n = countFiles(Buffer.concat([rootSlash, e.raw]), SKIPPED_DIR_FILES_COUNTED, budget);
    dirs.push({
      path: `${percentEncode(e.raw)}/`,
      class: cls,
      files: n.files,
      ...(n.capped ? { capped: true as const } : {}),
    });
  }
  dirs.sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { counts, largest: dirs.slice(0, SKIPPED_DIRS_SHOWN) };
}
