import type { Extraction, Region } from '../extract/facts';
import { DefinitionWriter } from './definitions';
import { UseWriter } from './uses';
import type { Database, SqlValue } from './sql';
import { getMeta, setMeta } from './schema';
import { allRows, oneValue, runStatement } from './sql';

export interface FileRecord {
  readonly path: string;
  readonly lang: string;
  readonly tags: readonly string[];
  readonly size: number;
  readonly mtime: string;
  readonly ino: number;
  readonly revision: string | null;
  readonly extractor: string | null;
  readonly excluded: string | null;
  readonly parse: string;
  readonly factLimited: boolean;
  readonly lines: number;
}

const NAMES_NEXT_KEY = 'names_next';
const REGIONS_LIVE_KEY = 'regions_live';

/** Prepared-statement writer of one generation (inside the reconcile's transaction). */
/** Origin tags as the `file.tags` column holds them: space-separated (IndexReader splits them back). */
export function tagsColumn(tags: readonly string[]): string {
  return tags.join(' ');
}

export class StoreWriter {
  private readonly insertFile;
  private readonly definitions: DefinitionWriter;
  private readonly uses: UseWriter;
  private readonly insertName;
  private readonly insertRegion;
  private readonly insertImport;
  private readonly insertFts;
  private readonly nameIds = new Map<string, number>();
  // Ids are assigned here rather than read back with last_insert_rowid(): a prepared
  // statement per insert was a large share of indexing time.
  private nextFileId: number;
  private nextNameId: number;
  private nextRegionId: number;
  private liveRegions: number;

  constructor(private readonly db: Database) {
    this.nextFileId = Number(oneValue(db, 'SELECT coalesce(max(id), 0) FROM file')) + 1;
    // Counters kept in meta: max(id) of a WITHOUT ROWID table, or count(*) of region, is a scan.
    this.nextNameId = Number(
      getMeta(db, NAMES_NEXT_KEY) ?? Number(oneValue(db, 'SELECT coalesce(max(id), 0) FROM name')) + 1,
    );
    this.liveRegions = Number(getMeta(db, REGIONS_LIVE_KEY) ?? oneValue(db, 'SELECT count(*) FROM region'));
    this.namesComplete = this.nextNameId === 1;
    this.findName = db.prepare('SELECT id FROM name WHERE text = ?').pluck();
    const seq = Number(oneValue(db, "SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'region'") ?? 0);
    this.nextRegionId = Math.max(seq, Number(oneValue(db, 'SELECT coalesce(max(id), 0) FROM region'))) + 1;
    this.insertFile = db.prepare(
      'INSERT INTO file(id, path, lang, tags, size, mtime, ino, revision, extractor, excluded, parse, fact_limited, lines) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)',
    );
    this.definitions = new DefinitionWriter(db);
    this.uses = new UseWriter(db);
    this.insertName = db.prepare('INSERT INTO name(text, id) VALUES (?, ?)');
    this.insertImport = db.prepare(
      'INSERT INTO imports(file, spelled, name, alias, reexport, start, end, line) VALUES (?,?,?,?,?,?,?,?)',
    );
    this.insertRegion = db.prepare('INSERT INTO region(id, file, start, end, sl, el, symbol) VALUES (?,?,?,?,?,?,?)');
    this.insertFts = db.prepare('INSERT INTO fts(docid, body, idents) VALUES (CAST(? AS INTEGER),?,?)');
  }

  addFile(rec: FileRecord): number {
    const id = this.nextFileId++;
    this.insertFile.run(
      id,
      rec.path,
      rec.lang,
      tagsColumn(rec.tags),
      rec.size,
      rec.mtime,
      rec.ino,
      rec.revision,
      rec.extractor,
      rec.excluded,
      rec.parse,
      rec.factLimited ? 1 : 0,
      rec.lines,
    );
    return id;
  }

  /** A file whose bytes did not change: its stat, and its origin tags (the rules that derive them may have). */
  updateStat(fileId: number, size: number, mtime: string, ino: number, tags: readonly string[]): void {
    runStatement(this.db, 'UPDATE file SET size = ?, mtime = ?, ino = ?, tags = ? WHERE id = ?', [
      size,
      mtime,
      ino,
      tagsColumn(tags),
      fileId,
    ]);
  }

  /**
   * Names known to this writer. A first index starts from an empty name table, so the map
   * is complete and a name missing from it is new. Otherwise names are looked up one at a
   * time (by its primary key): reading the whole table into a map was 0.7 s of every one-file
   * reconcile of a kernel subset (712,689 uses, docs/storage.md).
   */
  private readonly namesComplete: boolean;
  private namesWritten = false;
  private readonly findName;

