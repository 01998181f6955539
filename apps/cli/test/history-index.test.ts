// The history index end to end (issue 16, deliverable 6), through the built CLI on real
// Git repositories: hist answers the same rows with and without the index (edits, a
// rename of the definition, a move to another file, a renamed file, a merge), the index
// built by the real background builder and by a daemon, reported in status (absent,
// ready, partial behind HEAD), and shared by a linked worktree.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRepo, runCli, tempDir, until, type Repo } from './cli';
import { datedGit, fillers, fn } from './git-history';

const BUILDER = path.join(__dirname, '..', '..', '..', 'packages', 'workspace', 'dist', 'history-verbs/log-index.js');

const { git, commit, advance } = datedGit('2024-03');
const FILLER = fillers(8, 5);

/** Edits, a rename of the function, a move to another file, a renamed file, unrelated commits, and a merge. */
function story(): Repo {
  const repo = makeRepo({}, 'hidx');
  git(repo.root, 'checkout', '-q', '-b', 'main');
  repo.write('a.ts', `${FILLER}\n${fn('beta', ['const z = y * 2;', 'return z;'])}`);
  repo.write('util.ts', fn('helper', ['return y;']));
  commit(repo.root, 'add beta and helper');
  repo.write('a.ts', `${FILLER}\n${fn('beta', ['const z = y * 3;', 'return z;'])}`);
  commit(repo.root, 'beta: triple');
  for (let i = 0; i < 5; i++) {
    repo.write(`noise${i}.txt`, `noise ${i}\n`);
    commit(repo.root, `noise ${i}`);
  }
  repo.write('a.ts', `${FILLER}\n${fn('gamma', ['const z = y * 3;', 'return z + 1;'])}`);
  commit(repo.root, 'rename beta to gamma, plus one');
  git(repo.root, 'mv', 'util.ts', 'helpers.ts');
  commit(repo.root, 'rename util.ts to helpers.ts');
  repo.write('a.ts', FILLER);
  repo.write('b.ts', `// gamma lives here now\n${fn('gamma', ['const z = y * 3;', 'return z + 1;'])}`);
  commit(repo.root, 'move gamma to b.ts');
  git(repo.root, 'checkout', '-q', '-b', 'feat');
  repo.write('b.ts', fs.readFileSync(repo.abs('b.ts') as string, 'utf8').replace('y * 3', 'y * 4'));
  commit(repo.root, 'feat: times four');
  repo.write('helpers.ts', fn('helper', ['return y + 1;']));
  commit(repo.root, 'feat: helper plus one');
  git(repo.root, 'checkout', '-q', 'main');
  repo.write('noise0.txt', 'main noise\n');
  commit(repo.root, 'main: noise');
  advance();
  git(repo.root, 'merge', '-q', '--no-ff', 'feat', '-m', 'Merge feat');
  return repo;
}

const TARGETS = [['sym:gamma'], ['path:b.ts'], ['path:helpers.ts'], ['sym:helper'], ['path:a.ts'], ['path:a.ts:1-7']];

/** A hist page with its set id (fresh every run) taken out. */
function normalized(text: string): string {
  return text.replace(/\b[0-9a-z]{6,16}(?=[:@~])/g, 'SET');
}

function hist(
  repo: Repo,
  cache: string,
  words: readonly string[],
): { lines: string; hits: unknown[]; coverage: Record<string, unknown> } {
  const base = ['--root', repo.root, '--cache', cache, '-b', '4000'];
  const lines = runCli([...base, 'hist', ...words], undefined, { lines: true });
  expect({ words, status: lines.status, stderr: lines.stderr }).toEqual({ words, status: 0, stderr: '' });
  const json = runCli([...base, 'hist', ...words]).json<{
    hits: { handle: string }[];
    coverage: Record<string, unknown>;
  }>();
  const { history_index: _index, ...coverage } = json.coverage;
  return {
    lines: normalized(lines.stdout),
    hits: json.hits.map(({ handle: _h, ...rest }) => rest),
    coverage: { ...coverage, index: json.coverage.history_index },
  };
}

function buildIndex(root: string, cache: string): void {
  const r = spawnSync(process.execPath, [BUILDER, root, cache], { encoding: 'utf8' });
  expect(r.status).toBe(0);
}

function status(root: string, cache: string, daemon = false): Record<string, any> {
  return runCli(['--root', root, '--cache', cache, 'status'], undefined, { daemon }).json<Record<string, any>>();
}

