import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_MAX_BYTES, IndexReader, publishedStamp, reconcile } from '../src';
import { decodeIdList } from '../src/store/id-list';
import { publishStaging, stagingPath } from '../src/store/publish';
import { Fixture, tempDir } from './helpers';

/** A cache directory's entries without SQLite's WAL and shared-memory files (present while any connection is open). */
function sqliteFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => !n.endsWith('-wal') && !n.endsWith('-shm'))
    .sort();
}

const LIB = 'pub struct TokenBucket { tokens: u32 }\nimpl TokenBucket { pub fn refill(&mut self) {} }\n';
const MAIN = 'fn main() { let b = TokenBucket::new(); b.refill(); }\n';

describe('reconcile', () => {
  it('publishes generation 1, then an unchanged reindex publishes and parses nothing', async () => {
    const fx = new Fixture('rec-unchanged', { 'src/lib.rs': LIB, 'src/main.rs': MAIN, 'README.md': '# Buckets\n' });
    const first = await fx.index();
    expect(first).toMatchObject({ generation: 1, published: true, files: 3, parsed: 3, reused: 0 });
    const again = await fx.index();
    expect(again).toMatchObject({ generation: 1, published: false, parsed: 0, reused: 0, files: 3 });
  });

  it('reparses nothing after a touch and exactly one file after an edit', async () => {
    const fx = new Fixture('rec-edit', { 'src/lib.rs': LIB, 'src/main.rs': MAIN });
    await fx.index();
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(path.join(fx.root, 'src/main.rs'), later, later);
    expect(await fx.index()).toMatchObject({ parsed: 0, reused: 0 });
    fx.write({ 'src/main.rs': MAIN.replace('b.refill();', 'b.refill(); b.drain();') });
    const edited = await fx.index();
    expect(edited).toMatchObject({ parsed: 1, reused: 0, removed: 1 });
    expect(await fx.paths('sym:drain')).toEqual(['src/main.rs']);
  });

  it('reuses facts of a renamed file and keeps its parse status', async () => {
    const fx = new Fixture('rec-rename', { 'src/lib.rs': LIB, 'src/broken.rs': 'fn ok() {}\nfn broken( {\n' });
    const first = await fx.index();
    expect(first.parseFailures).toBe(1);
    fs.renameSync(path.join(fx.root, 'src/lib.rs'), path.join(fx.root, 'src/bucket.rs'));
    fs.renameSync(path.join(fx.root, 'src/broken.rs'), path.join(fx.root, 'src/still_broken.rs'));
    const renamed = await fx.index();
    expect(renamed).toMatchObject({ parsed: 0, reused: 2, removed: 2, parseFailures: 1 });
    const hits = (await fx.search('sym:TokenBucket::refill')).hits;
    expect(hits.map((h) => [h.path, h.kind])).toEqual([['src/bucket.rs', 'method']]);
    const bytes = fs.readFileSync(path.join(fx.root, 'src/bucket.rs'));
    expect(bytes.subarray(hits[0].start, hits[0].end).toString()).toBe('pub fn refill(&mut self) {}');
    expect(await fx.paths('refill')).toEqual(['src/bucket.rs']);
  });

  it('drops deleted files from every lane', async () => {
    const fx = new Fixture('rec-delete', { 'src/lib.rs': LIB, 'src/gone.rs': 'fn vanishing_act() {}\n' });
    await fx.index();
    expect(await fx.paths('vanishing_act')).toEqual(['src/gone.rs']);
    fs.unlinkSync(path.join(fx.root, 'src/gone.rs'));
    expect(await fx.index()).toMatchObject({ removed: 1, files: 1 });
    expect(await fx.paths('vanishing_act')).toEqual([]);
    expect(await fx.paths('sym:vanishing_act')).toEqual([]);
    expect(await fx.paths('kind:file gone')).toEqual([]);
  });

  it('keeps binary and oversized files as excluded records findable by name', async () => {
    const fx = new Fixture('rec-excluded', {
      'assets/logo.bin': Buffer.from([0x89, 0x50, 0x00, 0x01]),
      'data/huge_dump.txt': Buffer.alloc(FILE_MAX_BYTES + 1, 0x61),
      'src/lib.rs': LIB,
    });
    const rep = await fx.index();
    expect(rep.excluded).toEqual({ binary: 1, too_large: 1 });
    expect(rep.files).toBe(1);
    expect(await fx.paths('kind:file logo')).toEqual(['assets/logo.bin']);
    expect(await fx.paths('huge_dump')).toEqual(['data/huge_dump.txt']);
    const reader = await fx.open();
    try {
      expect(reader.coverage()).toMatchObject({ indexed_files: 1, excluded: { binary: 1, too_large: 1 } });
      expect(reader.fileByPath('assets/logo.bin')!.excluded).toBe('binary');
    } finally {
      reader.close();
    }
    // A binary file is never a `re:` or literal hit.
    expect(await fx.paths('re:P')).toEqual([]);
  });

  it('survives a file deleted and a file replaced by a directory between walk and read', async () => {
    const fx = new Fixture('rec-race', { 'a.rs': 'fn a() {}\n', 'b.rs': 'fn b() {}\n', 'c.rs': 'fn c() {}\n' });
    const out = await reconcile(fx.root, {
      cacheDir: fx.cache,
      parallelism: 1,
      onProgress: (p) => {
        if (p.phase !== 'walk' || p.total === 0) return;
        fs.unlinkSync(path.join(fx.root, 'a.rs'));
        fs.unlinkSync(path.join(fx.root, 'b.rs'));
        fs.mkdirSync(path.join(fx.root, 'b.rs'));
      },
    });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.unsearched.read_error).toBe(1);
    const reader = await fx.open();
    try {
      expect(reader.files().map((f) => [f.path, f.excluded])).toEqual([
        ['b.rs', 'read_error'],
        ['c.rs', null],
      ]);
      expect(reader.coverage().unsearched).toEqual({ read_error: 1 });
    } finally {
      reader.close();
    }
  });

  it('fails with root_unreadable instead of publishing an empty index for a missing root', async () => {
    const fx = new Fixture('rec-missing', { 'a.rs': 'fn a() {}\n' });
    await fx.index();
    const out = await reconcile(path.join(fx.root, 'nope'), { cacheDir: fx.cache, parallelism: 1 });
    expect(out.ok ? 'ok' : out.error.code).toBe('root_unreadable');
    expect(await fx.paths('kind:file')).toEqual(['a.rs']);
  });

  it('keeps results exact across many edits (dead FTS documents never match new regions)', async () => {
    const filler: Record<string, string> = {};
    for (let i = 0; i < 20; i++) filler[`keep/f${i}.txt`] = `alpha${i} beta gamma\n`;
    const fx = new Fixture('rec-fts', { ...filler, 'b.txt': 'zebrafish\n' });
    await fx.index();
    fx.write({ 'b.txt': 'quokka\n' });
    await fx.index();
    fs.unlinkSync(path.join(fx.root, 'b.txt'));
    await fx.index();
    fx.write({ 'c.txt': 'wombat\n' });
    await fx.index();
    expect(await fx.paths('zebrafish')).toEqual([]);
    expect(await fx.paths('quokka')).toEqual([]);
    expect(await fx.paths('wombat')).toEqual(['c.txt']);
    // Enough edits to pass the dead-document threshold: the rebuild keeps every live word.
    for (let round = 0; round < 12; round++) {
      fx.write({
        'c.txt': `marker${'abcdefghijkl'[round]}word\n`,
        [`keep/f${round}.txt`]: `alpha${round} beta gamma edited${'abcdefghijkl'[round]}\n`,
      });
      await fx.index();
    }
    expect(await fx.paths('markerlword')).toEqual(['c.txt']);
    expect(await fx.paths('markerkword')).toEqual([]);
    expect(await fx.paths('editedd')).toEqual(['keep/f3.txt']);
    expect((await fx.paths('beta')).length).toBe(20);
  });
});

