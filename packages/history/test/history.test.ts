// hist, blame and change reads on real Git repositories (issue 16's scenarios): a function
// edited in three commits, renamed in a fourth and moved to another file in a fifth; a
// merge (first parent only); a whitespace-only commit (blame skips it); uncommitted
// edits; a vanished commit (history_missing); a shallow clone (where history ends).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import {
  buildHistoryIndex,
  loadHistoryIndex,
  type HistTarget,
  blameRange,
  encodedPath,
  hunkView,
  mapToHead,
  openRepo,
  readChange,
  resolveRevision,
  sinceRevision,
  walkHistory,
  NO_WORKTREE_FILE,
  type HistCommit,
  type HistWalk,
  type Outcome,
  type Repo,
} from '../src/index';
import type { ChangeRecord } from '@trufflepig/result-cache';
import { makeRepo, spanOf, tempDir, type TestRepo } from './repo';

function value<T>(o: Outcome<T>): T {
  if (!o.ok) throw new Error(`expected ok, got ${o.error.code}: ${o.error.message}`);
  return o.value;
}

const FILLER = Array.from(
  { length: 12 },
  (_, i) => `export function filler${i}(n: number): number {\n  return n * ${i} + ${i * 7};\n}\n`,
).join('\n');

const beta = (body: string[]) =>
  `export function beta(y: number): number {\n${body.map((l) => `  ${l}\n`).join('')}}\n`;

/** The five-step story: add, three edits, a rename, a move to b.ts; with an unrelated edit in between. */
function story(): { repo: TestRepo; ids: Record<string, string> } {
  const repo = makeRepo('story');
  const ids: Record<string, string> = {};
  const a = (fn: string) => `${FILLER}\n${fn}\nexport function alpha(x: number): number {\n  return x + 1;\n}\n`;
  repo.write('a.ts', a(beta(['const z = y * 2;', 'return z;'])));
  ids.add = repo.commit('add beta');
  repo.write('a.ts', a(beta(['const z = y * 3;', 'return z;'])));
  ids.edit1 = repo.commit('beta: triple');
  repo.write('a.ts', a(beta(['const z = y * 3;', 'return z + 1;'])));
  ids.edit2 = repo.commit('beta: plus one');
  repo.write('a.ts', a(beta(['const z = y * 3;', 'return z + 1;'])).replace('return x + 1;', 'return x + 2;'));
  ids.other = repo.commit('alpha: plus two (outside the target)');
  repo.write(
    'a.ts',
    a(beta(['const z = y * 3;', 'console.log(z);', 'return z + 1;'])).replace('return x + 1;', 'return x + 2;'),
  );
  ids.edit3 = repo.commit('beta: log');
  const renamed = beta(['const z = y * 3;', 'console.log(z);', 'return z + 1;']).replace('beta', 'gamma');
  repo.write('a.ts', a(renamed).replace('return x + 1;', 'return x + 2;'));
  ids.rename = repo.commit('rename beta to gamma');
  repo.write('a.ts', a('').replace('return x + 1;', 'return x + 2;'));
  repo.write('b.ts', `// gamma lives here now\n\n${renamed}`);
  ids.move = repo.commit('move gamma to b.ts');
  return { repo, ids };
}

/**
 * walkHistory from Git, and the same walk from a history index three ways, which must
 * answer exactly as Git did: an index of the whole history; one bounded to 2 commits (older
 * ones read from Git); one a commit behind HEAD (built in a linked worktree at HEAD~1,
 * which shares it; the new commit is read from Git first).
 */
