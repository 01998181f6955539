// A reconcile given the paths that changed (a daemon's watch events) walks only them, and
// must publish exactly what a reconcile of the whole root would: each case below is
// checked against a whole reconcile of the same tree into a cache of its own.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IndexReader, reconcile, SCOPED_WALK_MAX_PATHS, type ReconcileReport } from '../src';
import { scopeOf } from '../src/walk/scope';
import { Fixture, gitInit, tempDir } from './helpers';

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd: root,
    stdio: 'ignore',
  });

/** What a reader sees of the index: every file row but its id, and the walk's published summaries. */
async function published(cache: string, root: string): Promise<unknown> {
  const r = await IndexReader.open(cache, root);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  try {
    const files = r.value.files().map(({ id: _id, ...rest }) => rest);
    const defs = r.value
      .files()
      .map((f) => r.value.fileDefinitions(f.path).map((d) => `${d.kind} ${d.name} ${d.startLine}`));
    return { files, defs, coverage: r.value.coverage() };
  } finally {
    r.value.close();
  }
}

async function reconcileChanged(fx: Fixture, changed: readonly string[]): Promise<ReconcileReport> {
  const out = await reconcile(fx.root, { cacheDir: fx.cache, parallelism: 1, changed });
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.value;
}

/** Reconcile `changed` alone, then check the result against a whole reconcile into a fresh cache. */
async function expectSameAsWhole(fx: Fixture, changed: readonly string[], walk: 'paths' | 'root'): Promise<void> {
  const report = await reconcileChanged(fx, changed);
  expect(report.walk).toBe(walk);
  const fresh = tempDir('scoped-whole');
  const whole = await reconcile(fx.root, { cacheDir: fresh, parallelism: 1 });
  if (!whole.ok) throw new Error(whole.error.message);
  expect(whole.value.walk).toBe('root');
  expect(report.files).toBe(whole.value.files);
  expect(report.excluded).toEqual(whole.value.excluded);
  const scoped = (await published(fx.cache, fx.root)) as { coverage: { generation: number } };
  const reference = (await published(fresh, fx.root)) as { coverage: { generation: number } };
  expect({ ...scoped, coverage: { ...scoped.coverage, generation: 0 } }).toEqual({
    ...reference,
    coverage: { ...reference.coverage, generation: 0 },
  });
}

describe('scopeOf', () => {
  test('keeps the outermost of nested paths, drops trailing slashes and duplicates, sorts', () => {
    expect(scopeOf(['src/a.ts', 'lib/', 'lib/x/y.ts', 'src/a.ts', 'a b', 'a/c'])?.map(String)).toEqual([
      'a b',
      'a/c',
      'lib',
      'src/a.ts',
    ]);
  });

  test('answers undefined (walk the whole root) for what names no place precisely or changes the rules', () => {
    for (const bad of [
      [],
      [''],
      ['/etc/passwd'],
      ['src/../x'],
      ['./x'],
      ['a//b'],
      ['bad\uFFFDname'],
      ['.git/index'],
      ['sub/.gitignore'],
      ['.gitignore'],
    ])
      expect(scopeOf(bad)).toBeUndefined();
    expect(scopeOf(Array.from({ length: SCOPED_WALK_MAX_PATHS + 1 }, (_, i) => `f${i}`))).toBeUndefined();
    expect(scopeOf(Array.from({ length: SCOPED_WALK_MAX_PATHS }, (_, i) => `f${i}`))).toHaveLength(
      SCOPED_WALK_MAX_PATHS,
    );
  });
});

