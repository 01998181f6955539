// The history index on real Git repositories: built once and read by a linked worktree,
// extended by one segment after a new commit, rebuilt after a force-push, ended by each
// bound, refused when truncated or altered (walks then read Git), and never half-written
// (a writer killed mid-write leaves the old file whole). Walks here follow whole files
// (no definition extraction: tree-sitter tests stay in history.test.ts); the
// same-answers-as-Git checks on definitions, renames, moves and merges are there too.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildHistoryIndex,
  decodeIndex,
  historyIndexDir,
  historyIndexFile,
  historyIndexStatus,
  loadHistoryIndex,
  openRepo,
  readIndexFile,
  walkHistory,
  HISTORY_INDEX_FILE_NAME,
  type BuildReport,
  type HistWalk,
  type IndexBounds,
  type Outcome,
  type Repo,
} from '../src/index';
import { makeRepo, tempDir, type TestRepo } from './repo';

function value<T>(o: Outcome<T>): T {
  if (!o.ok) throw new Error(`expected ok, got ${o.error.code}: ${o.error.message}`);
  return o.value;
}

/** n commits editing a.txt (one line each), with b.txt touched every third. */
function linear(n: number, prefix = 'linear'): TestRepo {
  const repo = makeRepo(prefix);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(`line ${i}`);
    repo.write('a.txt', `${lines.join('\n')}\n`);
    if (i % 3 === 0) repo.write('b.txt', `b ${i}\n`);
    repo.commit(`commit ${i}`);
  }
  return repo;
}

async function build(root: string, cache: string, bounds?: Partial<IndexBounds>): Promise<BuildReport> {
  return value(await buildHistoryIndex(root, cache, bounds ? { bounds } : {}));
}

async function walks(root: string, cache: string, file: string): Promise<{ git: HistWalk; indexed: HistWalk }> {
  const repo: Repo = value(openRepo(root));
  const { index } = loadHistoryIndex(repo, cache);
  const git = value(await walkHistory(repo, { path: file }));
  const indexed = value(await walkHistory(repo, { path: file }, index ? { index } : {}));
  return { git, indexed };
}

/** The same walk, apart from where its records came from. */
function expectSame(w: { git: HistWalk; indexed: HistWalk }): void {
  const strip = ({ fromIndex: _f, ...rest }: HistWalk) => rest;
  expect(strip(w.indexed)).toEqual(strip(w.git));
  expect(w.git.fromIndex).toBe(0);
}

