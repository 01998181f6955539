import { percentEncode } from '@trufflepig/base';
import {
  extractionLanguageOf,
  sourceTags,
  storedLanguageOf,
  type ExtractionLanguage,
  type Language,
} from '../classify';
import { identifierExpansions } from '../extract/extract';
import type { Extraction } from '../extract/facts';
import { extractorId } from '../extract/grammars';
import { lineStartOffsets } from '../extract/text';
import { EXTRACTION_VERSION, FILE_MAX_BYTES } from '../limits';
import { allRows, runStatement, type Database } from '../store/sql';
import { StoreWriter, tagsColumn, type FileRecord } from '../store/writer';
import { TrigramWriter } from '../store/trigrams';
import { fileTrigrams } from '../trigram/grams';
import { recordedMtime, sameRecordedStat, type WalkedFile } from '../walk';
import { readBounded } from './read';
import { revisionOf } from '../revision';

export interface OldFile {
  id: number;
  lang: Language;
  size: number;
  mtime: string;
  ino: number;
  revision: string | null;
  extractor: string | null;
  excluded: string | null;
  parse: string;
  factLimited: boolean;
  /** The origin tags as stored (space-separated). */
  tags: string;
}

/** A file whose new revision must be extracted (or copied from a donor with the same revision). */
export interface Pending {
  readonly file: WalkedFile;
  readonly bytes: Buffer;
  readonly revision: string;
  readonly lang: ExtractionLanguage;
  readonly extractor: string;
  readonly donor?: OldFile;
}

const OLD_FILE_COLUMNS = 'path, id, size, mtime, ino, revision, extractor, excluded, parse, fact_limited, lang, tags';

function oldFileOf(r: readonly unknown[]): OldFile {
  const text = (v: unknown) => (v == null ? null : String(v));
  return {
    id: Number(r[1]),
    size: Number(r[2]),
    mtime: String(r[3]),
    ino: Number(r[4]),
    revision: text(r[5]),
    extractor: text(r[6]),
    excluded: text(r[7]),
    parse: String(r[8]),
    factLimited: Number(r[9]) === 1,
    lang: String(r[10]) as Language,
    tags: String(r[11] ?? ''),
  };
}

/**
 * The published rows by path: all of them, or those of `scope` (raw root-relative paths,
 * each a file or a directory with everything below it).
 */
export function oldFiles(db: Database, scope?: readonly Buffer[]): Map<string, OldFile> {
  const old = new Map<string, OldFile>();
  if (!scope) {
    for (const r of allRows(db, `SELECT ${OLD_FILE_COLUMNS} FROM file`)) old.set(String(r[0]), oldFileOf(r));
    return old;
  }
  for (const raw of scope) {
    // Stored paths are percent-encoded byte by byte and '/' is never encoded, so a
    // directory's rows are one range of the path index: after `dir/`, before `dir0`.
    const path = percentEncode(raw);
    for (const r of allRows(db, `SELECT ${OLD_FILE_COLUMNS} FROM file WHERE path = ? OR (path >= ? AND path < ?)`, [
      path,
      `${path}/`,
      `${path}0`,
    ]))
      old.set(String(r[0]), oldFileOf(r));
  }
  return old;
}

/** A published row holding these bytes for this extractor, whose facts a new row may copy. */
function donorOf(db: Database, revision: string, extractor: string): OldFile | undefined {
  const r = allRows(
    db,
    `SELECT ${OLD_FILE_COLUMNS} FROM file WHERE revision = ? AND extractor = ? AND excluded IS NULL LIMIT 1`,
    [revision, extractor],
  )[0];
  return r ? oldFileOf(r) : undefined;
}

/**
 * The changes of one reconcile, applied to a staging database. New rows get a temporary
 * unique path until the rows they replace are removed, so a donor's facts can still be
 * copied from a row that is about to disappear (renames).
 */
export class ReconcileSession {
  changed = false;
  parsed = 0;
  reused = 0;
  ftsInserted = 0;
  /** Files whose stat changed but whose bytes did not: their rows and facts are kept as they are. */
  statOnly = 0;
  readonly unsearched: Record<string, number>;
  private readonly toRemove: number[] = [];
  /** Rows whose stat was updated in place. */
  private readonly restatted: number[] = [];
  private readonly staged: { path: string; fileId: number }[] = [];
  private readonly seen = new Set<string>();
  private readonly byRevision = new Map<string, OldFile>();
  private readonly writer: StoreWriter;
  private readonly trigrams: TrigramWriter;
  /**
   * `old`: the published rows this reconcile compares with: all of them, or (`scoped`) only
   * those of the scope walked; then a donor of facts is looked up among all published rows.
   */
  constructor(
    private readonly db: Database,
    private readonly root: string,
    private readonly old: Map<string, OldFile>,
    walkErrors: number,
    private readonly scoped = false,
  ) {
    this.writer = new StoreWriter(db);
    this.trigrams = new TrigramWriter(db);
    this.unsearched = { walk_error: walkErrors, read_error: 0, fact_limit: 0 };
    for (const [, f] of old)
      if (f.revision && f.extractor && !f.excluded) this.byRevision.set(`${f.revision}|${f.extractor}`, f);
  }

  /** Files whose stat differs from the published record (or that are new). */
  needsExamination(file: WalkedFile): boolean {
    this.seen.add(file.path);
    const prev = this.old.get(file.path);
    if (!prev || !sameRecordedStat(prev, file)) return true;
    // A file whose origin rules changed (a ChangeLog is docs now) is examined again: its
    // bytes are the same, so that costs a hash and an update of its row, not a parse.
    // Tags from the stored language: the bytes are the same, so is the language they chose.
    if (prev.tags !== tagsColumn(sourceTags(file.path, prev.lang))) return true;
    return !prev.excluded && prev.extractor !== extractorId(extractionLanguageOf(file.path), EXTRACTION_VERSION);
  }

