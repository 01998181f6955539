import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { languageOf, sourceTags } from './classify';
import { fail, ok, type Outcome } from './errors';
import { identifierExpansions } from './extract/extract';
import { extractorId } from './extract/grammars';
import { createExtractor, type Extractor } from './extract/pool';
import { lineStartOffsets } from './extract/text';
import { EXTRACTION_VERSION, FILE_MAX_BYTES, FTS_DEAD_REBUILD_FRACTION } from './limits';
import { acquireWriterLock, indexPath, publishDatabase, removeAbandonedStaging } from './store/publish';
import { createSchema, FTS_DDL, getMeta, schemaMatches, setMeta } from './store/schema';
import { allRows, sqlEngine, type Database } from './store/sql';
import { StoreWriter, type FileRecord } from './store/writer';
import { percentDecode } from './paths';
import { walkRoot, type WalkedFile } from './walk';

/** Files handed to the parser pool at once; bounds memory while keeping every core busy. */
const EXTRACTION_BATCH = 64;

export interface ReconcileProgress { readonly phase: 'walk' | 'extract' | 'publish'; readonly done: number; readonly total: number }

export interface ReconcileOptions {
  readonly cacheDir: string;
  readonly parallelism?: number;
  readonly onProgress?: (p: ReconcileProgress) => void;
}

export interface ReconcileReport {
  readonly generation: number;
  readonly published: boolean;
  readonly files: number;
  readonly parsed: number;
  readonly reused: number;
  readonly removed: number;
  readonly excluded: Readonly<Record<string, number>>;
  readonly parseFailures: number;
  readonly unsearched: Readonly<Record<string, number>>;
  readonly sourceBytes: number;
  readonly durationMs: number;
}

interface OldFile { id: number; size: number; mtime: string; ino: number; revision: string | null; extractor: string | null; excluded: string | null; parse: string; factLimited: boolean }

export async function loadDatabase(file: string): Promise<Database | undefined> {
  const SQL = await sqlEngine();
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    const db = new SQL.Database(bytes);
    if (!schemaMatches(db)) {
      db.close();
      return undefined;
    }
    return db;
  } catch {
    return undefined;
  }
}

function oldFiles(db: Database): Map<string, OldFile> {
  const old = new Map<string, OldFile>();
  const text = (v: unknown) => (v == null ? null : String(v));
  for (const r of allRows(db, 'SELECT path, id, size, mtime, ino, revision, extractor, excluded, parse, fact_limited FROM file')) {
    old.set(String(r[0]), {
      id: Number(r[1]), size: Number(r[2]), mtime: String(r[3]), ino: Number(r[4]), revision: text(r[5]), extractor: text(r[6]),
      excluded: text(r[7]), parse: String(r[8]), factLimited: Number(r[9]) === 1,
    });
  }
  return old;
}