async function walkChecked(repo: Repo, target: HistTarget): Promise<Outcome<HistWalk>> {
  const git = await walkHistory(repo, target);
  if (!git.ok) return git;
  const strip = ({ fromIndex: _f, ...rest }: HistWalk) => rest;
  const indexed = async (cache: string, label: string) => {
    const { index } = loadHistoryIndex(repo, cache);
    expect({ label, loaded: index !== undefined }).toEqual({ label, loaded: true });
    const w = value(await walkHistory(repo, target, { index }));
    expect({ label, walk: strip(w) }).toEqual({ label, walk: strip(git.value) });
    return w;
  };
  const full = tempDir('index');
  value(await buildHistoryIndex(repo.top, full));
  const w = await indexed(full, 'whole history');
  if (git.value.scanned > git.value.moves + 1) expect(w.fromIndex).toBeGreaterThan(0);
  const two = tempDir('index');
  expect(value(await buildHistoryIndex(repo.top, two, { bounds: { commitsMax: 2 } })).commits).toBe(2);
  await indexed(two, 'bounded to 2 commits');
  if (spawnSync('git', ['-C', repo.top, 'rev-parse', '-q', '--verify', 'HEAD~1']).status === 0) {
    const wt = path.join(tempDir('wt'), 'behind');
    expect(spawnSync('git', ['-C', repo.top, 'worktree', 'add', '-q', '--detach', wt, 'HEAD~1']).status).toBe(0);
    const behind = tempDir('index');
    value(await buildHistoryIndex(wt, behind));
    await indexed(behind, 'a commit behind HEAD');
    spawnSync('git', ['-C', repo.top, 'worktree', 'remove', '--force', wt]);
  }
  return git;
}

async function histOf(repo: Repo, file: string, text: string, needle: string, name?: string): Promise<HistWalk> {
  const range = spanOf(text, needle);
  return value(await walkChecked(repo, { path: file, range, ...(name ? { name } : {}) }));
}

const subjects = (w: HistWalk) => w.commits.map((c) => c.subject);