describe('a scoped reconcile in a Git work tree', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = new Fixture('scoped-git', {
      '.gitignore': 'build/\n*.log\n',
      'src/a.ts': 'export function alpha() { return 1; }\n',
      'src/b.ts': 'export function beta() { return 2; }\n',
      'lib/c.py': 'def gamma():\n    return 3\n',
      'notes/untracked.md': '# Notes\n',
    });
    gitInit(fx.root);
    git(fx.root, 'add', '.gitignore', 'src', 'lib');
    await fx.index();
  });

  test('an edited tracked file', async () => {
    fx.write({ 'src/a.ts': 'export function alpha2() { return 10; }\n' });
    await expectSameAsWhole(fx, ['src/a.ts'], 'paths');
    expect(await fx.paths('alpha2')).toEqual(['src/a.ts']);
  });

  test('a new untracked file, and one in a new directory', async () => {
    fx.write({ 'src/d.ts': 'export const delta = 4;\n', 'pkg/deep/e.go': 'package deep\n\nfunc Epsilon() {}\n' });
    await expectSameAsWhole(fx, ['src/d.ts', 'pkg'], 'paths');
    expect(await fx.paths('Epsilon')).toContain('pkg/deep/e.go');
  });

  test('a deleted tracked file and a deleted untracked one', async () => {
    fs.rmSync(path.join(fx.root, 'src/b.ts'));
    fs.rmSync(path.join(fx.root, 'notes/untracked.md'));
    await expectSameAsWhole(fx, ['src/b.ts', 'notes/untracked.md'], 'paths');
  });

  test('a renamed directory, named by its old and new paths', async () => {
    fs.renameSync(path.join(fx.root, 'lib'), path.join(fx.root, 'library'));
    await expectSameAsWhole(fx, ['lib', 'library'], 'paths');
  });

  test('a removed directory whose deeper paths were named too', async () => {
    fx.write({ 'tmp/x/y.ts': 'export const y = 1;\n' });
    await fx.index();
    fs.rmSync(path.join(fx.root, 'tmp'), { recursive: true });
    await expectSameAsWhole(fx, ['tmp', 'tmp/x', 'tmp/x/y.ts'], 'paths');
  });

  test('a file whose stat changed but not its bytes', async () => {
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(fx.root, 'src/a.ts'), later, later);
    await expectSameAsWhole(fx, ['src/a.ts'], 'paths');
  });

  test('an ignored file (the skip summary changes): the whole root', async () => {
    fx.write({ 'build/out.js': 'x', 'debug.log': 'y' });
    await expectSameAsWhole(fx, ['build/out.js'], 'root');
    fx.write({ 'trace.log': 'z' });
    await expectSameAsWhole(fx, ['trace.log'], 'root');
  });

  test('a new directory holding an ignored file beside listed ones: the whole root; an empty one: only it', async () => {
    fx.write({ 'more/keep.ts': 'export const keep = 1;\n', 'more/run.log': 'x' });
    await expectSameAsWhole(fx, ['more'], 'root');
    fs.mkdirSync(path.join(fx.root, 'empty'));
    await expectSameAsWhole(fx, ['empty'], 'paths');
  });

  test('an edited .gitignore: the whole root', async () => {
    fx.write({ '.gitignore': 'build/\n*.log\nnotes/\n' });
    await expectSameAsWhole(fx, ['.gitignore'], 'root');
  });

  test('an indexed file that became ignored while still there: the whole root', async () => {
    fs.mkdirSync(path.join(fx.root, '.git/info'), { recursive: true });
    fs.appendFileSync(path.join(fx.root, '.git/info/exclude'), 'notes/\n');
    await expectSameAsWhole(fx, ['notes/untracked.md'], 'root');
  });

  test('a path inside an untracked nested repository: the whole root', async () => {
    const nested = path.join(fx.root, 'vendor/nested');
    fs.mkdirSync(nested, { recursive: true });
    gitInit(nested);
    fx.write({ 'vendor/nested/n.c': 'int nested(void) { return 0; }\n' });
    await expectSameAsWhole(fx, ['vendor/nested/n.c'], 'root');
    fx.write({ 'vendor/nested/n.c': 'int nested2(void) { return 0; }\n' });
    await expectSameAsWhole(fx, ['vendor/nested/n.c'], 'root');
  });

  test('a tracked file under a never-entered directory, and an untracked one beside it', async () => {
    fx.write({ 'node_modules/dep/index.js': 'exports.dep = 1;\n' });
    git(fx.root, 'add', '-f', 'node_modules/dep/index.js');
    await fx.index();
    fx.write({ 'node_modules/dep/index.js': 'exports.dep2 = 2;\n' });
    await expectSameAsWhole(fx, ['node_modules/dep/index.js'], 'paths');
    fx.write({ 'node_modules/other/x.js': 'exports.x = 1;\n' });
    await expectSameAsWhole(fx, ['node_modules/other/x.js'], 'root');
  });

  test('a root below the top of its work tree', async () => {
    const sub = new Fixture('scoped-sub');
    gitInit(sub.root);
    const root = path.join(sub.root, 'inner');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'm.ts'), 'export const m = 1;\n');
    const inner = Object.assign(Object.create(Fixture.prototype) as Fixture, { root, cache: sub.cache });
    await inner.index();
    fs.writeFileSync(path.join(root, 'm.ts'), 'export const mu = 2;\n');
    fs.writeFileSync(path.join(root, 'n.ts'), 'export const nu = 3;\n');
    await expectSameAsWhole(inner, ['m.ts', 'n.ts'], 'paths');
  });

  test('paths that cannot form a scope, or a first index: the whole root', async () => {
    fx.write({ 'src/a.ts': 'export const changed = 1;\n' });
    await expectSameAsWhole(fx, ['src/../src/a.ts'], 'root');
    const first = new Fixture('scoped-first', { 'a.ts': 'export const a = 1;\n' });
    const out = await reconcile(first.root, { cacheDir: first.cache, parallelism: 1, changed: ['a.ts'] });
    expect(out.ok && out.value.walk).toBe('root');
  });
});