/** Read at most FILE_MAX_BYTES + 1 bytes: enough to tell an over-cap file without loading it. */
function readBounded(abs: Buffer): { bytes?: Buffer; error?: string; gone?: boolean } {
  let fd: number | undefined;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { error: 'not a regular file any more' };
    const buf = Buffer.allocUnsafe(Math.min(st.size, FILE_MAX_BYTES) + 1);
    let got = 0;
    for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, null);
    return { bytes: buf.subarray(0, got) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { gone: true };
    return { error: (err as Error).message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Bring the published index of `root` up to date with the working tree and publish a new
 * generation when anything changed. Unchanged files (same size, mtime and inode) are
 * trusted; changed ones are hashed and only new revisions are parsed.
 */
export async function reconcile(root: string, options: ReconcileOptions): Promise<Outcome<ReconcileReport>> {
  const started = Date.now();
  const { cacheDir } = options;
  try {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    return fail('cache_unwritable', `cannot create cache directory ${cacheDir}: ${(err as Error).message}; pass --cache DIR`);
  }
  let lock: ReturnType<typeof acquireWriterLock>;
  try {
    lock = acquireWriterLock(cacheDir);
  } catch (err) {
    return fail('cache_unwritable', `cannot lock the cache directory ${cacheDir}: ${(err as Error).message}; pass a writable --cache DIR`);
  }
  if ('heldBy' in lock) return fail('index_locked', `another process (pid ${lock.heldBy}) is indexing this root; wait for it and retry`);
  let extractor: Extractor | undefined;
  let db: Database | undefined;
  try {
    removeAbandonedStaging(cacheDir);
    const SQL = await sqlEngine();
    db = await loadDatabase(indexPath(cacheDir));
    if (!db) {
      db = new SQL.Database();
      createSchema(db);
    }
    const previousGeneration = Number(getMeta(db, 'generation') ?? '0');
    options.onProgress?.({ phase: 'walk', done: 0, total: 0 });
    const walked = walkRoot(root);
    const rootIssue = walked.issues.find((i) => i.path === '');
    if (rootIssue) return fail('root_unreadable', `cannot read the root ${root}: ${rootIssue.message}; check --root`);
    options.onProgress?.({ phase: 'walk', done: walked.files.length, total: walked.files.length });
    const old = oldFiles(db);
    const byRevision = new Map<string, OldFile>();
    for (const [, f] of old) if (f.revision && f.extractor && !f.excluded) byRevision.set(`${f.revision}|${f.extractor}`, f);
    const writer = new StoreWriter(db);
    const rootBuf = Buffer.from(root);
    let parsed = 0;
    let reused = 0;
    let changed = false;
    let ftsInserted = 0;
    const seen = new Set<string>();
    const toRemove: number[] = [];
    const unsearched: Record<string, number> = { walk_error: walked.issues.length, read_error: 0, fact_limit: 0 };
    const queue: { file: WalkedFile; bytes: Buffer; revision: string; lang: ReturnType<typeof languageOf>; extractor: string; replaces?: number }[] = [];
    const mtimeOf = (f: WalkedFile) => f.mtimeNs.toString();
    db.exec('BEGIN');
    for (const file of walked.files) {
      seen.add(file.path);
      const lang = languageOf(file.path);
      const extractor = extractorId(lang, EXTRACTION_VERSION);
      const prev = old.get(file.path);
      if (prev && prev.size === file.size && prev.mtime === mtimeOf(file) && prev.ino === file.ino && (prev.excluded || prev.extractor === extractor)) continue;
      const base: Omit<FileRecord, 'revision' | 'excluded' | 'parse' | 'extractor' | 'lines'> = {
        path: file.path, lang, tags: sourceTags(file.path), size: file.size, mtime: mtimeOf(file), ino: file.ino, factLimited: false,
      };
      if (file.symlink || file.size > FILE_MAX_BYTES) {
        if (prev) toRemove.push(prev.id);
        writer.addFile({ ...base, revision: null, extractor: null, excluded: file.symlink ? 'symlink' : 'too_large', parse: 'none', lines: 0 });
        changed = true;
        continue;
      }
      const read = readBounded(Buffer.concat([rootBuf, Buffer.from('/'), file.raw]));
      if (read.gone) {
        seen.delete(file.path);
        continue;
      }
      if (!read.bytes) {
        unsearched.read_error++;
        if (prev) toRemove.push(prev.id);
        writer.addFile({ ...base, revision: null, extractor: null, excluded: 'read_error', parse: 'none', lines: 0 });
        changed = true;
        continue;
      }
      const bytes = read.bytes;
      const revision = createHash('sha256').update(bytes).digest('hex');
      if (prev && prev.revision === revision && prev.extractor === extractor && !prev.excluded) {
        writer.updateStat(prev.id, bytes.length, mtimeOf(file), file.ino);
        changed = true;
        continue;
      }
      if (prev) toRemove.push(prev.id);
      changed = true;
      if (bytes.length > FILE_MAX_BYTES || bytes.includes(0)) {
        writer.addFile({ ...base, size: bytes.length, revision, extractor: null, excluded: bytes.length > FILE_MAX_BYTES ? 'too_large' : 'binary', parse: 'none', lines: 0 });
        continue;
      }
      queue.push({ file, bytes, revision, lang, extractor });
    }
    for (const [p, f] of old) if (!seen.has(p)) { toRemove.push(f.id); changed = true; }
    // Remove replaced files first so paths are free; facts of a same-revision donor are
    // copied before its row disappears.
    const donors = new Map<number, OldFile>();
    queue.forEach((item, index) => {
      const donor = byRevision.get(`${item.revision}|${item.extractor}`);
      if (donor !== undefined) donors.set(index, donor);
    });
    extractor = queue.length - donors.size > 8 ? createExtractor(options.parallelism) : createExtractor(1);
    const staged: { index: number; fileId: number }[] = [];
    for (let i = 0; i < queue.length; i += EXTRACTION_BATCH) {
      const batch = queue.slice(i, i + EXTRACTION_BATCH);
      const results = await Promise.all(batch.map((item, k) => (donors.has(i + k) ? Promise.resolve(undefined) : extractor!.extract(item.lang, item.bytes))));
      batch.forEach((item, k) => {
        const x = results[k];
        const rec: FileRecord = {
          path: `\u0000staging:${i + k}`, lang: item.lang, tags: sourceTags(item.file.path), size: item.bytes.length,
          mtime: mtimeOf(item.file), ino: item.file.ino, revision: item.revision, extractor: item.extractor, excluded: null,
          parse: x ? x.parse : donors.get(i + k)!.parse, factLimited: x ? x.factLimited : donors.get(i + k)!.factLimited, lines: lineStartOffsets(item.bytes).length,
        };
        const fileId = writer.addFile(rec);
        if (x) {
          writer.addFacts(fileId, x);
          ftsInserted += x.regions.length;
          if (x.factLimited) unsearched.fact_limit++;
          parsed++;
        } else {
          const donor = donors.get(i + k)!.id;
          if (donors.get(i + k)!.factLimited) unsearched.fact_limit++;
          writer.copyFacts(donor, fileId);
          for (const r of writer.regionSpans(donor)) {
            const body = item.bytes.subarray(r.start, r.end).toString('utf8');
            writer.addRegion(fileId, { start: r.start, end: r.end, startLine: r.sl, endLine: r.el, symbol: r.symbol, body, idents: identifierExpansions(body, r.symbol) });
            ftsInserted++;
          }
          reused++;
        }
        staged.push({ index: i + k, fileId });
      });
      options.onProgress?.({ phase: 'extract', done: Math.min(i + EXTRACTION_BATCH, queue.length), total: queue.length });
    }
    for (const id of toRemove) writer.removeFile(id);
    for (const s of staged) db.run('UPDATE file SET path = ? WHERE id = ?', [queue[s.index].file.path, s.fileId]);
    writer.free();
    if (!changed && previousGeneration > 0) {
      db.exec('ROLLBACK');
      return ok(report(db, previousGeneration, false, { parsed, reused, removed: 0, unsearched, started }));
    }
    const ftsDocs = Number(getMeta(db, 'fts_docs') ?? '0') + ftsInserted;
    setMeta(db, 'fts_docs', String(ftsDocs));
    const generation = previousGeneration + 1;
    setMeta(db, 'generation', String(generation));
    setMeta(db, 'root', root);
    setMeta(db, 'published_at', new Date().toISOString());
    setMeta(db, 'walk_errors', String(unsearched.walk_error));
    db.exec('COMMIT');
    const live = Number(allRows(db, 'SELECT count(*) FROM region')[0][0]);
    if (ftsDocs > 0 && (ftsDocs - live) / ftsDocs > FTS_DEAD_REBUILD_FRACTION) rebuildFts(db, root);
    options.onProgress?.({ phase: 'publish', done: 0, total: 1 });
    publishDatabase(cacheDir, db.export());
    return ok(report(db, generation, true, { parsed, reused, removed: toRemove.length, unsearched, started }));
  } catch (err) {
    return fail('cache_unwritable', `indexing failed, the previous generation stays published: ${(err as Error).message}`);
  } finally {
    db?.close();
    await extractor?.close();
    lock.release();
  }
}

/** Rebuild the contentless FTS table from the live regions' bytes, dropping dead documents. */
function rebuildFts(db: Database, root: string): void {
  db.exec('BEGIN; DROP TABLE fts;');
  db.exec(FTS_DDL);
  const insert = db.prepare('INSERT INTO fts(docid, body, idents) VALUES (?,?,?)');
  let docs = 0;
  for (const [fileId, p] of allRows(db, 'SELECT id, path FROM file WHERE excluded IS NULL')) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(Buffer.concat([Buffer.from(root), Buffer.from('/'), percentDecode(String(p))]));
    } catch {
      continue;
    }
    for (const [id, start, end, symbol] of allRows(db, 'SELECT id, start, end, symbol FROM region WHERE file = ?', [Number(fileId)])) {
      const body = bytes.subarray(Number(start), Number(end)).toString('utf8');
      insert.run([Number(id), body, identifierExpansions(body, symbol == null ? null : String(symbol))]);
      docs++;
    }
  }
  insert.free();
  setMeta(db, 'fts_docs', String(docs));
  db.exec('COMMIT');
}

function report(db: Database, generation: number, published: boolean, x: { parsed: number; reused: number; removed: number; unsearched: Record<string, number>; started: number }): ReconcileReport {
  const excluded: Record<string, number> = {};
  for (const [reason, n] of allRows(db, 'SELECT excluded, count(*) FROM file WHERE excluded IS NOT NULL GROUP BY excluded')) excluded[String(reason)] = Number(n);
  const [files, bytes] = allRows(db, 'SELECT count(*), coalesce(sum(size), 0) FROM file WHERE excluded IS NULL')[0];
  const parseFailures = Number(allRows(db, "SELECT count(*) FROM file WHERE parse IN ('failed', 'partial')")[0][0]);
  return {
    generation, published, files: Number(files), parsed: x.parsed, reused: x.reused, removed: x.removed, excluded,
    parseFailures, unsearched: x.unsearched, sourceBytes: Number(bytes), durationMs: Date.now() - x.started,
  };
}