  private nameId(text: string): number {
    let id = this.nameIds.get(text);
    if (id === undefined && !this.namesComplete) {
      const found = this.findName.get(text) as number | undefined;
      if (found !== undefined) {
        id = Number(found);
        this.nameIds.set(text, id);
      }
    }
    if (id === undefined) {
      id = this.nextNameId++;
      // A first index writes its names at finish(), in key order (see there).
      if (!this.namesComplete) this.insertName.run(text, id);
      this.nameIds.set(text, id);
    }
    return id;
  }

  addFacts(fileId: number, x: Extraction): void {
    for (const d of x.definitions) this.definitions.add(fileId, d);
    this.uses.add(fileId, x.names, (name) => this.nameId(name));
    for (const i of x.imports)
      this.insertImport.run(fileId, i.spelled, i.name, i.alias, i.reexport ? 1 : 0, i.start, i.end, i.line);
    for (const r of x.regions) this.addRegion(fileId, r);
  }

  addRegion(fileId: number, r: Region): void {
    const id = this.nextRegionId++;
    this.insertRegion.run(id, fileId, r.start, r.end, r.startLine, r.endLine, r.symbol);
    this.insertFts.run(id, r.body, r.idents);
    this.liveRegions++;
  }

  /** Regions of the generation being written (FTS documents that a region row joins). */
  regionsLive(): number {
    return this.liveRegions;
  }

  /** Record the counters in the generation: call once, after the last write. */
  finish(): void {
    // The name table is keyed by text: a first index inserting names as files meet them
    // paid a random B-tree insert each (3.2 s of a kernel subset's 24 s on the writing
    // thread). Its map holds every name (nothing reads the table before), so they go in
    // now, in key order.
    if (this.namesComplete && !this.namesWritten) {
      for (const text of [...this.nameIds.keys()].sort()) this.insertName.run(text, this.nameIds.get(text)!);
      this.namesWritten = true;
    }
    setMeta(this.db, NAMES_NEXT_KEY, String(this.nextNameId));
    setMeta(this.db, REGIONS_LIVE_KEY, String(this.liveRegions));
  }

  private readonly copies: [number, number][] = [];

  /** Copy definitions and uses of another file with the same revision (no parsing), at flush. */
  copyFacts(fromFile: number, toFile: number): void {
    this.copies.push([fromFile, toFile]);
  }

  /**
   * Run the queued copies: definitions and uses donor by donor, imports in one statement
   * joined with the map of donor to new file. Must run before removals, since a donor may
   * be a file that is going away.
   */
  flushCopies(): void {
    if (this.copies.length === 0) return;
    this.db.exec(
      'CREATE TEMP TABLE copy_map(old INTEGER NOT NULL, new INTEGER NOT NULL); CREATE INDEX temp.copy_old ON copy_map(old)',
    );
    const add = this.db.prepare('INSERT INTO copy_map(old, new) VALUES (?, ?)');
    for (const [from, to] of this.copies) add.run(from, to);
    for (const [from, to] of this.copies) {
      this.definitions.copy(from, to);
      this.uses.copy(from, to);
    }
    this.db.exec(`INSERT INTO imports(file, spelled, name, alias, reexport, start, end, line)
      SELECT m.new, i.spelled, i.name, i.alias, i.reexport, i.start, i.end, i.line FROM imports i JOIN copy_map m ON m.old = i.file`);
    this.db.exec('DROP TABLE temp.copy_map');
    this.copies.length = 0;
  }

  regionSpans(fileId: number): { start: number; end: number; sl: number; el: number; symbol: string | null }[] {
    return allRows(this.db, 'SELECT start, end, sl, el, symbol FROM region WHERE file = ? ORDER BY start', [
      fileId,
    ]).map((r: SqlValue[]) => ({
      start: Number(r[0]),
      end: Number(r[1]),
      sl: Number(r[2]),
      el: Number(r[3]),
      symbol: r[4] == null ? null : String(r[4]),
    }));
  }

  /** Remove files and their facts, one pass over each table. */
  removeFiles(fileIds: Iterable<number>): void {
    const ids = [...fileIds];
    if (ids.length === 0) return;
    this.db.exec('CREATE TEMP TABLE gone(id INTEGER PRIMARY KEY)');
    const add = this.db.prepare('INSERT OR IGNORE INTO gone(id) VALUES (?)');
    for (const id of ids) add.run(id);
    this.definitions.removeFilesIn('gone');
    this.uses.removeFilesIn('gone');
    this.db.exec('DELETE FROM imports WHERE file IN (SELECT id FROM gone)');
    this.liveRegions -= this.db.prepare('DELETE FROM region WHERE file IN (SELECT id FROM gone)').run().changes;
    this.db.exec('DELETE FROM file WHERE id IN (SELECT id FROM gone); DROP TABLE temp.gone');
  }
}
