import * as fs from 'node:fs';
import { pathWordsOf, type PathWords } from '@trufflepig/rank';
import type { Language } from '../classify';
import type { Definition, ImportFact } from '../extract/facts';
import { fail, ok, type Outcome } from '../errors';
import { ELIGIBLE_SETS_CACHED_MAX, FILE_FACTS_CACHED_MAX, FILE_LOOKUP_OVERLAY_MAX } from '../limits';
import { fileEligibility, type FileFilters, type FilterFacts } from './eligibility';
import { PathScreen } from './path-screen';
import { NO_TOO_LARGE, tooLargeWithinBound, type TooLargeLive } from './too-large';
import { displayPath, percentDecode } from '@trufflepig/base';
import type { SeedOutcome } from '../reconcile';
import { openDatabase } from '../store/database';
import { readReconcileFailure, type ReconcileFailure } from '../store/health';
import {
  definitionsNamed,
  definitionsQualified,
  definitionsOfFile,
  definitionsNaming,
  definitionsOverlapping,
  type StoredDefinition,
} from '../store/definitions';
import { fileChangesSince, indexIdOf } from '../store/file-changes';
import { getMeta } from '../store/schema';
import { indexPath } from '../store/publish';
import { ownershipOf, rootMismatch } from '../store/root-owner';
import { allRows, storageEngine, type Database } from '../store/sql';
import { byPath, patchRows } from './file-rows';
import { EMPTY_TALLY, isParseFailure, tallied, type FileTally } from './file-tally';
import { LayeredLookup } from './layered-lookup';
import { liveReadBound, readIndexedBytes, type RegexHelper } from './live';
import { parseSkipMeta, withSkipped } from '../walk/skip-meta';
import type { SkippedDir } from '../walk/skipped';
import { fileOf, sameRecordedStat } from '../walk';

/**
 * A file row as readers use it. The stat a reconcile compares (mtime, inode) is not read:
 * only the reconcile needs it, from its own query, and leaving it out is a fifth of loading
 * the kernel's 78,000 rows.
 */
/** A definition's extent, in byte and line coordinates of its file's indexed revision, and its name. */
export interface DefinitionSpan {
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly nameStart: number;
  readonly name: string;
  readonly container: string | null;
}

export interface IndexedFile {
  readonly id: number;
  readonly path: string;
  readonly lang: Language;
  readonly tags: readonly string[];
  readonly size: number;
  readonly revision: string | null;
  readonly excluded: string | null;
  readonly parse: string;
  readonly factLimited: boolean;
  readonly lines: number;
}

export interface IndexCoverage {
  readonly generation: number;
  readonly indexed_files: number;
  /** Files excluded per reason (`binary`, `too_large`, `symlink`) and entries the walk left out (`ignored`, `untracked_vendor`). */
  readonly excluded: Readonly<Record<string, number>>;
  readonly parse_failures: number;
  readonly unsearched: Readonly<Record<string, number>>;
  readonly unsearched_paths?: readonly string[];
  readonly semantic: 'unavailable';
  /** The last reconcile failed: this generation is behind the tree until one succeeds. */
  readonly reconcile_failed?: ReconcileFailure;
}

export type CoverageState = 'complete' | 'partial' | 'stale';

/**
 * The one summary of a coverage: `stale` when the last reconcile failed (edits since this
 * generation are not searched), `partial` when files are unsearched, else `complete`.
 */
export function coverageState(cov: IndexCoverage): CoverageState {
  if (cov.reconcile_failed) return 'stale';
  return Object.values(cov.unsearched).some((n) => n > 0) ? 'partial' : 'complete';
}

/** A stored definition (the extracted fields) of a file; spans are byte offsets of the file at its indexed revision. */
export interface IndexedDefinition extends Definition {
  readonly file: IndexedFile;
}

/** One imported name of a file, as spelled (see ImportFact). */
export interface IndexedImport extends ImportFact {
  readonly file: IndexedFile;
}

