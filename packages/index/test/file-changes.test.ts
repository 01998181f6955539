// A reader of a new generation starts from the file table of a reader of an earlier one and
// reads only the rows the journal says changed (store/file-changes.ts); it must hold
// exactly the rows a reader reading the whole table holds.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_CHANGE_GENERATIONS_KEPT, IndexReader, reconcile, type FileTable, type IndexedFile } from '../src';
import Database from 'better-sqlite3';
import { pathWordsOf } from '@trufflepig/rank';
import { Fixture } from './helpers';

async function openWith(fx: Fixture, previous?: FileTable): Promise<IndexReader> {
  const r = await IndexReader.open(fx.cache, fx.root, previous ? { previous } : {});
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** The file table a reader reading every row holds now. */
async function wholeTable(fx: Fixture): Promise<IndexedFile[]> {
  const reader = await openWith(fx);
  try {
    return reader.files();
  } finally {
    reader.close();
  }
}

/** A file row no index holds: a reader that shows it took its rows from the previous table. */
const MARKER: IndexedFile = {
  id: 1_000_000,
  path: 'zz/marker.txt',
  lang: 'text',
  tags: [],
  size: 1,
  revision: null,
  excluded: null,
  parse: 'none',
  factLimited: false,
  lines: 1,
};

function withMarker(table: FileTable): FileTable {
  return { ...table, files: [...table.files, MARKER] };
}

/** A root indexed twice (its journal started), and its reader's table with MARKER added. */
async function journaledFixture(label: string): Promise<{ fx: Fixture; table: FileTable }> {
  const fx = new Fixture(label, { 'a.ts': 'export const a = 1;\n' });
  await fx.index();
  fx.write({ 'a.ts': 'export const a = 2;\n' });
  await fx.index();
  const before = await openWith(fx);
  before.files();
  const table = withMarker(before.fileTable()!);
  before.close();
  return { fx, table };
}

describe('a reader derived from an earlier reader', () => {
  test('holds the rows of a whole read after edits, additions, deletions, renames and stat-only changes, generation after generation', async () => {
    const fx = new Fixture('fc-chain', {
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'docs/c.md': '# C\n',
      'bin.dat': Buffer.from([0, 1, 2]),
    });
    await fx.index();
    let previous = await openWith(fx);
    previous.files();
    const steps: (() => void)[] = [
      () => fx.write({ 'src/a.ts': 'export const a = 10;\n' }),
      () => fx.write({ 'src/new.ts': 'export const n = 1;\n', 'lib/deep/x.py': 'x = 1\n' }),
      () => fs.rmSync(path.join(fx.root, 'src/b.ts')),
      () => fs.renameSync(path.join(fx.root, 'docs'), path.join(fx.root, 'manual')),
      () => {
        const later = new Date(Date.now() + 120_000);
        fs.utimesSync(path.join(fx.root, 'src/new.ts'), later, later);
      },
      () => fx.write({ 'bin.dat': 'now text\n', 'src/a.ts': 'export const a = 11;\n' }),
    ];
    for (const step of steps) {
      step();
      const report = await fx.index();
      expect(report.published).toBe(true);
      const derived = await openWith(fx, previous.fileTable());
      expect(derived.files()).toEqual(await wholeTable(fx));
      previous.close();
      previous = derived;
    }
    previous.close();
  });

  test('looks rows up by id and by path, lowercases paths and counts coverage as a whole read does, generation after generation', async () => {
    const fx = new Fixture('fc-lookups', {
      'Src/Alpha.TS': 'export const a = 1;\n',
      'src/beta.ts': 'export const b = 2;\n',
      'docs/Guide.md': '# Guide\n',
    });
    await fx.index();
    let previous = await openWith(fx);
    const seen = new Map<number, string>();
    const steps: (() => void)[] = [
      () => fx.write({ 'Src/Alpha.TS': 'export const a = 10;\n' }),
      () => fx.write({ 'src/New.ts': 'export const n = 1;\n' }),
      () => fs.rmSync(path.join(fx.root, 'src/beta.ts')),
      () => fs.renameSync(path.join(fx.root, 'docs'), path.join(fx.root, 'Manual')),
      () => fx.write({ 'src/beta.ts': 'export const b = 3;\n' }),
      // Counted apart by coverage: a binary file, a file that does not parse.
      () => fx.write({ 'src/beta.ts': Buffer.from([0, 1, 2, 0]), 'src/broken.ts': 'export const = = ;\n' }),
      () => fx.write({ 'src/beta.ts': 'export const b = 4;\n', 'src/broken.ts': 'export const c = 1;\n' }),
    ];
    for (const [n, step] of steps.entries()) {
      // Every other reader builds its path lookup and lowercased paths before handing on.
      for (const f of previous.files()) seen.set(f.id, f.path);
      if (n % 2 === 0) {
        previous.fileByPath('src/beta.ts');
        previous.lowerPaths();
        previous.coverage();
      }
      step();
      expect((await fx.index()).published).toBe(true);
      const derived = await openWith(fx, previous.fileTable());
      const whole = await openWith(fx);
      try {
        const files = whole.files();
        expect(derived.files()).toEqual(files);
        for (const f of files) {
          expect(derived.file(f.id)).toEqual(f);
          expect(derived.fileByPath(f.path)).toEqual(f);
        }
        // Rows gone since (deleted, renamed away) are gone from both lookups.
        for (const [id, p] of seen) {
          if (!files.some((f) => f.id === id)) expect(derived.file(id)).toBeUndefined();
          if (!files.some((f) => f.path === p)) expect(derived.fileByPath(p)).toBeUndefined();
        }
        expect(derived.lowerPaths()).toEqual(whole.lowerPaths());
        expect(derived.coverage()).toEqual(whole.coverage());
      } finally {
        whole.close();
      }
      previous.close();
      previous = derived;
    }
    previous.close();
  });

  test('reads only the changed rows: an unchanged row of the previous table is kept as it was', async () => {
    const fx = new Fixture('fc-kept', { 'a.ts': 'export const a = 1;\n' });
    await fx.index();
    fx.write({ 'a.ts': 'export const a = 2;\n' });
    await fx.index(); // the first journaled generation
    const first = await openWith(fx);
    first.files();
    fx.write({ 'b.ts': 'export const b = 1;\n' });
    await fx.index();
    const derived = await openWith(fx, withMarker(first.fileTable()!));
    expect(derived.files().map((f) => f.path)).toEqual(['a.ts', 'b.ts', MARKER.path]);
    first.close();
    derived.close();
  });

  test('reads every row when the previous table is of another index file, of a later generation, or older than the journal', async () => {
    const { fx, table } = await journaledFixture('fc-other');

    // The same cache directory rebuilt from nothing: a new index file, a new identity.
    fs.rmSync(fx.cache, { recursive: true });
    fs.mkdirSync(fx.cache);
    await fx.index();
    fx.write({ 'b.ts': 'export const b = 1;\n' });
    await fx.index();
    const rebuilt = await openWith(fx, table);
    expect(rebuilt.files().map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    rebuilt.files();
    const newer = rebuilt.fileTable()!;

    // A table of a later generation than the reader's.
    const later = await openWith(fx, withMarker({ ...newer, generation: newer.generation + 5 }));
    expect(later.files().map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    later.close();

    // A table older than the journal keeps.
    for (let i = 0; i < FILE_CHANGE_GENERATIONS_KEPT + 1; i++) {
      fx.write({ 'a.ts': `export const a = ${i + 100};\n` });
      const out = await reconcile(fx.root, { cacheDir: fx.cache, parallelism: 1, changed: ['a.ts'] });
      expect(out.ok).toBe(true);
    }
    const old = await openWith(fx, withMarker(newer));
    expect(old.files().map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    old.close();
    rebuilt.close();
  });

  test('reads every row after a generation the journal did not record (a writer of a release before it)', async () => {
    const { fx, table } = await journaledFixture('fc-gap');
    // What such a writer does: a new row and a new generation, no journal.
    const db = new Database(path.join(fx.cache, 'index.sqlite'));
    db.prepare(
      "INSERT INTO file(id, path, lang, tags, size, mtime, ino, revision, excluded, parse, lines) VALUES (999, 'b.ts', 'typescript', '', 1, '0', 0, NULL, NULL, 'none', 1)",
    ).run();
    db.prepare("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'").run();
    db.close();
    const after = await openWith(fx, table);
    expect(after.files().map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    after.files();
    const gapTable = withMarker(after.fileTable()!);
    after.close();
    // The next journaling publication starts the journal over rather than skip the gap.
    fx.write({ 'c.ts': 'export const c = 3;\n' });
    await fx.index();
    const next = await openWith(fx, gapTable);
    expect(next.files().map((f) => f.path)).toEqual(['a.ts', 'c.ts']);
    next.close();
  });

  test('the filename words a reader met are handed on by path, and match what the path says', async () => {
    const fx = new Fixture('fc-words', { 'src/tokenBucket.ts': 'export const a = 1;\n', 'lib/x_y.py': 'x = 1\n' });
    await fx.index();
    const first = await openWith(fx);
    first.files().forEach((_, i) => first.pathWordsAt(i));
    fx.write({ 'src/new_file.rs': 'fn f() {}\n' });
    fs.rmSync(path.join(fx.root, 'lib/x_y.py'));
    await fx.index();
    const second = await openWith(fx, first.fileTable());
    const files = second.files();
    expect(files.map((_, i) => second.pathWordsAt(i))).toEqual(files.map((f) => pathWordsOf(f.path)));
    expect(second.fileTable()!.pathWords).toBe(first.fileTable()!.pathWords);
    first.close();
    second.close();
  });

  test('the path screen is handed on while no path changes, and made anew when one does', async () => {
    const fx = new Fixture('fc-screen', { 'src/bucket.ts': 'export const a = 1;\n', 'lib/x_y.py': 'x = 1\n' });
    await fx.index();
    fx.write({ 'lib/x_y.py': 'x = 2\n' });
    await fx.index(); // the second generation starts the journal of changed rows
    const first = await openWith(fx);
    expect(first.pathsHolding(['bucket']).map((i) => first.lowerPaths()[i])).toEqual(['src/bucket.ts']);
    fx.write({ 'src/bucket.ts': 'export const a = 2;\n' });
    await fx.index();
    const edited = await openWith(fx, first.fileTable());
    expect(edited.pathsHolding(['bucket']).map((i) => edited.lowerPaths()[i])).toEqual(['src/bucket.ts']);
    expect(edited.fileTable()!.pathScreen).toBe(first.fileTable()!.pathScreen);
    fx.write({ 'src/bucket_list.rs': 'fn f() {}\n' });
    await fx.index();
    const added = await openWith(fx, edited.fileTable());
    added.files();
    expect(added.fileTable()!.pathScreen).toBeUndefined();
    expect(added.pathsHolding(['bucket']).map((i) => added.lowerPaths()[i])).toEqual([
      'src/bucket.ts',
      'src/bucket_list.rs',
    ]);
    for (const r of [first, edited, added]) r.close();
  });

  test('a reader of the same generation as the previous table takes its rows as they are', async () => {
    const fx = new Fixture('fc-first', { 'a.ts': 'export const a = 1;\n' });
    await fx.index();
    const reader = await openWith(fx);
    reader.files();
    const table = reader.fileTable();
    expect(table).toBeDefined();
    const again = await openWith(fx, withMarker(table!));
    // Same generation, nothing changed since: the previous rows as they are.
    expect(again.files().map((f) => f.path)).toEqual(['a.ts', MARKER.path]);
    again.close();
    reader.close();
  });
});
