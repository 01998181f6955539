// Issue 11, finding 1: nothing is skipped silently. A repository that commits a dependency
// under node_modules/ finds it; the untracked and ignored directories beside it are named by
// `status` (largest first) and counted by class in the coverage line of every search.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ResultStore } from '@trufflepig/result-cache';
import { indexCommand, resolveRoot, runSearch, statusCommand } from '../src';
import { query } from './ws-helpers';

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

describe('skipped directories in status and coverage', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ws-skipped-')));
  const root = path.join(base, 'repo');
  const cache = path.join(base, 'cache');

  beforeAll(async () => {
    write(root, '.gitignore', 'node_modules/\ndist/\n');
    write(root, 'src/app.js', "const { parseFrameHeader } = require('framer');\n");
    write(
      root,
      'node_modules/framer/index.js',
      'function parseFrameHeader(buf) {\n  return buf[0];\n}\nmodule.exports = { parseFrameHeader };\n',
    );
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
        cwd: root,
        stdio: 'ignore',
      });
    git('init', '-q');
    git('add', '.');
    git('add', '-f', 'node_modules/framer/index.js');
    git('commit', '-q', '-m', 'vendored framer');
    for (let i = 0; i < 30; i++) write(root, `node_modules/big-untracked/f${i}.js`, `function untrackedBig${i}() {}\n`);
    write(root, 'dist/bundle.js', 'function ignoredBundle() {}\n');
    const out = await indexCommand({ root, cache });
    expect(out.exitCode).toBe(0);
  });

  it('search finds the tracked dependency and the coverage line counts what was left out', async () => {
    const resolved = resolveRoot({ cwd: root, cache });
    if (!resolved.ok) throw new Error(resolved.error.message);
    const store = new ResultStore(resolved.value.resultsDir);
    const data = await runSearch(resolved.value, query(['parseFrameHeader']), { indexIfMissing: false, store });
    if (!data.ok) throw new Error(data.error.message);
    expect(data.value.entries.map((e) => e.path)).toContain('node_modules/framer/index.js');
    expect(data.value.coverageLine).toMatch(/excluded [^;]*1 untracked_vendor/);
    expect(data.value.coverageLine).toMatch(/excluded [^;]*1 ignored/);
    expect(data.value.coverage.excluded).toEqual({ untracked_vendor: 1, ignored: 1 });
    const none = await runSearch(resolved.value, query(['untrackedBig7']), { indexIfMissing: false, store });
    if (!none.ok) throw new Error(none.error.message);
    expect(none.value.entries).toEqual([]);
  });

  it('a re: that no trigram narrows says on its coverage line that it read every file', async () => {
    const resolved = resolveRoot({ cwd: root, cache });
    if (!resolved.ok) throw new Error(resolved.error.message);
    const store = new ResultStore(resolved.value.resultsDir);
    const open = await runSearch(resolved.value, query(['re:\\w+\\(\\w']), { indexIfMissing: false, store });
    if (!open.ok) throw new Error(open.error.message);
    expect(open.value.coverageLine).toMatch(/re: no three fixed characters to narrow by, read all \d+ files/);
    expect(open.value.coverage.regex).toMatchObject({ narrowed: false });
    const narrow = await runSearch(resolved.value, query(['re:parseFrame\\w+']), { indexIfMissing: false, store });
    if (!narrow.ok) throw new Error(narrow.error.message);
    expect(narrow.value.entries.map((e) => e.path).sort()).toEqual(['node_modules/framer/index.js', 'src/app.js']);
    expect(narrow.value.coverageLine).not.toMatch(/re: no three/);
    expect(narrow.value.coverage.regex).toMatchObject({ narrowed: true, candidateFiles: 2 });
  });

  it('status lists the largest skipped directories', async () => {
    const status = await statusCommand({ root, cache, format: 'json' });
    expect(status.exitCode).toBe(0);
    const body = JSON.parse(status.stdout) as { skipped_dirs: unknown; coverage: { excluded: unknown } };
    expect(body.skipped_dirs).toEqual([
      { path: 'node_modules/big-untracked/', class: 'untracked_vendor', files: 30 },
      { path: 'dist/', class: 'ignored', files: 1 },
    ]);
    expect(body.coverage.excluded).toEqual({ untracked_vendor: 1, ignored: 1 });
  });
});