export interface OpenOptions {
  /** The --cache base the user passed, kept in the `index` command a hint names. */
  readonly cacheBase?: string;
  /**
   * The root the index must have been built for, when it is not the root read (a linked
   * worktree read through its member's index); defaults to the root.
   */
  readonly builtFor?: string;
  /**
   * The file table of a reader of an earlier generation of this index (IndexReader.fileTable):
   * this reader reads only the rows changed since, when the index journaled them.
   */
  readonly previous?: FileTable;
  /**
   * A thread that reads `re:` candidates alongside the one searching (scan-pool.ts
   * sharedScanPool), for a long-lived process; without it a scan reads on one thread.
   */
  readonly regexHelper?: RegexHelper;
}

/** A reader's file rows, from which a reader of a later generation of the same index file may start. */
export interface FileTable {
  /** The database file's identity (store/file-changes.ts). */
  readonly indexId: string;
  readonly generation: number;
  /** In path order. */
  readonly files: readonly IndexedFile[];
  /** The filename words of paths met so far (IndexReader.pathWords): a function of the path alone. */
  readonly pathWords: Map<string, PathWords>;
  /** The rows by id and, once a reader has needed it, by path (layered-lookup.ts). */
  readonly byId: LayeredLookup<number, IndexedFile>;
  readonly byPath?: LayeredLookup<string, IndexedFile>;
  /** lowerPaths(), once a reader has needed them: aligned with `files`. */
  readonly lowerPaths?: readonly string[];
  /** pathsHolding's screen of lowerPaths, once a reader has needed it. */
  readonly pathScreen?: PathScreen;
  /** What coverage counts of `files`, once a reader has counted them. */
  readonly tally?: FileTally;
}

/** What a reader took over from a FileTable: its rows and what it could keep of the rest. */
interface FilesTakenOver {
  readonly files: IndexedFile[];
  readonly byId?: LayeredLookup<number, IndexedFile>;
  readonly byPath?: LayeredLookup<string, IndexedFile>;
  readonly lowerPaths?: string[];
  readonly pathScreen?: PathScreen;
  readonly tally?: FileTally;
}

const FILE_COLUMNS = 'id, path, lang, tags, size, revision, excluded, parse, fact_limited, lines';

/**
 * Tag lists by their stored text: a root has a handful of distinct ones, and one array each
 * instead of one per file spares the kernel's readers 78,000 allocations (they are read-only).
 */
const tagLists = new Map<string, readonly string[]>();

function tagsOf(text: string): readonly string[] {
  let tags = tagLists.get(text);
  if (!tags) {
    tags = Object.freeze(text.split(' ').filter(Boolean));
    if (tagLists.size < TAG_LISTS_KEPT) tagLists.set(text, tags);
  }
  return tags;
}

/** Distinct tag texts remembered (tags are a few fixed words; this only bounds the unexpected). */
const TAG_LISTS_KEPT = 1_024;

function indexedFileOf(r: readonly unknown[]): IndexedFile {
  return {
    id: Number(r[0]),
    path: String(r[1]),
    lang: String(r[2]) as Language,
    tags: tagsOf(String(r[3])),
    size: Number(r[4]),
    revision: r[5] == null ? null : String(r[5]),
    excluded: r[6] == null ? null : String(r[6]),
    parse: String(r[7]),
    factLimited: Number(r[8]) === 1,
    lines: Number(r[9]),
  };
}

