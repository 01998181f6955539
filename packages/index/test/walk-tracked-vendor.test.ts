// Issue 11, finding 1 (silent blind spots): files Git tracks under node_modules/, vendor/
// and target/ are indexed; untracked never-entered directories and ignored entries are not
// walked, and coverage counts each of them by class instead of saying `excluded: {}`.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { trackedDirsUnderSkipped, walkRoot } from '../src';
import { Fixture, tempDir, writeTree } from './helpers';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, stdio: 'ignore' });
}

/** A repository that commits its dependencies, with untracked and ignored output beside them. */
function vendoredRepo(label: string): Fixture {
  const fx = new Fixture(label, {
    '.gitignore': 'node_modules/\ntarget/\ndist/\n*.log\n',
    'src/app.js': "const { parseFrameHeader } = require('framer');\nparseFrameHeader(buf);\n",
    'node_modules/framer/index.js':
      'function parseFrameHeader(buf) {\n  return buf.readUInt16BE(0);\n}\nmodule.exports = { parseFrameHeader };\n',
    'vendor/github.com/acme/ratelimit/bucket.go':
      'package ratelimit\n\nfunc RefillTokensVendored(n int) int {\n\treturn n + 1\n}\n',
    'target/generated/schema.rs': 'pub struct GeneratedSchemaTable {\n    pub id: u32,\n}\n',
    'packages/ui/main.js': 'export const ui = 1;\n',
  });
  git(fx.root, 'init', '-q');
  git(fx.root, 'add', '.');
  git(fx.root, 'add', '-f', 'node_modules/framer/index.js', 'target/generated/schema.rs');
  git(fx.root, 'commit', '-q', '-m', 'vendored');
  fx.write({
    // Untracked, beside the tracked package: never walked, counted.
    'node_modules/left-pad/index.js': 'function untrackedLeftPad() {}\n',
    'node_modules/left-pad/lib/a.js': 'x\n',
    'packages/ui/node_modules/react/index.js': 'function untrackedReact() {}\n',
    'target/debug/build.rs': 'fn untracked_build_output() {}\n',
    // Ignored by .gitignore.
    'dist/bundle.js': 'function ignoredBundle() {}\n',
    'dist/a.js': 'x\n',
    'dist/b.js': 'x\n',
    'dist/c.js': 'x\n',
    'debug.log': 'ignoredLogLine\n',
  });
  return fx;
}

describe('files Git tracks inside never-entered directories', () => {
  it('are indexed: search and sym: find definitions under node_modules/, vendor/ and target/', async () => {
    const fx = vendoredRepo('tracked-vendor');
    await fx.index();
    // The definition ranks first (the require() binding in src/app.js may follow).
    expect((await fx.paths('sym:parseFrameHeader'))[0]).toBe('node_modules/framer/index.js');
    expect(await fx.paths('sym:RefillTokensVendored')).toEqual(['vendor/github.com/acme/ratelimit/bucket.go']);
    expect(await fx.paths('sym:GeneratedSchemaTable')).toEqual(['target/generated/schema.rs']);
    expect(await fx.paths('parseFrameHeader')).toContain('node_modules/framer/index.js');
    // Untracked beside them: not walked.
    for (const q of [
      'untrackedLeftPad',
      'untrackedReact',
      'untracked_build_output',
      'ignoredBundle',
      'ignoredLogLine',
    ]) {
      expect(await fx.paths(q)).toEqual([]);
    }
  });

  it('count untracked never-entered directories as untracked_vendor and ignored entries as ignored', async () => {
    const fx = vendoredRepo('tracked-vendor-coverage');
    const report = await fx.index();
    // node_modules/left-pad/, packages/ui/node_modules/, target/debug/; dist/ and debug.log.
    expect(report.excluded).toEqual({ untracked_vendor: 3, ignored: 2 });
    const reader = await fx.open();
    try {
      const cov = reader.coverage();
      expect(cov.indexed_files).toBe(6);
      expect(cov.excluded).toEqual({ untracked_vendor: 3, ignored: 2 });
      expect(reader.skippedDirs()).toEqual([
        { path: 'dist/', class: 'ignored', files: 4 },
        { path: 'node_modules/left-pad/', class: 'untracked_vendor', files: 2 },
        { path: 'packages/ui/node_modules/', class: 'untracked_vendor', files: 1 },
        { path: 'target/debug/', class: 'untracked_vendor', files: 1 },
      ]);
    } finally {
      reader.close();
    }
  });

  it('publishes a new generation when only what was left out changed', async () => {
    const fx = vendoredRepo('tracked-vendor-republish');
    const first = await fx.index();
    expect((await fx.index()).published).toBe(false);
    fx.write({ 'node_modules/fresh/index.js': 'x\n' });
    const after = await fx.index();
    expect(after.published).toBe(true);
    expect(after.generation).toBe(first.generation + 1);
    expect(after.excluded.untracked_vendor).toBe(4);
  });

  it('are listed for the watcher with their ancestors, and nothing else under skipped names', () => {
    const fx = vendoredRepo('tracked-vendor-watch');
    expect([...trackedDirsUnderSkipped(fx.root)].sort()).toEqual([
      'node_modules',
      'node_modules/framer',
      'target',
      'target/generated',
    ]);
    expect(trackedDirsUnderSkipped(tempDir('not-git')).size).toBe(0);
  });
});

describe('outside Git (the rules walk)', () => {
  it('never enters the skipped names and counts them and ignored entries', () => {
    const root = tempDir('rules-skip-count');
    writeTree(root, {
      '.gitignore': 'dist/\n*.log\n',
      'ok.js': 'x\n',
      'a.log': 'x\n',
      'dist/x.js': 'x\n',
      'dist/y/z.js': 'x\n',
      'node_modules/p/i.js': 'x\n',
      'crates/c/target/t.rs': 'x\n',
      '.trufflepig/c': 'x\n',
    });
    const result = walkRoot(root);
    expect(result.via).toBe('rules');
    expect(result.files.map((f) => f.path)).toEqual(['.gitignore', 'ok.js']);
    expect(result.skipped.counts).toEqual({ ignored: 2, untracked_vendor: 3, submodule: 0 });
    expect(result.skipped.largest.map((d) => [d.path, d.class, d.files])).toEqual([
      ['dist/', 'ignored', 2],
      ['.trufflepig/', 'untracked_vendor', 1],
      ['crates/c/target/', 'untracked_vendor', 1],
      ['node_modules/', 'untracked_vendor', 1],
    ]);
  });

  it('caps the file count of a huge skipped directory instead of reading all of it', () => {
    const root = tempDir('rules-skip-cap');
    const dir = path.join(root, 'node_modules', 'big');
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 5_100; i++) fs.writeFileSync(path.join(dir, `f${i}.js`), '');
    const [largest] = walkRoot(root).skipped.largest;
    expect(largest).toEqual({ path: 'node_modules/', class: 'untracked_vendor', files: 5_000, capped: true });
  });
});
