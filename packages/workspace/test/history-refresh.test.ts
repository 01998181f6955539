// The daemon's hook after each reconcile (history-verbs/log-index.ts refreshHistoryIndex):
// a builder when HEAD moved, nothing (and no Git run) while it has not. The built module
// is what a daemon runs: the builder it starts is its own dist script.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { historyIndexDir, historyIndexFile, openRepo } from '@trufflepig/history';
import { git, makeRepo } from './ws-helpers';

const { refreshHistoryIndex } =
  require('../dist/history-verbs/log-index') as typeof import('../src/history-verbs/log-index');

async function until(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Git runs `run` makes: a `git` earlier on PATH counts each run in a file, then runs the
 * real one.
 */
function gitRuns(base: string, run: () => unknown): number {
  const dir = path.join(base, 'counting-git');
  const log = path.join(dir, 'runs');
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir);
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(dir, 'git'), `#!/bin/sh\necho >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  }
  fs.writeFileSync(log, '');
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${saved ?? ''}`;
  try {
    run();
  } finally {
    process.env.PATH = saved;
  }
  return fs.readFileSync(log, 'utf8').length;
}

describe('refreshing the history index after a reconcile', () => {
  it('starts a builder when HEAD moved, and answers fresh without running Git while it has not', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-history-refresh-')));
    const root = makeRepo(path.join(base, 'repo'), { 'a.ts': 'export const a = 1;\n' });
    const cacheBase = path.join(base, 'cache');
    const repo = openRepo(root);
    if (!repo.ok) throw new Error(repo.error.message);
    const indexFile = historyIndexFile(historyIndexDir(cacheBase, repo.value.commonDir));
    const headOfIndex = () => (fs.existsSync(indexFile) ? fs.statSync(indexFile).mtimeMs : 0);

    expect(refreshHistoryIndex(root, cacheBase)).toBe('started');
    await until('the first history index', () => fs.existsSync(indexFile));
    // Once from Git (where HEAD lives, and its stamp), then from the stamp alone.
    expect(refreshHistoryIndex(root, cacheBase)).toBe('fresh');
    let answer: string | undefined;
    expect(gitRuns(base, () => (answer = refreshHistoryIndex(root, cacheBase)))).toBe(0);
    expect(answer).toBe('fresh');
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 2;\n');
    expect(gitRuns(base, () => (answer = refreshHistoryIndex(root, cacheBase)))).toBe(0);
    expect(answer).toBe('fresh');

    // HEAD moves: the stamp differs, Git is asked, and a builder starts for the new HEAD.
    git(root, 'commit', '-q', '-am', 'two');
    const before = headOfIndex();
    expect(gitRuns(base, () => (answer = refreshHistoryIndex(root, cacheBase)))).toBeGreaterThan(0);
    expect(answer).toBe('started');
    await until('the history index of the new HEAD', () => headOfIndex() !== before);

    // A branch checked out moves HEAD too.
    const second = headOfIndex();
    git(root, 'checkout', '-q', '-b', 'topic', 'HEAD~1');
    expect(refreshHistoryIndex(root, cacheBase)).toBe('started');
    await until('the history index of the branch', () => headOfIndex() !== second);
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('answers a repository without a commit from the stamp, and starts a builder at its first commit', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-history-unborn-')));
    const root = path.join(base, 'repo');
    fs.mkdirSync(root);
    git(root, 'init', '-q', '-b', 'main');
    const cacheBase = path.join(base, 'cache');
    expect(refreshHistoryIndex(root, cacheBase)).toBe('no_repository');
    expect(refreshHistoryIndex(root, cacheBase)).toBe('no_repository');
    let answer: string | undefined;
    expect(gitRuns(base, () => (answer = refreshHistoryIndex(root, cacheBase)))).toBe(0);
    expect(answer).toBe('no_repository');
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    expect(refreshHistoryIndex(root, cacheBase)).toBe('started');
    const repo = openRepo(root);
    if (!repo.ok) throw new Error(repo.error.message);
    const indexFile = historyIndexFile(historyIndexDir(cacheBase, repo.value.commonDir));
    await until('the first history index', () => fs.existsSync(indexFile));
    fs.rmSync(base, { recursive: true, force: true });
  });
});