describe('stored counters', () => {
  it('keep regions_live, names_next and the per-file name lists equal to what the tables hold across edits, renames and removals', async () => {
    const fx = new Fixture('counters', {
      'a.rs': 'fn alpha() { beta(); }\n',
      'b.rs': 'fn beta() {}\n',
      'c/d.rs': 'fn gamma() { alpha(); }\n',
    });
    const check = async () => {
      const r = await fx.open();
      try {
        const meta = (k: string) =>
          Number(r.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(k) as string);
        expect(meta('regions_live')).toBe(r.db.prepare('SELECT count(*) FROM region').pluck().get());
        expect(meta('names_next')).toBe(Number(r.db.prepare('SELECT max(id) FROM name').pluck().get()) + 1);
        // Each file's name list is exactly the names of its use rows (removal and copies read it).
        const listed = (r.db.prepare('SELECT file, ids FROM use_names').raw().all() as [number, Buffer][])
          .flatMap(([file, ids]) => decodeIdList(ids).map((id) => `${id}@${file}`))
          .sort();
        const stored = (r.db.prepare('SELECT name, file FROM use').raw().all() as [number, number][])
          .map(([id, file]) => `${id}@${file}`)
          .sort();
        expect(listed).toEqual(stored);
        const live = new Set(r.db.prepare('SELECT id FROM file').pluck().all() as number[]);
        expect(stored.filter((k) => !live.has(Number(k.split('@')[1])))).toEqual([]);
        // Every definition has its key row, and no key row outlives its definition.
        expect(r.db.prepare('SELECT count(*) FROM def_key').pluck().get()).toBe(
          r.db.prepare('SELECT count(*) FROM def d JOIN def_key k ON k.def = d.id').pluck().get(),
        );
        expect(r.db.prepare('SELECT count(*) FROM def_key').pluck().get()).toBe(
          r.db.prepare('SELECT count(*) FROM def').pluck().get(),
        );
      } finally {
        r.close();
      }
    };
    await fx.index();
    await check();
    // e.rs and f.rs share their bytes: one is extracted, the other a copy of its facts.
    fx.write({
      'a.rs': 'fn alpha() { beta(); delta(); }\nfn epsilon() {}\n',
      'e.rs': 'fn zeta() { gamma(); }\n',
      'f.rs': 'fn zeta() { gamma(); }\n',
    });
    fs.renameSync(path.join(fx.root, 'b.rs'), path.join(fx.root, 'b2.rs'));
    fs.rmSync(path.join(fx.root, 'c'), { recursive: true });
    await fx.index();
    await check();
    const beta = await fx.paths('sym:beta');
    expect(beta[0]).toBe('b2.rs');
    expect(beta).not.toContain('b.rs');
    expect(await fx.paths('sym:gamma')).not.toContain('c/d.rs');
    // A new file with a removed file's bytes: its facts are copied from the file going away.
    fx.write({ 'g.rs': 'fn zeta() { gamma(); }\n' });
    fs.rmSync(path.join(fx.root, 'e.rs'));
    await fx.index();
    await check();
    expect((await fx.paths('sym:zeta')).sort()).toEqual(['f.rs', 'g.rs']);
    expect((await fx.paths('gamma')).sort()).toEqual(['f.rs', 'g.rs']);
  });
});

