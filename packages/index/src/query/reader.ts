import * as fs from 'node:fs';
import type { Language } from '../classify';
import { fail, ok, type Outcome } from '../errors';
import { loadDatabase, type SeedOutcome } from '../reconcile';
import { getMeta } from '../store/schema';
import { indexPath } from '../store/publish';
import { allRows, type Database } from '../store/sql';

export interface IndexedFile {
  readonly id: number;
  readonly path: string;
  readonly lang: Language;
  readonly tags: readonly string[];
  readonly size: number;
  readonly mtime: string;
  readonly ino: number;
  readonly revision: string | null;
  readonly excluded: string | null;
  readonly parse: string;
  readonly factLimited: boolean;
  readonly lines: number;
}

export interface IndexCoverage {
  readonly generation: number;
  readonly indexed_files: number;
  readonly excluded: Readonly<Record<string, number>>;
  readonly parse_failures: number;
  readonly unsearched: Readonly<Record<string, number>>;
  readonly unsearched_paths?: readonly string[];
  readonly semantic: 'unavailable';
}

/** Up to this many fact-limited paths are named in coverage (workspace contract). */
const UNSEARCHED_PATHS_SHOWN = 5;

/** A read-only view of one published generation. */
export class IndexReader {
  private fileList?: IndexedFile[];
  private fileById?: Map<number, IndexedFile>;
  private fileByPathMap?: Map<string, IndexedFile>;

  private constructor(readonly db: Database, readonly generation: number, readonly root: string) {}

  /** Open the published index; a missing index or generation 0 answers `index_warming`. */
  static async open(cacheDir: string, root: string): Promise<Outcome<IndexReader>> {
    const file = indexPath(cacheDir);
    if (!fs.existsSync(file)) return fail('index_warming', `no index for ${root} yet; run: trufflepig --root ${root} index`);
    const db = await loadDatabase(file);
    if (!db) return fail('index_corrupt', `the index at ${file} is unreadable or from another version; run: trufflepig --root ${root} index`);
    const generation = Number(getMeta(db, 'generation') ?? '0');
    if (generation === 0) {
      db.close();
      return fail('index_warming', `the index for ${root} has no published generation yet; run: trufflepig --root ${root} index`);
    }
    return ok(new IndexReader(db, generation, root));
  }

  files(): IndexedFile[] {
    if (!this.fileList) {
      this.fileList = allRows(this.db, 'SELECT id, path, lang, tags, size, mtime, ino, revision, excluded, parse, fact_limited, lines FROM file ORDER BY path').map((r) => ({
        id: Number(r[0]), path: String(r[1]), lang: String(r[2]) as Language, tags: String(r[3]).split(' ').filter(Boolean),
        size: Number(r[4]), mtime: String(r[5]), ino: Number(r[6]), revision: r[7] == null ? null : String(r[7]),
        excluded: r[8] == null ? null : String(r[8]), parse: String(r[9]), factLimited: Number(r[10]) === 1, lines: Number(r[11]),
      }));
      this.fileById = new Map(this.fileList.map((f) => [f.id, f]));
    }
    return this.fileList;
  }

  file(id: number): IndexedFile | undefined {
    this.files();
    return this.fileById!.get(id);
  }

  fileByPath(path: string): IndexedFile | undefined {
    this.fileByPathMap ??= new Map(this.files().map((f) => [f.path, f]));
    return this.fileByPathMap.get(path);
  }


  coverage(): IndexCoverage {
    const files = this.files();
    const excluded: Record<string, number> = {};
    let indexed = 0;
    let parseFailures = 0;
    const factLimited: string[] = [];
    let readErrors = 0;
    for (const f of files) {
      if (f.excluded === 'read_error') readErrors++;
      else if (f.excluded) excluded[f.excluded] = (excluded[f.excluded] ?? 0) + 1;
      else indexed++;
      if (f.parse === 'failed' || f.parse === 'partial') parseFailures++;
      if (f.factLimited) factLimited.push(f.path);
    }
    const walkErrors = Number(getMeta(this.db, 'walk_errors') ?? '0');
    const unsearched: Record<string, number> = {};
    if (walkErrors) unsearched.walk_error = walkErrors;
    if (readErrors) unsearched.read_error = readErrors;
    if (factLimited.length) unsearched.fact_limit = factLimited.length;
    return {
      generation: this.generation, indexed_files: indexed, excluded, parse_failures: parseFailures, unsearched,
      ...(factLimited.length ? { unsearched_paths: factLimited.slice(0, UNSEARCHED_PATHS_SHOWN) } : {}),
      semantic: 'unavailable',
    };
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