describe('the history index', () => {
  const repo = story();

  it('gives hist the same answers as Git: edits, a renamed and moved definition, a renamed file, a merge', () => {
    const plain = tempDir('plain');
    const indexed = tempDir('indexed');
    // Absent says what the file is and what answers meanwhile, not just "absent" (an agent
    // read it as "no history" beside an index report of git_log indexed).
    const absent = status(repo.root, indexed).history;
    expect(absent).toMatchObject({ state: 'absent' });
    expect(absent.notes).toEqual([
      expect.stringMatching(/^the commit index of hist and blame is not built yet: .*read Git/),
    ]);
    buildIndex(repo.root, indexed);
    const st = status(repo.root, indexed).history;
    const head = git(repo.root, 'rev-parse', 'HEAD').trim();
    expect(st).toMatchObject({ state: 'ready', commits: 12, head, segments: 1 });
    expect(st.bytes).toBe(fs.statSync(st.file).size);
    expect(st.file.startsWith(path.join(indexed, 'history'))).toBe(true);
    for (const words of TARGETS) {
      const without = hist(repo, plain, words);
      const withIndex = hist(repo, indexed, words);
      expect({ words, lines: withIndex.lines }).toEqual({ words, lines: without.lines });
      expect({ words, hits: withIndex.hits }).toEqual({ words, hits: without.hits });
      expect({ ...withIndex.coverage, index: undefined }).toEqual({ ...without.coverage, index: undefined });
      expect(without.coverage.index).toMatchObject({ records: 0 });
      expect(withIndex.coverage.index).toMatchObject({ state: 'current' });
      expect((withIndex.coverage.index as { records: number }).records).toBeGreaterThan(0);
    }
    // The story's rows (12 first-parent commits: the feat branch's own two are not), so the comparison is of answers that mean something.
    const gamma = hist(repo, indexed, ['sym:gamma']).hits as { subject: string; merge?: boolean }[];
    expect(gamma.map((h) => h.subject)).toEqual([
      'Merge feat',
      'move gamma to b.ts',
      'rename beta to gamma, plus one',
      'beta: triple',
      'add beta and helper',
    ]);
    const helper = hist(repo, indexed, ['path:helpers.ts']).hits as { subject: string; event?: string }[];
    expect(helper.map((h) => [h.subject, h.event])).toEqual([
      ['Merge feat', undefined],
      ['rename util.ts to helpers.ts', 'renamed'],
      ['add beta and helper', 'added'],
    ]);

    // A new commit: the index is behind HEAD (partial), and hist reads the new commit from Git, the rest from the index.
    repo.write('b.ts', fs.readFileSync(repo.abs('b.ts') as string, 'utf8').replace('z + 1', 'z + 2'));
    commit(repo.root, 'gamma: plus two');
    // sym: reads the code index, which (without a daemon) is refreshed by `index`.
    for (const cache of [plain, indexed])
      expect(runCli(['--root', repo.root, '--cache', cache, 'index']).status).toBe(0);
    expect(status(repo.root, indexed).history).toMatchObject({ state: 'partial', commits: 12, head });
    const behind = hist(repo, indexed, ['sym:gamma']);
    expect(behind.lines).toBe(hist(repo, plain, ['sym:gamma']).lines);
    expect(behind.coverage.index).toMatchObject({ state: 'behind_head' });
    buildIndex(repo.root, indexed);
    expect(status(repo.root, indexed).history).toMatchObject({ state: 'ready', commits: 13, segments: 2 });
    expect(hist(repo, indexed, ['sym:gamma']).lines).toBe(hist(repo, plain, ['sym:gamma']).lines);
  });

  it('is built by the daemon in the background and shared by a linked worktree', async () => {
    const cache = tempDir('daemon');
    try {
      // A read starts the root's daemon (status asks a running one and starts none); it
      // answers index_warming, exit 2, while the new daemon indexes.
      expect([0, 2]).toContain(
        runCli(['--root', repo.root, '--cache', cache, 'search', 'gamma'], undefined, { daemon: true }).status,
      );
      const first = status(repo.root, cache, true);
      expect(['absent', 'building', 'ready']).toContain(first.history.state);
      const ready = await until('the daemon to build the history index', () => {
        const h = status(repo.root, cache, true).history;
        return h.state === 'ready' ? h : undefined;
      });
      expect(ready.head).toBe(git(repo.root, 'rev-parse', 'HEAD').trim());
      // The daemon serves the history verbs: the same pages as a foreground run, set ids apart.
      const { rootDaemonStatus } = require('@trufflepig/workspace') as typeof import('@trufflepig/workspace');
      const cacheDir = status(repo.root, cache).cache as string;
      const served = async () =>
        ((await rootDaemonStatus(cacheDir)) as { requests: { served: number } }).requests.served;
      const before = await served();
      const verbs = [
        ['hist', 'sym:gamma'],
        ['hist', 'path:a.ts:1-7'],
        ['blame', 'path:b.ts'],
        ['since', 'HEAD~2'],
        ['diff', 'HEAD~1'],
      ];
      for (const words of verbs) {
        const args = ['--root', repo.root, '--cache', cache, '-b', '4000', ...words];
        const served = runCli(args, undefined, { daemon: true, lines: true });
        const foreground = runCli(args, undefined, { lines: true });
        expect({ words, status: served.status, stderr: served.stderr }).toEqual({ words, status: 0, stderr: '' });
        expect({ words, lines: normalized(served.stdout) }).toEqual({ words, lines: normalized(foreground.stdout) });
      }
      // Each verb was one served request, and so was the status request that read `before`.
      expect(await served()).toBe(before + verbs.length + 1);
      const usage = runCli(['--root', repo.root, '--cache', cache, 'hist'], undefined, { daemon: true, lines: true });
      expect({ status: usage.status, stderr: usage.stderr }).toEqual({
        status: 2,
        stderr:
          'trufflepig: bad_arguments: hist needs a TARGET: a HANDLE, path:P[:A-B] or sym:NAME [filters], e.g. trufflepig hist sym:TokenBucket::refill\n',
      });
      const wt = path.join(tempDir('wt'), 'wt');
      git(repo.root, 'worktree', 'add', '-q', '--detach', wt);
      const there = status(wt, cache).history;
      expect(there).toMatchObject({ state: 'ready', file: ready.file, commits: ready.commits });
    } finally {
      runCli(['--root', repo.root, '--cache', cache, 'stop'], undefined, { daemon: true });
    }
  });
});