describe('hist follows a definition', () => {
  it('through three edits, a rename and a move to another file, newest first', async () => {
    const { repo, ids } = story();
    const r = value(openRepo(repo.root));
    const walk = await histOf(r, 'b.ts', repo.read('b.ts'), 'function gamma', 'gamma');
    expect(subjects(walk)).toEqual([
      'move gamma to b.ts',
      'rename beta to gamma',
      'beta: log',
      'beta: plus one',
      'beta: triple',
      'add beta',
    ]);
    const [move, rename, log, plus, triple, add] = walk.commits;
    expect(move).toMatchObject({
      commit: ids.move,
      event: 'moved',
      added: 0,
      deleted: 0,
      after: { path: 'b.ts', range: { start: 3, end: 7 } },
      before: { path: 'a.ts' },
    });
    expect(rename).toMatchObject({ commit: ids.rename, added: 1, deleted: 1, after: { path: 'a.ts' } });
    expect(log).toMatchObject({ added: 1, deleted: 0 });
    expect(plus).toMatchObject({ added: 1, deleted: 1 });
    expect(triple).toMatchObject({ added: 1, deleted: 1 });
    expect(add).toMatchObject({ commit: ids.add, event: 'added', added: 4, deleted: 0 });
    expect(walk.commits.map((c) => c.commit)).not.toContain(ids.other);
    expect(walk.moves).toBe(1);
    expect(walk.cut).toBeUndefined();
    // The target's lines in a.ts at the move's parent are the function's lines there.
    const before = move.before!.range!;
    const parentText = repo.git('show', `${ids.move}^:a.ts`).split('\n');
    expect(parentText[before.start - 1]).toBe('export function gamma(y: number): number {');
    expect(parentText[before.end - 1]).toBe('}');
  });

  it('into an existing file, found by its name in the parent', async () => {
    const repo = makeRepo('into');
    repo.write('a.ts', `${FILLER}\n${beta(['return y;'])}`);
    repo.write('c.ts', `${FILLER.replace(/filler/g, 'other')}`);
    repo.commit('two files');
    repo.write('a.ts', `${beta(['return y + 1;'])}\n${FILLER}`);
    repo.commit('beta: plus one');
    repo.write('a.ts', FILLER);
    repo.write('c.ts', `${FILLER.replace(/filler/g, 'other')}\n${beta(['return y + 1;'])}`);
    repo.commit('move beta into c.ts');
    const walk = await histOf(value(openRepo(repo.root)), 'c.ts', repo.read('c.ts'), 'function beta', 'beta');
    expect(subjects(walk)).toEqual(['move beta into c.ts', 'beta: plus one', 'two files']);
    expect(walk.commits[0]).toMatchObject({ event: 'moved', before: { path: 'a.ts', range: { start: 1, end: 3 } } });
  });

  it('within its own file (cut from the top, pasted at the bottom)', async () => {
    const repo = makeRepo('within');
    repo.write('a.ts', `${beta(['return y;'])}\n${FILLER}`);
    repo.commit('beta on top');
    repo.write('a.ts', `${beta(['return y * 2;'])}\n${FILLER}`);
    repo.commit('beta: double');
    repo.write('a.ts', `${FILLER}\n${beta(['return y * 2;'])}`);
    repo.commit('move beta to the bottom');
    const walk = await histOf(value(openRepo(repo.root)), 'a.ts', repo.read('a.ts'), 'function beta', 'beta');
    expect(subjects(walk)).toEqual(['move beta to the bottom', 'beta: double', 'beta on top']);
    expect(walk.commits[0]).toMatchObject({
      event: 'moved',
      before: { path: 'a.ts', range: { start: 1, end: 3 } },
      added: 0,
      deleted: 0,
    });
  });

  it('lists a merge against its first parent, never the merged branch commits', async () => {
    const { repo } = story();
    repo.git('checkout', '-q', '-b', 'feat');
    repo.write('b.ts', repo.read('b.ts').replace('y * 3', 'y * 4'));
    repo.commit('feat: times four');
    repo.write('b.ts', repo.read('b.ts').replace('console.log', 'console.info'));
    repo.commit('feat: info');
    repo.git('checkout', '-q', 'main');
    repo.write('a.ts', `${repo.read('a.ts')}\n// unrelated\n`);
    repo.commit('main: unrelated');
    repo.git('merge', '-q', '--no-ff', 'feat', '-m', 'Merge feat');
    const walk = await histOf(value(openRepo(repo.root)), 'b.ts', repo.read('b.ts'), 'function gamma', 'gamma');
    expect(subjects(walk).slice(0, 2)).toEqual(['Merge feat', 'move gamma to b.ts']);
    expect(walk.commits[0]).toMatchObject({ added: 2, deleted: 2 });
    expect(walk.commits[0].parents).toHaveLength(2);
    expect(subjects(walk)).not.toContain('feat: times four');
  });

  it('follows a renamed file and lists the rename', async () => {
    const repo = makeRepo('rename');
    repo.write('old.ts', `${FILLER}\n${beta(['return y;'])}`);
    repo.commit('add');
    repo.git('mv', 'old.ts', 'new.ts');
    repo.commit('rename the file');
    repo.write('new.ts', repo.read('new.ts').replace('return y;', 'return -y;'));
    repo.commit('negate');
    const walk = await histOf(value(openRepo(repo.root)), 'new.ts', repo.read('new.ts'), 'function beta');
    expect(subjects(walk)).toEqual(['negate', 'rename the file', 'add']);
    expect(walk.commits[1]).toMatchObject({ event: 'renamed', before: { path: 'old.ts' }, added: 0, deleted: 0 });
    expect(walk.commits[2].after.path).toBe('old.ts');
  });

  it('walks a whole file', async () => {
    const { repo } = story();
    const walk = value(await walkChecked(value(openRepo(repo.root)), { path: 'a.ts' }));
    expect(subjects(walk)).toEqual([
      'move gamma to b.ts',
      'rename beta to gamma',
      'beta: log',
      'alpha: plus two (outside the target)',
      'beta: plus one',
      'beta: triple',
      'add beta',
    ]);
    expect(walk.commits[0]).toMatchObject({ added: 0, deleted: 5 });
  });

  it('says where a shallow clone cuts history off', async () => {
    const { repo } = story();
    const clone = path.join(tempDir('shallow'), 'clone');
    const r = spawnSync('git', ['clone', '-q', '--depth', '3', `file://${repo.root}`, clone], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const shallowRepo = value(openRepo(clone));
    expect(shallowRepo.shallow.size).toBe(1);
    const text = require('node:fs').readFileSync(path.join(clone, 'b.ts'), 'utf8') as string;
    const walk = await histOf(shallowRepo, 'b.ts', text, 'function gamma', 'gamma');
    expect(subjects(walk)).toEqual(['move gamma to b.ts', 'rename beta to gamma', 'beta: log']);
    expect(walk.commits[2].event).toBe('boundary');
    expect(walk.shallow).toEqual({ commit: walk.commits[2].commit, date: '2024-01-06T12:00:00+00:00' });
  });

  it('stops at the deadline and says so', async () => {
    const { repo } = story();
    const walk = value(
      await walkHistory(value(openRepo(repo.root)), { path: 'b.ts', range: { start: 3, end: 7 } }, { deadlineMs: 1 }),
    );
    expect(walk.cut?.reason).toBe('time');
  });

  it('answers not_git outside a repository', () => {
    const dir = tempDir('plain');
    const out = openRepo(dir);
    expect(out.ok ? 'ok' : out.error.code).toBe('not_git');
  });
});

describe('uncommitted edits', () => {
  it('map the working tree lines to HEAD and count the change inside the target', () => {
    const { repo } = story();
    const r = value(openRepo(repo.root));
    repo.write('b.ts', `// a new first line\n${repo.read('b.ts').replace('return z + 1;', 'return z + 1; // staged')}`);
    repo.git('add', 'b.ts');
    repo.write('b.ts', repo.read('b.ts').replace('console.log(z);', 'console.log(z);\n  console.log(y);'));
    const working = spanOf(repo.read('b.ts'), 'function gamma');
    expect(working).toEqual({ start: 4, end: 9 });
    const mapped = value(mapToHead(r, { path: 'b.ts', range: working }));
    expect(mapped).toEqual({
      target: { path: 'b.ts', range: { start: 3, end: 7 } },
      uncommitted: { added: 2, deleted: 1 },
      inHead: true,
    });
    repo.write('new.ts', beta(['return 0;']));
    expect(value(mapToHead(r, { path: 'new.ts', range: { start: 1, end: 3 } }))).toEqual({ inHead: false });
  });
});

function recordOf(repo: Repo, c: HistCommit): ChangeRecord {
  return {
    repo: encodedPath(repo.top),
    commit: c.commit,
    ...(c.parents[0] ? { parent: c.parents[0] } : {}),
    after: { path: encodedPath(c.after.path), start_line: c.after.range!.start, end_line: c.after.range!.end },
    ...(c.before
      ? {
          before: {
            path: encodedPath(c.before.path),
            start_line: c.before.range!.start,
            end_line: c.before.range!.end,
          },
        }
      : {}),
    date: c.date,
    subject: c.subject,
    added: c.added,
    deleted: c.deleted,
    ...(c.event ? { event: c.event } : {}),
  };
}

describe('a change read back', () => {
  it("is the target's hunk, from verified blobs", async () => {
    const { repo } = story();
    const r = value(openRepo(repo.root));
    const walk = await histOf(r, 'b.ts', repo.read('b.ts'), 'function gamma', 'gamma');
    const plus = walk.commits.find((c) => c.subject === 'beta: plus one')!;
    const read = value(readChange(recordOf(r, plus)));
    const view = hunkView(read.before, read.after);
    expect(
      view.rows.filter((row) => row.mark !== ' ').map((row) => `${row.mark}${row.mark === '…' ? '' : row.text}`),
    ).toEqual(['-  return z;', '+  return z + 1;']);
    expect({ added: view.added, deleted: view.deleted }).toEqual({ added: plus.added, deleted: plus.deleted });
    // The after side's bytes are the commit's, exactly.
    const blob = repo.git('show', `${plus.commit}:a.ts`).split('\n');
    expect(
      read.after.bytes
        .toString('utf8')
        .split('\n')
        .slice(read.after.range.start - 1, read.after.range.end),
    ).toEqual(blob.slice(read.after.range.start - 1, read.after.range.end));
    const move = value(readChange(recordOf(r, walk.commits[0])));
    expect(hunkView(move.before, move.after).rows).toEqual([{ mark: '…', line: 3, count: 5 }]);
    expect(move.before?.path).toBe('a.ts');
  });

  it('answers history_missing once its commit vanished (a force-push, then gc)', async () => {
    const { repo } = story();
    repo.write('b.ts', repo.read('b.ts').replace('y * 3', 'y * 5'));
    repo.commit('times five (to be dropped)');
    const r = value(openRepo(repo.root));
    const walk = await histOf(r, 'b.ts', repo.read('b.ts'), 'function gamma', 'gamma');
    expect(walk.commits[0].subject).toBe('times five (to be dropped)');
    const record = recordOf(r, walk.commits[0]);
    expect(readChange(record).ok).toBe(true);
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    repo.git('reflog', 'expire', '--expire=now', '--all');
    repo.git('gc', '-q', '--prune=now');
    const out = readChange(record);
    expect(out.ok ? 'ok' : out.error.code).toBe('history_missing');
    expect(out.ok ? '' : out.error.message).toContain(record.commit.slice(0, 12));
  });
});

describe('blame', () => {
  it('skips a whitespace-only commit and keeps moved lines with their older commit', () => {
    const { repo, ids } = story();
    repo.write('b.ts', repo.read('b.ts').replace('  console.log(z);', '    console.log(z);'));
    repo.commit('reindent (whitespace only)');
    repo.write('b.ts', repo.read('b.ts').replace('return z + 1;', 'return z + 1; // uncommitted'));
    const r = value(openRepo(repo.root));
    const range = spanOf(repo.read('b.ts'), 'function gamma');
    const blame = value(blameRange(r, 'b.ts', range));
    const byLine = new Map<number, string | undefined>();
    for (const run of blame.runs) for (let l = run.lines.start; l <= run.lines.end; l++) byLine.set(l, run.commit);
    expect(byLine.get(range.start)).toBe(ids.rename);
    expect(byLine.get(range.start + 1)).toBe(ids.edit1);
    expect(byLine.get(range.start + 2)).toBe(ids.edit3);
    expect(byLine.get(range.start + 3)).toBeUndefined();
    expect([...byLine.values()]).not.toContain(repo.git('rev-parse', 'HEAD').trim());
    expect(blame.commits.get(ids.edit3)?.subject).toBe('beta: log');
  });
});

describe('since', () => {
  it('lists definitions added, removed and changed since a revision, staged and unstaged marked', () => {
    const { repo } = story();
    const r = value(openRepo(repo.root));
    const base = value(resolveRevision(r, 'HEAD'));
    repo.write('b.ts', repo.read('b.ts').replace('return z + 1;', 'return z + 7;'));
    repo.git('add', 'b.ts');
    repo.write(
      'a.ts',
      repo
        .read('a.ts')
        .replace('export function filler2(n: number): number {\n  return n * 2 + 14;\n}\n', '')
        .replace('return n * 3 + 21;', 'return  n * 3 + 21;'),
    );
    repo.write('c.ts', beta(['return 0;']));
    const since = value(sinceRevision(r, r.top, base, { uncommitted: true }));
    const rows = since.files.map(
      (f) =>
        `${f.path} ${f.status}${f.staged ? ' staged' : ''}${f.unstaged ? ' unstaged' : ''}: ${f.changes.map((c) => `${c.status} ${c.name}${c.whitespaceOnly ? ' (ws)' : ''}`).join(', ')}`,
    );
    expect(rows).toEqual([
      'a.ts modified unstaged: removed filler2, changed filler3 (ws)',
      'b.ts modified staged: changed gamma',
      'c.ts untracked unstaged: added beta',
    ]);
    expect(since.files.find((f) => f.path === 'b.ts')!.revision).toMatch(/^[0-9a-f]{64}$/);
    const bad = resolveRevision(r, 'no-such-branch');
    expect(bad.ok ? 'ok' : bad.error.code).toBe('bad_revision');
    // A range names several commits: refused, never quietly read as its newest one.
    for (const range of ['HEAD~1..HEAD', 'HEAD^..HEAD', 'HEAD~1...HEAD', '^HEAD~1', 'HEAD^@', 'HEAD^!']) {
      const refused = resolveRevision(r, range);
      expect({
        range,
        code: refused.ok ? 'ok' : refused.error.code,
        message: refused.ok ? '' : refused.error.message,
      }).toEqual({ range, code: 'bad_revision', message: expect.stringContaining('is a range') });
    }
    expect(resolveRevision(r, 'HEAD^').ok).toBe(true);
  });
});

const fn = (name: string, body: string[]) =>
  `export function ${name}(n: number): number {\n${body.map((l) => `  ${l}\n`).join('')}}\n`;
const FILE = [
  "import { x } from './x';",
  '',
  fn('alpha', ['return n + 1;']),
  '// between alpha and beta',
  fn('beta', ['const z = n * 2;', 'return z;']),
  fn('gamma', ['return n * 3;']),
].join('\n');

/** FILE with an import, a comment between functions, beta's body and gamma's indentation changed. */
function edited(): string {
  return FILE.replace("import { x } from './x';", "import { x, y } from './x';")
    .replace('// between alpha and beta', '// between alpha and beta, edited')
    .replace('  return z;', '  return z + 1;')
    .replace('  return n * 3;', '      return n * 3;');
}

describe('sinceRevision with hunks (diff)', () => {
  it('lists the edited function, marks the whitespace-only one, and keeps the hunks outside definitions', () => {
    const repo = makeRepo('diff');
    repo.write('a.ts', FILE);
    repo.write('notes.md', 'one\n');
    repo.commit('first');
    repo.write('a.ts', edited());
    repo.write('notes.md', 'one\ntwo\n');
    const r = value(openRepo(repo.root));
    const base = value(resolveRevision(r, 'HEAD'));
    const since = value(sinceRevision(r, r.top, base, { hunks: true }));
    const a = since.files.find((f) => f.path === 'a.ts')!;
    expect(a.changes.map((c) => `${c.status} ${c.name}${c.whitespaceOnly ? ' (ws)' : ''}`)).toEqual([
      'changed beta',
      'changed gamma (ws)',
    ]);
    const text = edited().split('\n');
    expect(a.outside!.map((h) => text.slice(h.after.start - 1, h.after.end))).toEqual([
      ["import { x, y } from './x';"],
      ['// between alpha and beta, edited'],
    ]);
    expect(a.beforeBytes!.toString()).toBe(FILE);
    expect(a.afterBytes!.toString()).toBe(edited());
    const notes = since.files.find((f) => f.path === 'notes.md')!;
    expect(notes.changes).toEqual([]);
    expect(notes.outside).toEqual([
      { before: { start: 2, end: 1 }, after: { start: 2, end: 2 }, added: 1, deleted: 0, whitespaceOnly: false },
    ]);
    // Without `hunks` (since) nothing extra is kept.
    const plain = value(sinceRevision(r, r.top, base)).files.find((f) => f.path === 'a.ts')!;
    expect(plain.outside).toBeUndefined();
    expect(plain.beforeBytes).toBeUndefined();
  });

  it('an outside hunk stored as a change record reads back to the same rows, verified', () => {
    const repo = makeRepo('diff-read');
    repo.write('a.ts', FILE);
    const commit = repo.commit('first');
    repo.write('a.ts', edited());
    const r = value(openRepo(repo.root));
    const since = value(sinceRevision(r, r.top, value(resolveRevision(r, 'HEAD')), { hunks: true }));
    const f = since.files[0];
    const h = f.outside![0];
    const record = {
      repo: encodedPath(r.top),
      commit,
      worktree: f.revision ?? NO_WORKTREE_FILE,
      date: '',
      subject: '',
      after: { path: 'a.ts', start_line: h.after.start, end_line: h.after.end },
      before: { path: 'a.ts', start_line: h.before.start, end_line: h.before.end },
      added: h.added,
      deleted: h.deleted,
    };
    const read = value(readChange(record, encodedPath(r.top)));
    const fromBytes = hunkView({ bytes: f.beforeBytes!, range: h.before }, { bytes: f.afterBytes!, range: h.after });
    expect(hunkView(read.before, read.after)).toEqual(fromBytes);
    expect(fromBytes.rows.map((row) => row.mark)).toEqual(['-', '+']);
  });
});