describe('the history index', () => {
  it('is built once per repository and reused by a linked worktree', async () => {
    const repo = linear(12);
    const cache = tempDir('cache');
    const first = await build(repo.root, cache);
    expect(first).toMatchObject({ outcome: 'built', commits: 12, read: 12 });
    expect(first.cut).toBeUndefined();
    const wt = path.join(path.dirname(repo.root), 'wt');
    repo.git('worktree', 'add', '-q', '--detach', wt);
    const wtRepo = value(openRepo(wt));
    expect(wtRepo.commonDir).toBe(value(openRepo(repo.root)).commonDir);
    const again = await build(wt, cache);
    expect(again).toMatchObject({ outcome: 'current', commits: 12, read: 0, dir: first.dir });
    expect(fs.readdirSync(path.join(cache, 'history'))).toHaveLength(1);
    const status = historyIndexStatus(wtRepo, cache);
    expect(status).toMatchObject({
      state: 'ready',
      commits: 12,
      head: wtRepo.head,
      segments: 1,
      bytes: fs.statSync(status.file).size,
    });
    expect(Date.parse(status.built_at!)).toBeGreaterThan(Date.now() - 60_000);
    const w = await walks(wt, cache, 'a.txt');
    expectSame(w);
    expect(w.indexed.commits).toHaveLength(12);
    expect(w.indexed.fromIndex).toBe(12); // the root commit too: a commit without parents is never a rename
  });

  it('adds only the new commits after a commit (one more segment), and reads a gap from Git before it is updated', async () => {
    const repo = linear(6, 'incr');
    const cache = tempDir('cache');
    await build(repo.root, cache);
    const before = fs.readFileSync(historyIndexFile(historyIndexDir(cache, value(openRepo(repo.root)).commonDir)));
    repo.write('a.txt', 'rewritten\n');
    repo.commit('new 1');
    repo.write('b.txt', 'b new\n');
    repo.commit('new 2');
    // Not updated yet: status says so, and a walk reads the two new commits from Git, the rest from the index.
    const r = value(openRepo(repo.root));
    expect(historyIndexStatus(r, cache)).toMatchObject({ state: 'partial', commits: 6 });
    const gap = await walks(repo.root, cache, 'a.txt');
    expectSame(gap);
    expect(gap.indexed.commits[0].subject).toBe('new 1');
    expect(gap.indexed.fromIndex).toBe(6);
    const up = await build(repo.root, cache);
    expect(up).toMatchObject({ outcome: 'updated', commits: 8, read: 2 });
    const after = fs.readFileSync(historyIndexFile(up.dir));
    expect(after.subarray(0, before.length).equals(before)).toBe(true); // the old bytes, unchanged
    const decoded = decodeIndex(after);
    expect(decoded.ok && decoded.index.segments.map((s) => s.commits)).toEqual([6, 2]);
    expect(historyIndexStatus(r, cache)).toMatchObject({ state: 'ready', commits: 8, segments: 2, head: r.head });
    // This process loaded the 6-commit file for the walk above: the new file is read, not that copy.
    expect(loadHistoryIndex(r, cache).index?.commits).toHaveLength(8);
    expect(loadHistoryIndex(r, cache).index).toBe(loadHistoryIndex(r, cache).index);
    expectSame(await walks(repo.root, cache, 'a.txt'));
    expectSame(await walks(repo.root, cache, 'b.txt'));
  });

  it('is rebuilt after a force-push rewrite (the indexed head is no longer an ancestor)', async () => {
    const repo = linear(6, 'rewrite');
    const cache = tempDir('cache');
    const first = await build(repo.root, cache);
    repo.git('reset', '-q', '--hard', 'HEAD~2');
    repo.write('a.txt', 'another past\n');
    repo.commit('rewritten history');
    const again = await build(repo.root, cache);
    expect(again.outcome).toBe('built');
    expect(again.rebuilt).toMatch(/does not descend from the indexed head/);
    expect(again.commits).toBe(5);
    const read = readIndexFile(first.dir, value(openRepo(repo.root)).commonDir);
    expect(read.state === 'ok' && read.index.commits.map((c) => c.subject)).toEqual([
      'rewritten history',
      'commit 3',
      'commit 2',
      'commit 1',
      'commit 0',
    ]);
    expectSame(await walks(repo.root, cache, 'a.txt'));
  });

  it('respects its bounds (commits, days, bytes, files a commit), says partial, and walks read the rest from Git', async () => {
    const repo = linear(10, 'bounds');
    const r = value(openRepo(repo.root));
    const cases: [Partial<IndexBounds>, string, number][] = [
      [{ commitsMax: 3 }, 'commits', 3],
      // One commit a day: 4 days before the head's date keeps 5 commits.
      [{ daysMax: 4 }, 'days', 5],
    ];
    for (const [bounds, reason, commits] of cases) {
      const cache = tempDir('cache');
      const rep = await build(repo.root, cache, bounds);
      expect(rep).toMatchObject({ outcome: 'built', commits, cut: { reason } });
      const status = historyIndexStatus(r, cache);
      expect(status).toMatchObject({ state: 'partial', commits });
      expect(status.notes!.join(' ')).toContain(`bound: ${reason}`);
      const w = await walks(repo.root, cache, 'a.txt');
      expectSame(w);
      expect(w.indexed.fromIndex).toBe(commits);
      expect(w.indexed.commits).toHaveLength(10);
    }
    const small = tempDir('cache');
    const full = await build(repo.root, tempDir('cache'));
    const rep = await build(repo.root, small, { fileBytesMax: Math.floor(full.bytes / 2) });
    expect(rep.cut?.reason).toBe('bytes');
    expect(rep.bytes).toBeLessThanOrEqual(Math.floor(full.bytes / 2));
    expectSame(await walks(repo.root, small, 'a.txt'));
    // A commit with more files than the bound is kept, marked cut: walks ask Git about it.
    const files = tempDir('cache');
    const cutRep = await build(repo.root, files, { commitFilesMax: 1 });
    expect(cutRep.commits).toBe(10);
    const read = readIndexFile(cutRep.dir, r.commonDir);
    expect(read.state === 'ok' && read.index.commits.filter((c) => c.cut).length).toBe(4); // commits 0, 3, 6, 9 changed both files
    expectSame(await walks(repo.root, files, 'b.txt'));
    expectSame(await walks(repo.root, files, 'a.txt'));
    // An update that would pass a bound drops the oldest commits instead.
    repo.write('a.txt', 'new\n');
    repo.commit('one more');
    const bounded = tempDir('cache');
    await build(repo.root, bounded, { commitsMax: 10 });
    repo.write('a.txt', 'newer\n');
    repo.commit('and another');
    const trimmed = await build(repo.root, bounded, { commitsMax: 10 });
    expect(trimmed).toMatchObject({ outcome: 'built', commits: 10, read: 1, cut: { reason: 'commits' } });
    expectSame(await walks(repo.root, bounded, 'a.txt'));
  });

  it('is refused when truncated or altered (walks read Git, answers unchanged) and rebuilt by the next build', async () => {
    const repo = linear(8, 'corrupt');
    const cache = tempDir('cache');
    const rep = await build(repo.root, cache);
    const file = historyIndexFile(rep.dir);
    const good = fs.readFileSync(file);
    const r = value(openRepo(repo.root));
    const damages: [string, Buffer][] = [
      ['truncated', good.subarray(0, good.length - 17)],
      ['checksum', Buffer.from(good.toString('utf8').replace('"commit 4"', '"commit 5"'), 'utf8')],
      ['format', Buffer.from(good.toString('utf8').replace('INDEX 1\n', 'INDEX 9\n'), 'utf8')],
      ['meta line', Buffer.concat([good, Buffer.from('SEGMENT {"head":\n')])],
      ['segment', Buffer.concat([good.subarray(0, good.indexOf('SEGMENT '))])],
    ];
    for (const [what, bytes] of damages) {
      fs.writeFileSync(file, bytes);
      const read = readIndexFile(rep.dir, r.commonDir);
      expect({ what, state: read.state }).toEqual({ what, state: 'corrupt' });
      expect(loadHistoryIndex(r, cache).index).toBeUndefined();
      const status = historyIndexStatus(r, cache);
      expect(status.state).toBe('absent');
      expect(status.notes!.join(' ')).toContain('history_index_corrupt');
      const w = await walks(repo.root, cache, 'a.txt');
      expectSame(w);
      expect(w.indexed.fromIndex).toBe(0);
      const rebuilt = await build(repo.root, cache);
      expect(rebuilt).toMatchObject({ outcome: 'built', commits: 8 });
      expect(rebuilt.rebuilt).toMatch(/the old file was refused/);
      expect(fs.readFileSync(file).equals(good) || decodeIndex(fs.readFileSync(file)).ok).toBe(true);
    }
  });

  it('a writer killed mid-write leaves the old file whole; the next build removes its temporary file', async () => {
    const repo = linear(5, 'kill');
    const cache = tempDir('cache');
    const rep = await build(repo.root, cache);
    const file = historyIndexFile(rep.dir);
    const good = fs.readFileSync(file);
    const store = path.join(__dirname, '..', 'dist', 'log-index-store.js');
    // 512 MiB from one 64 MiB buffer: long enough to be killed while writing.
    const script = `const s = require(${JSON.stringify(store)}); const b = Buffer.alloc(64 * 1024 * 1024, 120); s.writeIndexFile(${JSON.stringify(rep.dir)}, Array(8).fill(b));`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const temp = () => fs.readdirSync(rep.dir).find((n) => n.startsWith(`${HISTORY_INDEX_FILE_NAME}.tmp-`));
    const until = Date.now() + 20_000;
    while (temp() === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
    expect(temp()).toBeDefined();
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect(fs.readFileSync(file).equals(good)).toBe(true);
    expect(readIndexFile(rep.dir, value(openRepo(repo.root)).commonDir).state).toBe('ok');
    expect(temp()).toBeDefined();
    repo.write('a.txt', 'after the kill\n');
    repo.commit('after the kill');
    expect(await build(repo.root, cache)).toMatchObject({ outcome: 'updated', commits: 6 });
    expect(temp()).toBeUndefined();
  });

  it("a build that finds the lock held by a live process answers busy; a dead holder's lock is taken over", async () => {
    const repo = linear(3, 'lock');
    const cache = tempDir('cache');
    const rep = await build(repo.root, cache);
    const lock = path.join(rep.dir, 'build.lock');
    const sleeper = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(sleeper.stdout);
    fs.writeFileSync(lock, `${process.ppid} ${new Date().toISOString()}\n`);
    expect((await build(repo.root, cache)).outcome).toBe('busy');
    expect(historyIndexStatus(value(openRepo(repo.root)), cache)).toMatchObject({
      state: 'building',
      building: { pid: process.ppid },
    });
    fs.writeFileSync(lock, `${deadPid} ${new Date().toISOString()}\n`);
    expect((await build(repo.root, cache)).outcome).toBe('current');
    expect(fs.existsSync(lock)).toBe(false);
  });
});