describe('publication', () => {
  it('publishes a later generation in place, one transaction, and leaves no staging file', async () => {
    const fx = new Fixture('pub-atomic', { 'a.rs': 'fn a() {}\n' });
    await fx.index();
    const file = path.join(fx.cache, 'index.sqlite');
    const before = fs.statSync(file).ino;
    const stamp = publishedStamp(file);
    expect(stamp).toBe(`${before}:1`);
    fx.write({ 'a.rs': 'fn a2() {}\n' });
    expect(await fx.index()).toMatchObject({ generation: 2 });
    expect(sqliteFiles(fx.cache)).toEqual(['index.sqlite']);
    // Written in place (the first index was renamed into place from a staging file).
    expect(fs.statSync(file).ino).toBe(before);
    expect(publishedStamp(file)).toBe(`${before}:2`);
    expect(await fx.paths('sym:a2')).toEqual(['a.rs']);
  });

  it('renames a rebuilt index into place with no WAL of the old file beside it', async () => {
    const fx = new Fixture('pub-rebuild', { 'a.rs': 'fn old_name() {}\n' });
    await fx.index();
    const file = path.join(fx.cache, 'index.sqlite');
    const before = fs.statSync(file).ino;
    // An index the engine cannot read is rebuilt from nothing.
    fs.writeFileSync(file, 'not a database');
    fs.writeFileSync(`${file}-wal`, 'a WAL of another file');
    fx.write({ 'a.rs': 'fn new_name() {}\n' });
    expect(await fx.index()).toMatchObject({ published: true });
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(fs.existsSync(`${file}-wal`) && fs.readFileSync(`${file}-wal`, 'utf8') === 'a WAL of another file').toBe(
      false,
    );
    expect(await fx.paths('sym:new_name')).toEqual(['a.rs']);
  });

  it('serves the previous generation when a reader opened it before a publication', async () => {
    const fx = new Fixture('pub-reader', { 'a.rs': 'fn first_name() {}\n' });
    await fx.index();
    const old = await fx.open();
    try {
      fx.write({ 'a.rs': 'fn second_name() {}\n' });
      await fx.index();
      expect(old.generation).toBe(1);
      expect(old.files()[0].revision).not.toBeNull();
      expect(await fx.paths('sym:second_name')).toEqual(['a.rs']);
    } finally {
      old.close();
    }
  });

  it('takes over a stale lock of a dead pid and removes its staging file', async () => {
    const fx = new Fixture('pub-stale', { 'a.rs': 'fn a() {}\n' });
    const dead = deadPid();
    fs.writeFileSync(path.join(fx.cache, 'index.lock'), String(dead));
    fs.writeFileSync(path.join(fx.cache, `index.sqlite.staging-${dead}-1`), 'partial');
    expect(await fx.index()).toMatchObject({ generation: 1, published: true });
    expect(sqliteFiles(fx.cache)).toEqual(['index.sqlite']);
  });

  it('answers index_locked while a live process holds the lock, and for a second caller in the same process', async () => {
    const fx = new Fixture('pub-live', { 'a.rs': 'fn a() {}\n' });
    const { spawn } = await import('node:child_process');
    const holder = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(fx.cache, 'index.lock'), String(holder.pid));
      const out = await reconcile(fx.root, { cacheDir: fx.cache, parallelism: 1 });
      expect(out.ok ? 'ok' : out.error.code).toBe('index_locked');
      expect(out.ok ? '' : out.error.message).toContain(`another process (pid ${holder.pid}) is indexing this root`);
      expect(fs.existsSync(path.join(fx.cache, 'index.sqlite'))).toBe(false);
    } finally {
      holder.kill();
    }
    fs.unlinkSync(path.join(fx.cache, 'index.lock'));
    const both = await Promise.all([0, 1].map(() => reconcile(fx.root, { cacheDir: fx.cache, parallelism: 1 })));
    expect(both.map((o) => (o.ok ? 'ok' : o.error.code)).sort()).toEqual(['index_locked', 'ok']);
    const locked = both.find((o) => !o.ok);
    expect(locked?.ok ? '' : locked?.error.message).toContain(`this process (pid ${process.pid}) is already indexing`);
    expect(fs.existsSync(path.join(fx.cache, 'index.lock'))).toBe(false);
  });

  it('leaves the previous generation readable when a publication fails', async () => {
    const fx = new Fixture('pub-fail', { 'a.rs': 'fn kept_name() {}\n' });
    await fx.index();
    fx.write({ 'a.rs': 'fn lost_name() {}\n' });
    const out = await reconcile(fx.root, {
      cacheDir: fx.cache,
      parallelism: 1,
      onProgress: (p) => {
        if (p.phase === 'publish') throw new Error('disk full (simulated by the progress callback)');
      },
    });
    expect(out.ok ? 'ok' : out.error.code).toBe('cache_unwritable');
    const reader = await IndexReader.open(fx.cache, fx.root);
    expect(reader.ok && reader.value.generation).toBe(1);
    if (reader.ok) reader.value.close();
    expect(await fx.paths('sym:kept_name')).toEqual(['a.rs']);
    // No staging file is left; the failure itself is recorded for readers (store/health.ts).
    expect(sqliteFiles(fx.cache)).toEqual(['index.sqlite', 'reconcile-failure.json']);
  });

  it('a writer killed with SIGKILL inside its write transaction leaves the previous generation, and the next reconcile publishes', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++)
      files[`d${i % 10}/f${i}.ts`] = `export function before_${i}(x: number) { return x + ${i}; }\n`;
    const fx = new Fixture('pub-kill', files);
    expect(await fx.index()).toMatchObject({ generation: 1 });
    const edited: Record<string, string> = {};
    for (let i = 0; i < 300; i++)
      edited[`d${i % 10}/f${i}.ts`] = `export function after_${i}(x: number) { return x - ${i}; }\n`;
    fx.write(edited);
    // The child kills itself at the last moment before COMMIT: every row of generation 2 written, none committed.
    const script = `require(${JSON.stringify(path.join(__dirname, '..', 'dist', 'index.js'))}).reconcile(${JSON.stringify(fx.root)}, {
      cacheDir: ${JSON.stringify(fx.cache)}, parallelism: 1,
      onProgress: (p) => { if (p.phase === 'publish') process.kill(process.pid, 'SIGKILL'); },
    }).then(() => process.exit(3));`;
    const { spawnSync } = await import('node:child_process');
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(child.signal).toBe('SIGKILL');
    const old = await fx.open();
    try {
      expect(old.generation).toBe(1);
    } finally {
      old.close();
    }
    expect(await fx.paths('sym:before_7')).toEqual(['d7/f7.ts']);
    expect(await fx.paths('sym:after_7')).toEqual([]);
    // The dead writer's lock is taken over; generation 2 is what the tree holds.
    expect(await fx.index()).toMatchObject({ generation: 2, published: true });
    expect(await fx.paths('sym:after_7')).toEqual(['d7/f7.ts']);
    expect(await fx.paths('sym:before_7')).toEqual([]);
  });

  it('fails without rebuilding when the published index is busy, and keeps its generations', async () => {
    const fx = new Fixture('pub-busy', { 'a.rs': 'fn kept_busy() {}\n' });
    expect(await fx.index()).toMatchObject({ generation: 1 });
    fx.write({ 'a.rs': 'fn next_busy() {}\n' });
    const file = path.join(fx.cache, 'index.sqlite');
    // Another process holds the database exclusively (as a crashed tool or a backup might).
    const script = `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))});
const db = new D(${JSON.stringify(file)});
db.pragma('locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE');
process.stdout.write('locked\\n'); setTimeout(() => {}, 60000);`;
    const { spawn } = await import('node:child_process');
    const holder = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
      const out = await reconcile(fx.root, { cacheDir: fx.cache, parallelism: 1 });
      expect(out.ok ? 'ok' : out.error.code).toBe('reconcile_failed');
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    // Not rebuilt from nothing: generation 1 is still there, and the next one is 2.
    const r = await fx.open();
    expect(r.generation).toBe(1);
    r.close();
    expect(await fx.index()).toMatchObject({ generation: 2 });
    expect(await fx.paths('sym:next_busy')).toEqual(['a.rs']);
  }, 30_000);

  it('keeps the new index ready when the rename over the index fails, for the next writer to put in place', async () => {
    const fx = new Fixture('pub-rename', { 'a.rs': 'pub fn ready_one() {}\n' });
    fs.mkdirSync(path.join(fx.cache, 'index.sqlite', 'blocker'), { recursive: true });
    const staging = stagingPath(fx.cache);
    const elsewhere = tempDir('pub-rename-built');
    const built = await reconcile(fx.root, { cacheDir: elsewhere, parallelism: 1 });
    if (!built.ok) throw new Error(built.error.message);
    fs.copyFileSync(path.join(elsewhere, 'index.sqlite'), staging);
    expect(() => publishStaging(fx.cache, staging)).toThrow();
    // The staging file is gone, the index is complete beside the directory in the way.
    expect(fs.readdirSync(fx.cache).sort()).toEqual(['index.sqlite', 'index.sqlite.ready']);
    expect(fs.statSync(path.join(fx.cache, 'index.sqlite')).isDirectory()).toBe(true);
    fs.rmSync(path.join(fx.cache, 'index.sqlite'), { recursive: true });
    expect(await fx.index()).toMatchObject({ generation: 1, published: false });
    expect(await fx.paths('sym:ready_one')).toEqual(['a.rs']);
  });

  it('answers index_warming without an index', async () => {
    const fx = new Fixture('pub-warming', { 'a.rs': 'fn a() {}\n' });
    const out = await IndexReader.open(fx.cache, fx.root);
    expect(out.ok ? 'ok' : out.error.code).toBe('index_warming');
  });
});

function deadPid(): number {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const out = spawnSync('sh', ['-c', 'echo $$']);
  return Number(out.stdout.toString().trim());
}

describe('an impossible cache directory', () => {
  const procfs = require('node:fs').existsSync('/proc/self') ? it : it.skip;
  procfs(
    'answers cache_unwritable instead of hanging (recursive mkdir loops under /proc)',
    async () => {
      const fx = new Fixture('rec-proc-cache', { 'a.rs': 'fn a() {}\n' });
      const out = await reconcile(fx.root, { cacheDir: '/proc/trufflepig-cannot-exist/cache', parallelism: 1 });
      expect(out.ok ? 'ok' : out.error.code).toBe('cache_unwritable');
    },
    10_000,
  );
});