  private record(
    file: WalkedFile,
    lang: Language,
    fields: Pick<FileRecord, 'revision' | 'excluded'> & Partial<FileRecord>,
  ): void {
    const prev = this.old.get(file.path);
    if (prev) this.toRemove.push(prev.id);
    // Staged under a placeholder like every new row: the previous row of this path (a file
    // that became a symlink, binary, too large) is still there until finish() removes it.
    const fileId = this.writer.addFile({
      path: this.stagingPath(),
      lang,
      tags: sourceTags(file.path, lang),
      size: file.size,
      mtime: recordedMtime(file),
      ino: file.ino,
      factLimited: false,
      extractor: null,
      parse: 'none',
      lines: 0,
      ...fields,
    });
    this.staged.push({ path: file.path, fileId });
    this.changed = true;
  }

  private stagingPath(): string {
    return `\u0000staging:${this.staged.length}`;
  }

  /** Read and hash a changed file; settle it at once unless its new revision needs facts. */
  examine(file: WalkedFile): Pending | undefined {
    const lang = extractionLanguageOf(file.path);
    if (file.symlink || file.size > FILE_MAX_BYTES) {
      this.record(file, storedLanguageOf(lang), { revision: null, excluded: file.symlink ? 'symlink' : 'too_large' });
      return undefined;
    }
    const read = readBounded(this.root, file.raw);
    if ('gone' in read) {
      this.seen.delete(file.path);
      return undefined;
    }
    if ('excluded' in read) {
      if (read.excluded === 'read_error') this.unsearched.read_error++;
      this.record(file, storedLanguageOf(lang), { revision: null, excluded: read.excluded });
      return undefined;
    }
    const bytes = read.bytes;
    const revision = revisionOf(bytes);
    const extractor = extractorId(lang, EXTRACTION_VERSION);
    const prev = this.old.get(file.path);
    if (prev && prev.revision === revision && prev.extractor === extractor && !prev.excluded) {
      this.writer.updateStat(prev.id, bytes.length, recordedMtime(file), file.ino, sourceTags(file.path, prev.lang));
      this.restatted.push(prev.id);
      this.changed = true;
      this.statOnly++;
      return undefined;
    }
    if (bytes.length > FILE_MAX_BYTES || bytes.includes(0)) {
      this.record(file, storedLanguageOf(lang), {
        size: bytes.length,
        revision,
        excluded: bytes.length > FILE_MAX_BYTES ? 'too_large' : 'binary',
      });
      return undefined;
    }
    if (prev) this.toRemove.push(prev.id);
    this.changed = true;
    const donor =
      this.byRevision.get(`${revision}|${extractor}`) ??
      (this.scoped ? donorOf(this.db, revision, extractor) : undefined);
    return { file, bytes, revision, lang, extractor, donor };
  }

  /** Store a pending file's facts: freshly extracted, or copied from its donor without parsing. */
  insert(p: Pending, x: Extraction | undefined): void {
    const donor = x ? undefined : p.donor;
    // The content may have chosen the language (a C++ header named .h, one without
    // extension): the extraction, or its donor, says which, and the tags follow it.
    const lang = x ? (x.lang ?? storedLanguageOf(p.lang)) : donor!.lang;
    const rec: FileRecord = {
      path: this.stagingPath(),
      lang,
      tags: sourceTags(p.file.path, lang),
      size: p.bytes.length,
      mtime: recordedMtime(p.file),
      ino: p.file.ino,
      revision: p.revision,
      extractor: p.extractor,
      excluded: null,
      parse: x ? x.parse : donor!.parse,
      factLimited: x ? x.factLimited : donor!.factLimited,
      lines: lineStartOffsets(p.bytes).length,
    };
    const fileId = this.writer.addFile(rec);
    this.trigrams.add(fileId, fileTrigrams(p.bytes));
    if (rec.factLimited) this.unsearched.fact_limit++;
    if (x) {
      this.writer.addFacts(fileId, x);
      this.ftsInserted += x.regions.length;
      this.parsed++;
    } else {
      this.writer.copyFacts(donor!.id, fileId);
      for (const r of this.writer.regionSpans(donor!.id)) {
        const body = p.bytes.subarray(r.start, r.end).toString('utf8');
        this.writer.addRegion(fileId, {
          start: r.start,
          end: r.end,
          startLine: r.sl,
          endLine: r.el,
          symbol: r.symbol,
          body,
          idents: identifierExpansions(body, r.symbol),
        });
        this.ftsInserted++;
      }
      this.reused++;
    }
    this.staged.push({ path: p.file.path, fileId });
  }

  /** Regions (live FTS documents) of the generation being written. */
  regionsLive(): number {
    return this.writer.regionsLive();
  }

  /** Ids of the file rows this session added, removed or updated in place (store/file-changes.ts). */
  changedFileIds(): Set<number> {
    return new Set([...this.toRemove, ...this.restatted, ...this.staged.map((s) => s.fileId)]);
  }

  /** Drop removed and replaced rows, then give staged rows their real paths. */
  finish(): number {
    for (const [p, f] of this.old) {
      if (!this.seen.has(p)) {
        this.toRemove.push(f.id);
        this.changed = true;
      }
    }
    const removed = new Set(this.toRemove);
    this.writer.flushCopies();
    this.trigrams.flush();
    this.writer.removeFiles(removed);
    for (const s of this.staged) runStatement(this.db, 'UPDATE file SET path = ? WHERE id = ?', [s.path, s.fileId]);
    this.writer.finish();
    return removed.size;
  }
}