/** Two lists in path order as one (stored paths are ASCII, so this is SQLite's order too). */
function mergeByPath(a: readonly IndexedFile[], b: readonly IndexedFile[]): IndexedFile[] {
  const out: IndexedFile[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(byPath(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** A row's lowercased display path: what the filename screen (pathsHolding) matches words in. */
function lowerPathOf(f: IndexedFile): string {
  return (f.path.includes('%') ? displayPath(f.path) : f.path).toLowerCase();
}

/** Whether the rows gone and the rows read again name the same paths (a generation that changed no path). */
function samePaths(gone: readonly IndexedFile[], fresh: readonly IndexedFile[]): boolean {
  if (gone.length !== fresh.length) return false;
  const paths = new Set(gone.map((f) => f.path));
  return paths.size === gone.length && fresh.every((f) => paths.has(f.path));
}

/** Paths of removed files a handed-on memory of path words may hold beyond twice the files, before it starts over. */
const PATH_WORDS_SLACK = 4_096;

/** Rows read per `IN (...)` statement when a reader reads changed rows by id. */
const IDS_PER_STATEMENT = 500;

/** The command that indexes `root`, with the --cache base the user passed (hints must keep it). */
export function indexCommandHint(root: string, cacheBase?: string): string {
  return `trufflepig --root ${shellWord(root)}${cacheBase !== undefined ? ` --cache ${shellWord(cacheBase)}` : ''} index`;
}

/** A path as one shell word: bare when it is plainly safe, else single-quoted. */
function shellWord(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** Up to this many fact-limited paths are named in coverage (workspace contract). */
const UNSEARCHED_PATHS_SHOWN = 5;

/** A read-only view of one published generation. */
export class IndexReader {
  private fileList?: IndexedFile[];
  /** files() too large to index (tooLargeLive), once asked for. */
  private tooLargeList?: IndexedFile[];
  private pathWordMemo = new Map<string, PathWords>();
  /** pathWordMemo's entries aligned with files(), as they are met. */
  private readonly pathWordList: (PathWords | undefined)[] = [];
  private fileById?: LayeredLookup<number, IndexedFile>;
  private fileByPathLookup?: LayeredLookup<string, IndexedFile>;
  private lowerPathList?: readonly string[];
  /** What coverage counts of files(), handed on with them (file-tally.ts). */
  private fileTally?: FileTally;
  /** liveScanFiles by the eligibleFiles list it extends (a list is one filter set's). */
  private readonly liveScanMemo = new WeakMap<
    readonly IndexedFile[],
    { readonly files: readonly IndexedFile[]; readonly tooLargeUnread: readonly IndexedFile[] }
  >();
  /** eligibleFiles by filter set, the most recently used last. */
  private readonly eligibleMemo = new Map<string, readonly IndexedFile[]>();
  private maxIdMemo?: number;
  private pathScreen?: PathScreen;
  private coverageMemo?: IndexCoverage;

  private constructor(
    readonly db: Database,
    readonly generation: number,
    readonly root: string,
    private readonly cacheDir: string,
    /** The database file's identity, when it journals its file changes. */
    private readonly indexId: string | undefined,
    /** Where files() may start from; dropped once used. */
    private previous: FileTable | undefined,
    /** OpenOptions.regexHelper. */
    readonly regexHelper: RegexHelper | undefined,
  ) {}

  /**
   * Open the published index; a missing index or generation 0 answers `index_warming`. An
   * index built for another root answers `cache_root_mismatch` (never its data); one built
   * for an earlier directory at the same path (deleted and recreated) answers
   * `index_warming`: indexing rebuilds it.
   */
  static async open(cacheDir: string, root: string, options: OpenOptions = {}): Promise<Outcome<IndexReader>> {
    const engine = storageEngine();
    if (!engine.ok) return fail(engine.error.code, engine.error.message);
    const file = indexPath(cacheDir);
    const run = `run: ${indexCommandHint(root, options.cacheBase)}`;
    if (!fs.existsSync(file)) return fail('index_warming', `no index for ${root} yet; ${run}`);
    const db = openDatabase(file, 'read');
    if (!db) return fail('index_corrupt', `the index at ${file} is unreadable or from another version; ${run}`);
    // One generation for the reader's whole life: a read transaction, begun here and held
    // until close, sees no publication that commits after it (WAL snapshots).
    let generationText: string | undefined;
    let indexId: string | undefined;
    try {
      db.exec('BEGIN');
      generationText = getMeta(db, 'generation');
      indexId = indexIdOf(db);
    } catch {
      db.close();
      return fail('index_corrupt', `the index at ${file} is unreadable; ${run}`);
    }
    const owner = ownershipOf(db, options.builtFor ?? root);
    if (owner.state !== 'own') {
      db.close();
      if (owner.state === 'other') return rootMismatch(cacheDir, owner.builtFor, options.builtFor ?? root);
      return fail(
        'index_warming',
        `the index for ${root} was built for a directory since deleted and recreated at that path; it is rebuilt on the next index; ${run}`,
      );
    }
    const generation = Number(generationText ?? '0');
    if (generation === 0) {
      db.close();
      return fail('index_warming', `the index for ${root} has no published generation yet; ${run}`);
    }
    return ok(new IndexReader(db, generation, root, cacheDir, indexId, options.previous, options.regexHelper));
  }

  files(): IndexedFile[] {
    if (!this.fileList) {
      const taken: FilesTakenOver = (this.previous && this.filesFrom(this.previous)) ?? { files: this.readFiles() };
      this.fileList = taken.files;
      // A path's words do not depend on the index: any earlier reader's are good.
      if (this.previous && this.previous.pathWords.size <= 2 * this.fileList.length + PATH_WORDS_SLACK)
        this.pathWordMemo = this.previous.pathWords;
      this.previous = undefined;
      this.fileById = taken.byId ?? LayeredLookup.of(this.fileList.map((f) => [f.id, f] as const));
      this.fileByPathLookup = taken.byPath;
      this.lowerPathList = taken.lowerPaths;
      this.pathScreen = taken.pathScreen;
      this.fileTally = taken.tally;
    }
    return this.fileList;
  }

  /** This reader's file rows, for a reader of a later generation to start from (OpenOptions.previous). */
  fileTable(): FileTable | undefined {
    return this.indexId !== undefined && this.fileList && this.fileById
      ? {
          indexId: this.indexId,
          generation: this.generation,
          files: this.fileList,
          pathWords: this.pathWordMemo,
          byId: this.fileById,
          ...(this.fileByPathLookup ? { byPath: this.fileByPathLookup } : {}),
          ...(this.lowerPathList ? { lowerPaths: this.lowerPathList } : {}),
          ...(this.pathScreen ? { pathScreen: this.pathScreen } : {}),
          ...(this.fileTally ? { tally: this.fileTally } : {}),
        }
      : undefined;
  }

  /**
   * The filename words (pathWordsOf) of `files()[index]`, remembered: the filename lane
   * reads those of thousands of paths per search, and they only depend on the path (so
   * a reader of a later generation takes over what this one met, by path).
   */
  pathWordsAt(index: number): PathWords {
    let words = this.pathWordList[index];
    if (!words) {
      const path = this.files()[index].path;
      words = this.pathWordMemo.get(path);
      if (!words) {
        words = pathWordsOf(path);
        this.pathWordMemo.set(path, words);
      }
      this.pathWordList[index] = words;
    }
    return words;
  }

  private readFiles(): IndexedFile[] {
    // Sorted here rather than by SQL: ORDER BY path walks the path index and fetches each
    // row from the table by id (333 against 279 ms for the kernel's rows, and a JavaScript
    // sort of them takes 12 ms). Stored paths are ASCII, so the orders are the same.
    return allRows(this.db, `SELECT ${FILE_COLUMNS} FROM file`).map(indexedFileOf).sort(byPath);
  }

  /**
   * `previous` with the rows changed since read again, and its lookups and lowercased paths
   * patched with them; undefined when the journal cannot tell which rows changed.
   */
  private filesFrom(previous: FileTable): FilesTakenOver | undefined {
    if (this.indexId === undefined || previous.indexId !== this.indexId) return undefined;
    const changed = fileChangesSince(this.db, this.indexId, previous.generation, this.generation);
    if (!changed) return undefined;
    const fresh: IndexedFile[] = [];
    for (let i = 0; i < changed.length; i += IDS_PER_STATEMENT) {
      const chunk = changed.slice(i, i + IDS_PER_STATEMENT);
      const marks = chunk.map(() => '?').join(',');
      for (const r of allRows(this.db, `SELECT ${FILE_COLUMNS} FROM file WHERE id IN (${marks})`, chunk))
        fresh.push(indexedFileOf(r));
    }
    const gone = changed.flatMap((id) => previous.byId.get(id) ?? []);
    const patched = patchRows(previous.files, previous.lowerPaths, gone, fresh, lowerPathOf);
    const idLookup = previous.byId.with(
      gone.map((f) => f.id),
      fresh.map((f) => [f.id, f] as const),
      FILE_LOOKUP_OVERLAY_MAX,
    );
    const pathLookup = previous.byPath?.with(
      gone.map((f) => f.path),
      fresh.map((f) => [f.path, f] as const),
      FILE_LOOKUP_OVERLAY_MAX,
    );
    return {
      files: patched.rows,
      ...(idLookup ? { byId: idLookup } : {}),
      ...(pathLookup ? { byPath: pathLookup } : {}),
      ...(patched.aligned ? { lowerPaths: patched.aligned } : {}),
      // An edit changes rows, not paths: the screen, a function of the paths alone, carries over.
      ...(previous.pathScreen && samePaths(gone, fresh) ? { pathScreen: previous.pathScreen } : {}),
      ...(previous.tally ? { tally: tallied(tallied(previous.tally, gone, -1), fresh, 1) } : {}),
    };
  }

  /** Lowercased display paths, aligned with files(): computed once per reader, not per query. */
  lowerPaths(): readonly string[] {
    this.lowerPathList ??= this.files().map(lowerPathOf);
    return this.lowerPathList;
  }

  /**
   * Indexes into files() of the paths whose lowercased display path (lowerPaths) holds one
   * of `words`, ascending (path-screen.ts: the filename lane's screen, 78,000 paths a
   * search on the kernel).
   */
  pathsHolding(words: readonly string[]): number[] {
    // files() first: it may take a screen over from the previous reader.
    const lowers = this.lowerPaths();
    this.pathScreen ??= PathScreen.of(lowers);
    return this.pathScreen.holding(words);
  }

  /**
   * The files a query's file filters admit (eligibility.ts), not excluded, in files()
   * order. Remembered for the last ELIGIBLE_SETS_CACHED_MAX filter sets: filtering the
   * kernel's 78,000 rows took ~4.5 ms of every `re:` search, and a daemon's searches mostly
   * repeat no filter or the same few.
   */
  eligibleFiles(filters: FileFilters): readonly IndexedFile[] {
    const key = JSON.stringify([
      filters.fileInclude,
      filters.fileExclude,
      filters.languages,
      filters.sources,
      filters.sourceExclude,
    ]);
    let list = this.eligibleMemo.get(key);
    if (list) this.eligibleMemo.delete(key);
    else {
      const eligible = this.eligibility(filters);
      list = this.files().filter((f) => !f.excluded && eligible(f));
    }
    this.eligibleMemo.set(key, list);
    if (this.eligibleMemo.size > ELIGIBLE_SETS_CACHED_MAX)
      this.eligibleMemo.delete(this.eligibleMemo.keys().next().value as string);
    return list;
  }

  /**
   * The eligible files too large to index that a query reads live, and those it leaves
   * (too-large.ts: TOO_LARGE_LIVE_BYTES_MAX summed, a file its `file:` names exactly
   * always). `keep` narrows them first (the mentions check reads code files alone).
   */
  tooLargeLive(filters: FileFilters, keep?: (f: IndexedFile) => boolean): TooLargeLive {
    this.tooLargeList ??= this.files().filter((f) => f.excluded === 'too_large');
    if (this.tooLargeList.length === 0) return NO_TOO_LARGE;
    const eligible = this.eligibility(filters);
    const large = this.tooLargeList.filter((f) => eligible(f) && (keep === undefined || keep(f)));
    return tooLargeWithinBound(large, filters.fileInclude);
  }

  /**
   * What a `re:` or `"literal"` search reads live: eligibleFiles with the too-large files
   * tooLargeLive reads among them, in files() order, and the ones it leaves for coverage.
   */
  liveScanFiles(filters: FileFilters): {
    readonly files: readonly IndexedFile[];
    readonly tooLargeUnread: readonly IndexedFile[];
  } {
    const indexed = this.eligibleFiles(filters);
    // The merge copies the whole list (78,000 kernel paths): once per eligible list.
    const known = this.liveScanMemo.get(indexed);
    if (known) return known;
    const large = this.tooLargeLive(filters);
    const scan = {
      files: large.read.length === 0 ? indexed : mergeByPath(indexed, large.read),
      tooLargeUnread: large.unread,
    };
    this.liveScanMemo.set(indexed, scan);
    return scan;
  }

  /** The predicate of a query's file filters over this index's paths (a `file:` value's meaning depends on them: pathmatch.ts). */
  eligibility(filters: FileFilters): (f: FilterFacts) => boolean {
    // Without a `file:` value the paths are not read: listing 78,000 of them is a kernel search's allocation for nothing.
    const paths =
      filters.fileInclude.length > 0 || filters.fileExclude.length > 0 ? this.files().map((f) => f.path) : [];
    return fileEligibility(filters, paths);
  }

  /** The largest file id (0 for no files): the width of a file bitset. */
  maxFileId(): number {
    if (this.maxIdMemo === undefined) {
      let max = 0;
      for (const f of this.files()) max = Math.max(max, f.id);
      this.maxIdMemo = max;
    }
    return this.maxIdMemo;
  }

  file(id: number): IndexedFile | undefined {
    this.files();
    return this.fileById!.get(id);
  }

  fileByPath(path: string): IndexedFile | undefined {
    // A reader that has not loaded its file rows asks for one: `show` and `ctx` of a
    // handle, and settling a page, read a few files, and loading the kernel's 78,000 rows
    // would cost them 300 ms.
    if (!this.fileList) {
      const row = allRows(this.db, `SELECT ${FILE_COLUMNS} FROM file WHERE path = ?`, [path])[0];
      return row ? indexedFileOf(row) : undefined;
    }
    this.fileByPathLookup ??= LayeredLookup.of(this.fileList.map((f) => [f.path, f] as const));
    return this.fileByPathLookup.get(path);
  }

  private withFiles(defs: readonly StoredDefinition[]): IndexedDefinition[] {
    const out: IndexedDefinition[] = [];
    for (const d of defs) {
      const file = this.file(d.file);
      if (file) out.push({ ...d, file });
    }
    return out;
  }

  /** Definitions named exactly `name` (case-sensitive), optionally owned by `container`. */
  definitions(name: string, options: { readonly container?: string } = {}): IndexedDefinition[] {
    return this.withFiles(definitionsNamed(this.db, name, options.container));
  }

  /** The definitions a qualified name spells (`A::B::c`; store/definitions.ts definitionsQualified). */
  qualifiedDefinitions(parts: readonly string[]): IndexedDefinition[] {
    return this.withFiles(definitionsQualified(this.db, parts));
  }

  // A file's facts, read once per reader (a generation never changes): navigation asks for
  // the same headers again and again (every site of `refs` follows its file's `#include`s,
  // and most of a kernel's files include the same ones), and re-reading them was most of a
  // `refs` of a common name. Bounded: least recently read dropped first.
  private readonly definitionsByFile = new Map<number, IndexedDefinition[]>();
  private readonly importsByFile = new Map<number, IndexedImport[]>();

  private cachedFacts<T>(cache: Map<number, T[]>, fileId: number, read: () => T[]): T[] {
    let rows = cache.get(fileId);
    if (rows === undefined) {
      rows = read();
      if (cache.size >= FILE_FACTS_CACHED_MAX) cache.delete(cache.keys().next().value as number);
    } else cache.delete(fileId);
    cache.set(fileId, rows);
    // A copy: callers sort and filter what they get.
    return [...rows];
  }

  /**
   * Files whose parse failed or was partial (their definitions and references may be
   * incomplete; lexical search still covers every byte): how many of each, and the first
   * `limit` paths (stored form), failed ones first, each group in path order.
   */
  parseFailures(limit: number): { failed: number; partial: number; paths: string[] } {
    const failing = this.files().filter((f) => !f.excluded && isParseFailure(f));
    const failed = failing
      .filter((f) => f.parse === 'failed')
      .map((f) => f.path)
      .sort();
    const partial = failing
      .filter((f) => f.parse === 'partial')
      .map((f) => f.path)
      .sort();
    return {
      failed: failed.length,
      partial: partial.length,
      paths: [...failed, ...partial].slice(0, Math.max(0, limit)),
    };
  }

  /**
   * The indexed files whose bytes are no longer the indexed ones (or that are gone): their
   * facts and lines are the index's, not the tree's. The stat (size, mtime, inode) is
   * compared first; a file whose stat differs is read and its revision compared. How many, and the first
   * `limit` paths (stored form) in path order. One lstat a file: on the kernel's 78,000 files
   * 0.5–0.9 s more for `status` (measured, the build before alongside), for it only. Files added since are not seen (a walk
   * would find them; `index` does).
   */
  changedSinceIndexing(limit: number): { count: number; paths: string[] } {
    const paths: string[] = [];
    let count = 0;
    const rootBytes = Buffer.from(`${this.root}/`);
    for (const r of allRows(this.db, 'SELECT path, size, mtime, ino, revision, excluded FROM file ORDER BY path')) {
      const encoded = String(r[0]);
      const raw = percentDecode(encoded);
      const st = fs.lstatSync(Buffer.concat([rootBytes, raw]), { bigint: true, throwIfNoEntry: false });
      const record = { size: Number(r[1]), mtime: String(r[2]), ino: Number(r[3]) };
      if (st !== undefined && sameRecordedStat(record, fileOf(raw, st))) continue;
      // A file written again with the same bytes (a checkout, an editor's save) is current:
      // its revision says so, where the stat alone would not.
      const revision = r[4] == null ? null : String(r[4]);
      const excluded = r[5] == null ? null : String(r[5]);
      if (
        st !== undefined &&
        revision !== null &&
        readIndexedBytes(this.root, { path: encoded, revision }, liveReadBound({ excluded }))
      )
        continue;
      count++;
      if (paths.length < limit) paths.push(encoded);
    }
    return { count, paths };
  }

  /** Definitions of one indexed file in source order. */
  fileDefinitions(path: string): IndexedDefinition[] {
    const f = this.fileByPath(path);
    return f
      ? this.cachedFacts(this.definitionsByFile, f.id, () => this.withFiles(definitionsOfFile(this.db, f.id)))
      : [];
  }

  private importRows(where: string, params: (string | number)[]): IndexedImport[] {
    const out: IndexedImport[] = [];
    for (const r of allRows(
      this.db,
      `SELECT file, spelled, name, alias, reexport, start, end, line FROM imports WHERE ${where} ORDER BY file, start`,
      params,
    )) {
      const file = this.file(Number(r[0]));
      if (!file) continue;
      out.push({
        file,
        spelled: String(r[1]),
        name: r[2] == null ? null : String(r[2]),
        alias: r[3] == null ? null : String(r[3]),
        reexport: Number(r[4]) === 1,
        start: Number(r[5]),
        end: Number(r[6]),
        line: Number(r[7]),
      });
    }
    return out;
  }

  /**
   * Definition spans of one file whose lines overlap [fromLine, toLine], in byte and line
   * coordinates of its indexed revision: the only ones that can enclose a match there. A
   * hit's span needs no more; a header of thousands of macros and fields, read whole for
   * each of 200 hits, was a quarter of a one-shot search on the kernel subset.
   */
  definitionSpansOverlapping(fileId: number, fromLine: number, toLine: number): DefinitionSpan[] {
    return definitionsOverlapping(this.db, fileId, fromLine, toLine);
  }

  /** Definitions of one file whose name holds one of `fragments` (case-insensitive), in source order. */
  definitionSpansNaming(fileId: number, fragments: readonly string[]): DefinitionSpan[] {
    return definitionsNaming(this.db, fileId, fragments);
  }

  /** The one representative occurrence of `name` per file that uses it (any role), with its roles and count. */
  nameUses(
    name: string,
  ): { file: IndexedFile; start: number; end: number; line: number; roles: number; count: number }[] {
    const out: { file: IndexedFile; start: number; end: number; line: number; roles: number; count: number }[] = [];
    for (const row of allRows(
      this.db,
      'SELECT u.file, u.start, u.start + u.len, u.line, u.roles, u.count FROM use u JOIN name n ON n.id = u.name WHERE n.text = ?',
      [name],
    )) {
      const file = this.file(Number(row[0]));
      if (file)
        out.push({
          file,
          start: Number(row[1]),
          end: Number(row[2]),
          line: Number(row[3]),
          roles: Number(row[4]),
          count: Number(row[5]),
        });
    }
    return out;
  }

  /** The imports of one indexed file, in source order (indexed by file: cheap per hop). */
  fileImports(path: string): IndexedImport[] {
    const f = this.fileByPath(path);
    return f ? this.cachedFacts(this.importsByFile, f.id, () => this.importRows('file = ?', [f.id])) : [];
  }

  /** Imports that bind `name` in their file: imported as `name`, or aliased to it. */
  importsOf(name: string): IndexedImport[] {
    return this.importRows('name = ? OR alias = ?', [name, name]);
  }

  coverage(): IndexCoverage {
    // Read on every call: a daemon keeps its reader across reconciles that publish nothing.
    const failure = readReconcileFailure(this.cacheDir);
    return { ...this.generationCoverage(), ...(failure ? { reconcile_failed: failure } : {}) };
  }

  /**
   * What a generation's coverage counts: fixed for this reader's life (one read
   * transaction), so counted once; a daemon's searches spared a walk of every file row
   * each (17 ms on the kernel's 78,000).
   */
  private generationCoverage(): IndexCoverage {
    if (this.coverageMemo) return this.coverageMemo;
    const files = this.files();
    this.fileTally ??= tallied(EMPTY_TALLY, files, 1);
    const { indexed, excluded, readErrors, parseFailures, factLimited } = this.fileTally;
    const walkErrors = Number(getMeta(this.db, 'walk_errors') ?? '0');
    const unsearched: Record<string, number> = {};
    if (walkErrors) unsearched.walk_error = walkErrors;
    if (readErrors) unsearched.read_error = readErrors;
    if (factLimited.length) unsearched.fact_limit = factLimited.length;
    this.coverageMemo = {
      generation: this.generation,
      indexed_files: indexed,
      excluded: withSkipped(excluded, parseSkipMeta(getMeta(this.db, 'skipped'))),
      parse_failures: parseFailures,
      unsearched,
      ...(factLimited.length ? { unsearched_paths: factLimited.slice(0, UNSEARCHED_PATHS_SHOWN) } : {}),
      semantic: 'unavailable',
    };
    return this.coverageMemo;
  }

  /**
   * The largest directories the walk left out (ignored, untracked never-entered), most files
   * first, as recorded at publication: `status` lists them; a search's coverage only counts.
   */
  skippedDirs(): readonly SkippedDir[] {
    return parseSkipMeta(getMeta(this.db, 'skipped')).largest;
  }

  /**
   * Commit documents (`source:git-log`): `state` says why there are none (`shallow_clone`,
   * `not_git`, `not_git_root`, `no_commits`, `git_error`) or `indexed`, with their count.
   */
  gitLog(): { readonly state: string; readonly commits: number } {
    const state = getMeta(this.db, 'git_log') ?? 'not_git';
    return { state, commits: Number(allRows(this.db, 'SELECT count(*) FROM commits')[0][0]) };
  }

  /** How this root's first index was seeded, when it was (a linked worktree from its member). */
  seed(): SeedOutcome | undefined {
    const text = getMeta(this.db, 'seed');
    if (!text) return undefined;
    try {
      return JSON.parse(text) as SeedOutcome;
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.db.close();
  }
}