describe('a scoped reconcile outside Git (the rules walk)', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = new Fixture('scoped-rules', {
      '.gitignore': 'out/\n*.tmp\n',
      'src/a.rs': 'pub fn alpha() -> u32 { 1 }\n',
      'src/inner/.gitignore': 'secret.rs\n',
      'src/inner/b.rs': 'pub fn beta() -> u32 { 2 }\n',
    });
    await fx.index();
  });

  test('edits, new files and new directories, deletions', async () => {
    fx.write({
      'src/a.rs': 'pub fn alpha2() -> u32 { 1 }\n',
      'src/inner/c.rs': 'pub fn c() {}\n',
      'x/y/z.rs': 'fn z() {}\n',
    });
    await expectSameAsWhole(fx, ['src/a.rs', 'src/inner/c.rs', 'x'], 'paths');
    fs.rmSync(path.join(fx.root, 'src/inner/b.rs'));
    fs.rmSync(path.join(fx.root, 'x'), { recursive: true });
    await expectSameAsWhole(fx, ['src/inner/b.rs', 'x/y/z.rs'], 'paths');
  });

  test('a path a deeper .gitignore excludes, or inside an ignored directory: the whole root', async () => {
    fx.write({ 'src/inner/secret.rs': 'pub fn secret() {}\n' });
    await expectSameAsWhole(fx, ['src/inner/secret.rs'], 'root');
    fx.write({ 'out/gen.rs': 'fn gen() {}\n' });
    await expectSameAsWhole(fx, ['out/gen.rs'], 'root');
    fx.write({ 'node_modules/m/i.js': 'x' });
    await expectSameAsWhole(fx, ['node_modules/m/i.js'], 'root');
  });

  test('a directory holding an ignored file: the whole root', async () => {
    fx.write({ 'more/keep.rs': 'fn keep() {}\n', 'more/drop.tmp': 'x' });
    await expectSameAsWhole(fx, ['more'], 'root');
  });

  test('a directory reached through a symlink is not entered, as in the whole walk', async () => {
    fs.symlinkSync(path.join(fx.root, 'src'), path.join(fx.root, 'link'));
    await expectSameAsWhole(fx, ['link'], 'paths');
    await expectSameAsWhole(fx, ['link/a.rs'], 'paths');
  });
});
