// hist, blame and show of change handles end to end through the built CLI, on real Git
// repositories (issue 16): a function edited in three commits, renamed in a fourth and
// moved to another file in a fifth; a merge; a whitespace-only commit; uncommitted lines;
// a vanished commit; a shallow clone; since and diff against the working tree; the
// workspace member rule; every output within its budget (js-tiktoken counts).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CURSOR, HANDLE, makeRepo, runCli, tempDir, tokens, type Repo } from './cli';
import { datedGit, fillers, fn } from './git-history';

const { git, commit, advance } = datedGit('2024-02');
const FILLER = fillers(10, 3);

/** add, three edits of beta, a rename to gamma, a move to b.ts. */
function story(prefix = 'hist'): { repo: Repo; ids: Record<string, string> } {
  const repo = makeRepo({}, prefix);
  git(repo.root, 'checkout', '-q', '-b', 'main');
  const ids: Record<string, string> = {};
  const a = (f: string) => `${FILLER}\n${f}`;
  repo.write('a.ts', a(fn('beta', ['const z = y * 2;', 'return z;'])));
  ids.add = commit(repo.root, 'add beta');
  repo.write('a.ts', a(fn('beta', ['const z = y * 3;', 'return z;'])));
  ids.edit1 = commit(repo.root, 'beta: triple');
  repo.write('a.ts', a(fn('beta', ['const z = y * 3;', 'return z + 1;'])));
  ids.edit2 = commit(repo.root, 'beta: plus one');
  repo.write('a.ts', a(fn('beta', ['const z = y * 3;', 'console.log(z);', 'return z + 1;'])));
  ids.edit3 = commit(repo.root, 'beta: log');
  repo.write('a.ts', a(fn('gamma', ['const z = y * 3;', 'console.log(z);', 'return z + 1;'])));
  ids.rename = commit(repo.root, 'rename beta to gamma');
  repo.write('a.ts', FILLER);
  repo.write(
    'b.ts',
    `// gamma lives here now\n${fn('gamma', ['const z = y * 3;', 'console.log(z);', 'return z + 1;'])}`,
  );
  ids.move = commit(repo.root, 'move gamma to b.ts');
  return { repo, ids };
}

function within(run: { stdout: string }, budget: number): void {
  expect(tokens(run.stdout)).toBeLessThanOrEqual(budget);
}

describe('hist', () => {
  const { repo, ids } = story();

  it('follows three edits, a rename and a move to another file, newest first, within the budget', () => {
    // JSON costs more a row than lines: under the default budget it may page (by how the set id tokenizes).
    const small = repo.cli('hist', 'sym:gamma');
    within(small, 600);
    const page = small.json();
    if (page.hits.length < 6) expect(page.next).toMatch(CURSOR);
    const run = repo.cli('-b', '5000', 'hist', 'sym:gamma');
    expect(run.status).toBe(0);
    within(run, 5000);
    const out = run.json();
    expect(out.hits.map((h: any) => h.subject)).toEqual([
      'move gamma to b.ts',
      'rename beta to gamma',
      'beta: log',
      'beta: plus one',
      'beta: triple',
      'add beta',
    ]);
    expect(out.hits.map((h: any) => h.commit)).toEqual([
      ids.move,
      ids.rename,
      ids.edit3,
      ids.edit2,
      ids.edit1,
      ids.add,
    ]);
    expect(out.hits[0]).toMatchObject({
      path: 'b.ts',
      start_line: 2,
      end_line: 6,
      event: 'moved',
      added: 0,
      deleted: 0,
      from: { path: 'a.ts', start_line: 41, end_line: 45 },
    });
    expect(out.hits[1]).toMatchObject({ path: 'a.ts', added: 1, deleted: 1 });
    expect(out.hits[5]).toMatchObject({ event: 'added', added: 4, deleted: 0 });
    for (const h of out.hits) expect(h.handle).toMatch(HANDLE);
    expect(out.coverage).toMatchObject({ commits: 6, first_parent: true, moves: 1, complete: true });

    const lines = repo.lines('hist', 'sym:gamma');
    within(lines, 600);
    expect(lines.stdout).toMatch(/^hist sym:gamma → b\.ts:2-6 gamma {2}\(show [0-9a-z]{6,16}:N reads change N\)\n/);
    expect(lines.stdout).toMatch(/^1 2024-02-\d\d [0-9a-f]{7} \+0 -0 move gamma to b\.ts \(moved from a\.ts:41-45\)$/m);
    expect(lines.stdout).toMatch(/^a\.ts$/m);
    expect(lines.stdout).toMatch(
      /^coverage: 6 commits, first-parent from HEAD [0-9a-f]{7}; 1 move followed; complete$/m,
    );
  });

  it("show of a change handle prints the target's hunk of that commit, verified against the Git objects", () => {
    const out = repo.cli('-b', '5000', 'hist', 'sym:gamma').json();
    const plus = out.hits.find((h: any) => h.subject === 'beta: plus one');
    const shown = repo.cli('show', plus.handle);
    expect(shown.status).toBe(0);
    within(shown, 1200);
    const s = shown.json();
    expect(s).toMatchObject({
      handle: plus.handle,
      commit: ids.edit2,
      parent: ids.edit1,
      verified: 'git object',
      added: 1,
      deleted: 1,
    });
    expect(s.after.blob).toBe(git(repo.root, 'rev-parse', `${ids.edit2}:a.ts`).trim());
    expect(s.before.blob).toBe(git(repo.root, 'rev-parse', `${ids.edit1}:a.ts`).trim());
    expect(s.rows.filter((r: any) => r.mark !== ' ').map((r: any) => `${r.mark}${r.line} ${r.text}`)).toEqual([
      '-43   return z;',
      '+43   return z + 1;',
    ]);
    const lines = repo.lines('show', plus.handle);
    within(lines, 1200);
    expect(lines.stdout).toContain('\n-43\t  return z;\n+43\t  return z + 1;\n');
    // The move: nothing changed inside the target; the change line says where it came from.
    const move = repo.lines('show', out.hits[0].handle).stdout;
    expect(move).toMatch(/^change: moved from a\.ts:41-45$/m);
    expect(move).toMatch(/^… 5 unchanged lines 2-6$/m);
  });

  it('show --side before|after prints the exact bytes of either side, verified against the blob', () => {
    const out = repo.cli('-b', '5000', 'hist', 'sym:gamma').json();
    const move = out.hits[0];
    const before = repo.cli('show', move.handle, '--side', 'before').json();
    const parentLines = git(repo.root, 'show', `${ids.move}^:a.ts`).split('\n');
    expect(before).toMatchObject({
      path: 'a.ts',
      start_line: 41,
      end_line: 45,
      verified: 'git object',
      side: 'before',
      commit: ids.rename,
    });
    expect(before.revision).toBe(git(repo.root, 'rev-parse', `${ids.rename}:a.ts`).trim());
    expect(before.rows.map((r: any) => r.text)).toEqual(parentLines.slice(40, 45));
    const after = repo.cli('show', move.handle, '--side=after').json();
    expect(after.rows.map((r: any) => r.text)).toEqual(
      git(repo.root, 'show', `${ids.move}:b.ts`).split('\n').slice(1, 6),
    );
    const blob = Buffer.from(git(repo.root, 'show', `${ids.move}:b.ts`));
    for (const r of after.rows) expect(blob.subarray(r.start, r.end).toString('utf8')).toBe(r.text);
    const added = repo.cli('show', out.hits[5].handle, '--side', 'before');
    expect(added.status).toBe(2);
    expect(added.stderr).toMatch(/^trufflepig: side_missing: /);
    const wrong = repo.cli('show', move.handle, '--side', 'sideways');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^trufflepig: bad_arguments: --side takes before or after/);
    const hit = repo.cli('search', 'filler3').json().hits[0];
    const notChange = repo.cli('show', hit.handle, '--side', 'before');
    expect(notChange.stderr).toMatch(/^trufflepig: bad_arguments: --side reads one side of a change handle/);
  });

  it('pages with more and fits small budgets (a next cursor, a budget_too_small status)', () => {
    const first = repo.lines('-b', '150', 'hist', 'sym:gamma');
    expect(first.status).toBe(0);
    within(first, 150);
    // The cursor, then how far the page got, as refs, map and search pages say it.
    const next = /^next: more (\S+) \(\d+ of \d+ rows; stopped by -[nb]\)$/m.exec(first.stdout)?.[1];
    expect(next).toMatch(CURSOR);
    const second = repo.lines('-b', '150', 'more', next!);
    within(second, 150);
    expect(second.stdout).toMatch(/^hist sym:gamma → b\.ts:2-6 gamma/);
    const rowsOf = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^\d+ 2024/.test(l))
        .map((l) => Number(l.split(' ')[0]));
    expect(rowsOf(second.stdout)[0]).toBe(rowsOf(first.stdout).at(-1)! + 1);
    for (const b of [0, 10, 30]) {
      const tiny = repo.lines('-b', String(b), 'hist', 'sym:gamma');
      within(tiny, b);
      expect(tiny.status).toBe(0);
    }
    const out = repo.cli('-b', '5000', 'hist', 'sym:gamma').json();
    const showTiny = repo.lines('-b', '45', 'show', out.hits[1].handle);
    within(showTiny, 45);
    const cont = /^next: show (\S+)$/m.exec(showTiny.stdout)?.[1];
    if (cont !== undefined) {
      const rest = repo.lines('show', cont);
      expect(rest.status).toBe(0);
      within(rest, 1200);
    } else expect(showTiny.stdout).toMatch(/^status: budget_too_small needed=\d+$/m);
  });

  it('takes a handle and path:P[:A-B] as the target, and the whole file', () => {
    const def = repo.cli('show', 'sym:gamma').json();
    const byHandle = repo.cli('-b', '5000', 'hist', def.handle).json();
    expect(byHandle.hits.map((h: any) => h.commit)).toEqual([
      ids.move,
      ids.rename,
      ids.edit3,
      ids.edit2,
      ids.edit1,
      ids.add,
    ]);
    const byPath = repo.cli('-b', '5000', 'hist', 'path:b.ts:2-6').json();
    expect(byPath.hits.map((h: any) => h.commit)).toEqual(byHandle.hits.map((h: any) => h.commit));
    const whole = repo.cli('-b', '5000', 'hist', 'path:a.ts').json();
    expect(whole.target).toBe('a.ts (whole file)');
    expect(whole.hits.map((h: any) => h.commit)).toEqual([
      ids.move,
      ids.rename,
      ids.edit3,
      ids.edit2,
      ids.edit1,
      ids.add,
    ]);
    const shown = repo.cli('show', whole.hits[0].handle).json();
    expect(shown.rows.filter((r: any) => r.mark === '-')).toHaveLength(6);
    const none = repo.cli('hist', 'sym:noSuchThing');
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^trufflepig: no_definition: /);
  });

  it('reports uncommitted lines inside the target and maps the rest to HEAD', () => {
    const { repo: r } = story('hist-dirty');
    r.write(
      'b.ts',
      fs
        .readFileSync(r.abs('b.ts') as string, 'utf8')
        .replace('// gamma lives here now\n', '// one\n// two\n')
        .replace('return z + 1;', 'return z + 2;'),
    );
    const out = r.cli('-b', '5000', 'hist', 'path:b.ts:3-7').json();
    expect(out.notes).toEqual(['uncommitted: +1 -1 inside the target (in no commit yet)']);
    expect(out.coverage.uncommitted).toEqual({ added: 1, deleted: 1 });
    expect(out.hits[0]).toMatchObject({ subject: 'move gamma to b.ts', start_line: 2, end_line: 6 });
    r.write('new.ts', fn('fresh', ['return 1;']));
    const fresh = r.cli('hist', 'path:new.ts');
    expect(fresh.status).toBe(0);
    expect(fresh.json()).toMatchObject({ hits: [], coverage: { commits: 0, not_in_head: true } });
  });
});

describe('hist on merges, rewritten history and shallow clones', () => {
  it('lists a merge against its first parent only', () => {
    const { repo } = story('merge');
    git(repo.root, 'checkout', '-q', '-b', 'feat');
    const b = () => fs.readFileSync(repo.abs('b.ts') as string, 'utf8');
    repo.write('b.ts', b().replace('y * 3', 'y * 4'));
    commit(repo.root, 'feat: times four');
    repo.write('b.ts', b().replace('console.log', 'console.info'));
    commit(repo.root, 'feat: info');
    git(repo.root, 'checkout', '-q', 'main');
    repo.write('a.ts', `${fs.readFileSync(repo.abs('a.ts') as string, 'utf8')}// unrelated\n`);
    commit(repo.root, 'main: unrelated');
    advance();
    git(repo.root, 'merge', '-q', '--no-ff', 'feat', '-m', 'Merge feat');
    const out = repo.cli('-b', '5000', 'hist', 'sym:gamma').json();
    const subjects = out.hits.map((h: any) => h.subject);
    expect(subjects.slice(0, 2)).toEqual(['Merge feat', 'move gamma to b.ts']);
    expect(subjects).not.toContain('feat: times four');
    expect(subjects).not.toContain('feat: info');
    expect(out.hits[0]).toMatchObject({ merge: true, added: 2, deleted: 2 });
    const shown = repo.cli('show', out.hits[0].handle).json();
    expect(shown.rows.filter((r: any) => r.mark === '+').map((r: any) => r.text)).toEqual([
      '  const z = y * 4;',
      '  console.info(z);',
    ]);
  });

  it('a change whose commit vanished (force-push, then gc) answers history_missing, never other bytes', () => {
    const { repo } = story('vanish');
    repo.write('b.ts', fs.readFileSync(repo.abs('b.ts') as string, 'utf8').replace('y * 3', 'y * 9'));
    const dropped = commit(repo.root, 'times nine (force-pushed away)');
    const out = repo.cli('-b', '5000', 'hist', 'sym:gamma').json();
    expect(out.hits[0].commit).toBe(dropped);
    expect(repo.cli('show', out.hits[0].handle).status).toBe(0);
    git(repo.root, 'reset', '-q', '--hard', 'HEAD~1');
    git(repo.root, 'reflog', 'expire', '--expire=now', '--all');
    git(repo.root, 'gc', '-q', '--prune=now');
    for (const args of [[out.hits[0].handle], [out.hits[0].handle, '--side', 'after']]) {
      const gone = repo.cli('show', ...args);
      expect(gone.status).toBe(2);
      expect(gone.json().error.code).toBe('history_missing');
      expect(gone.stderr).toContain(`commit ${dropped.slice(0, 12)} is no longer in`);
      const lines = repo.lines('show', ...args);
      expect(lines.stdout).toBe('');
      expect(lines.stderr).toMatch(/^trufflepig: history_missing: /);
    }
  });

  it('in a shallow clone, coverage says how far back history goes', () => {
    const { repo } = story('shallow-src');
    const clone = path.join(tempDir('shallow'), 'clone');
    expect(spawnSync('git', ['clone', '-q', '--depth', '2', `file://${repo.root}`, clone]).status).toBe(0);
    const cache = path.join(path.dirname(clone), 'cache');
    const out = runCli(['--root', clone, '--cache', cache, '-b', '5000', 'hist', 'path:b.ts:2-6']).json();
    expect(out.hits.map((h: any) => h.subject)).toEqual(['move gamma to b.ts', 'rename beta to gamma']);
    expect(out.hits[1].event).toBe('boundary');
    expect(out.coverage).toMatchObject({ complete: false, shallow: { commit: out.hits[1].commit } });
    const lines = runCli(['--root', clone, '--cache', cache, 'hist', 'path:b.ts:2-6'], undefined, {
      lines: true,
    }).stdout;
    expect(lines).toMatch(/; shallow clone: no commits before [0-9a-f]{7} \(2024-02-\d\d\)$/m);
    expect(lines).toMatch(/\(shallow clone: history starts here\)$/m);
  });

  it('outside a Git work tree answers not_git', () => {
    const dir = tempDir('plain');
    fs.writeFileSync(path.join(dir, 'x.ts'), 'export const x = 1;\n');
    const r = runCli(['--root', dir, '--cache', path.join(tempDir('plain-cache'), 'c'), 'hist', 'path:x.ts']);
    expect(r.status).toBe(2);
    expect(r.json().error.code).toBe('not_git');
  });
});

describe('blame', () => {
  it('skips a whitespace-only commit, names uncommitted lines, and reads each run back', () => {
    const { repo, ids } = story('blame');
    const b = () => fs.readFileSync(repo.abs('b.ts') as string, 'utf8');
    repo.write('b.ts', b().replace('  console.log(z);', '      console.log(z);'));
    const ws = commit(repo.root, 'reindent (whitespace only)');
    repo.write('b.ts', b().replace('return z + 1;', 'return z + 1; // not committed'));
    const run = repo.cli('-b', '3000', 'blame', 'sym:gamma');
    expect(run.status).toBe(0);
    within(run, 3000);
    const out = run.json();
    const byLine = new Map<number, any>();
    for (const h of out.hits) for (let l = h.start_line; l <= h.end_line; l++) byLine.set(l, h);
    expect(byLine.get(2).commit).toBe(ids.rename);
    expect(byLine.get(3).commit).toBe(ids.edit1);
    expect(byLine.get(4).commit).toBe(ids.edit3);
    expect(byLine.get(5)).toMatchObject({ uncommitted: true });
    expect(out.hits.map((h: any) => h.commit)).not.toContain(ws);
    expect(out.coverage).toMatchObject({ lines: 5, uncommitted_lines: 1 });
    const lines = repo.lines('blame', 'sym:gamma');
    within(lines, 600);
    expect(lines.stdout).toMatch(/^\d+ 4-4 [0-9a-f]{7} 2024-02-\d\d beta: log$/m);
    expect(lines.stdout).toMatch(/^\d+ 5-5 uncommitted$/m);
    // A run's handle shows that commit's change of those lines; an uncommitted run's shows the current bytes.
    const log = repo.cli('show', byLine.get(4).handle).json();
    expect(log).toMatchObject({ commit: ids.edit3, verified: 'git object' });
    expect(log.rows.filter((r: any) => r.mark === '+').map((r: any) => r.text)).toEqual(['  console.log(z);']);
    const now = repo.cli('show', byLine.get(5).handle).json();
    expect(now.rows.map((r: any) => r.text)).toEqual(['  return z + 1; // not committed']);
  });
});

describe('history verbs in a workspace', () => {
  it('need a member (home or --member): one revision is never resolved across repositories', () => {
    const base = tempDir('hist-space');
    // Member one is the story's repository, moved inside the workspace's directory.
    const oneRoot = path.join(base, 'one');
    fs.renameSync(story('member-one').repo.root, oneRoot);
    const two = path.join(base, 'two');
    fs.mkdirSync(two);
    git(two, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(two, 'b.ts'), fn('other', ['return y;']));
    commit(two, 'two: add other');
    fs.writeFileSync(
      path.join(base, 'trufflepig.workspace.toml'),
      `[workspace]\nname = "pair"\n\n[members.one]\npath = "one"\n\n[members.two]\npath = "two"\n`,
    );
    const cache = path.join(tempDir('hist-space-cache'), 'c');
    const at = (cwd: string, ...args: string[]) => runCli(['--cache', cache, ...args], cwd);
    const outside = at(base, 'hist', 'path:b.ts');
    expect(outside.status).toBe(2);
    expect(outside.json().error.code).toBe('member_required');
    expect(at(base, 'blame', 'sym:gamma').json().error.code).toBe('member_required');
    expect(at(base, 'since', '--uncommitted').json().error.code).toBe('member_required');
    expect(at(base, '--member', 'two', 'since', 'HEAD').json()).toMatchObject({ hits: [], coverage: { changes: 0 } });
    expect(at(base, 'diff', 'HEAD').json().error.code).toBe('member_required');
    fs.writeFileSync(path.join(two, 'b.ts'), fn('other', ['return y + 1;']));
    const twoDiff = at(base, '--member', 'two', 'diff', 'HEAD').json();
    expect(twoDiff.hits.map((h: any) => `${h.member} ${h.path} ${h.name} ${h.section}`)).toEqual([
      'two b.ts other definition',
    ]);
    expect(at(base, 'show', twoDiff.hits[0].handle).json()).toMatchObject({
      member: 'two',
      verified: 'git object and revision',
    });
    const chosen = at(base, '-b', '5000', '--member', 'two', 'hist', 'path:b.ts').json();
    expect(chosen.hits.map((h: any) => h.subject)).toEqual(['two: add other']);
    expect(chosen.hits[0].member).toBe('two');
    expect(chosen.target).toBe('two/b.ts (whole file)');
    const home = at(oneRoot, '-b', '5000', 'hist', 'sym:gamma').json();
    expect(home.hits[0]).toMatchObject({ member: 'one', subject: 'move gamma to b.ts' });
    // A handle reads back from anywhere in the workspace, from its own member's repository.
    const shown = at(base, 'show', home.hits[0].handle, '--side', 'after').json();
    expect(shown).toMatchObject({ member: 'one', path: 'b.ts', verified: 'git object' });
    expect(at(base, 'hist', 'in:one', 'sym:gamma').status).toBe(2);
  });
});

describe('since', () => {
  it('since --uncommitted lists staged and unstaged definition changes by file, each with a handle to its diff', () => {
    const { repo } = story('since');
    const read = (rel: string) => fs.readFileSync(repo.abs(rel) as string, 'utf8');
    repo.write('b.ts', read('b.ts').replace('return z + 1;', 'return z + 7;'));
    git(repo.root, 'add', 'b.ts');
    repo.write('a.ts', read('a.ts').replace('return n * 4 + 12;', 'return   n * 4 + 12;'));
    repo.write('c.ts', fn('fresh', ['return 0;']));
    const run = repo.lines('since', '--uncommitted');
    expect(run.status).toBe(0);
    within(run, 600);
    expect(run.stdout).toMatch(
      /^since --uncommitted → working tree uncommitted \(staged and unstaged\) against HEAD [0-9a-f]{7} {2}\(show [0-9a-z]{6,16}:N reads diff N\)$/m,
    );
    expect(run.stdout).toContain(
      '\na.ts (unstaged)\n1 ~ function filler4 17-19 whitespace only\nb.ts (staged)\n2 ~ function gamma 2-6 +1 -1\nc.ts (untracked)\n3 + function fresh 1-3 +3 -0\n',
    );
    const out = repo.cli('-b', '5000', 'since', '--uncommitted').json();
    const gamma = out.hits.find((h: any) => h.name === 'gamma');
    const shown = repo.cli('show', gamma.handle).json();
    expect(shown).toMatchObject({
      verified: 'git object and revision',
      since: git(repo.root, 'rev-parse', 'HEAD').trim(),
    });
    expect(shown.rows.filter((r: any) => r.mark !== ' ').map((r: any) => `${r.mark}${r.text}`)).toEqual([
      '-  return z + 1;',
      '+  return z + 7;',
    ]);
    const after = repo.cli('show', gamma.handle, '--side', 'after').json();
    expect(after).toMatchObject({ verified: 'revision', worktree: true });
    expect(after.rows.map((r: any) => r.text)).toEqual(read('b.ts').split('\n').slice(1, 6));
    // The working file changed since: its diff handle no longer reads.
    repo.write('b.ts', read('b.ts').replace('y * 3', 'y * 8'));
    const stale = repo.cli('show', gamma.handle);
    expect(stale.status).toBe(2);
    expect(stale.json().error.code).toBe('stale_source');
  });

  it('since REV compares a commit with the working tree; a TARGET narrows it; a bad REV is bad_revision', () => {
    const { repo, ids } = story('since-rev');
    const out = repo.cli('-b', '5000', 'since', ids.edit2).json();
    expect(out.hits.map((h: any) => `${h.path} ${h.status} ${h.name}`)).toEqual([
      'a.ts removed beta',
      'b.ts added gamma',
    ]);
    expect(out.hits[0]).toMatchObject({ before: { path: 'a.ts', start_line: 41, end_line: 44 }, deleted: 4 });
    const removed = repo.cli('show', out.hits[0].handle).json();
    expect(removed.rows.map((r: any) => r.mark)).toEqual(['-', '-', '-', '-']);
    const narrowed = repo.cli('-b', '5000', 'since', ids.edit2, 'path:b.ts').json();
    expect(narrowed.hits.map((h: any) => h.name)).toEqual(['gamma']);
    const bad = repo.cli('since', 'no-such-rev');
    expect(bad.status).toBe(2);
    expect(bad.json().error.code).toBe('bad_revision');
    const lines = repo.lines('-b', '60', 'since', ids.add);
    within(lines, 60);
  });
});

describe('diff', () => {
  /** The story, then: gamma edited (staged), filler4 re-indented, a note after the last filler, an untracked document. */
  function edited(prefix: string): { repo: Repo; ids: Record<string, string> } {
    const made = story(prefix);
    const read = (rel: string) => fs.readFileSync(made.repo.abs(rel) as string, 'utf8');
    made.repo.write('b.ts', read('b.ts').replace('return z + 1;', 'return z + 5;'));
    git(made.repo.root, 'add', 'b.ts');
    made.repo.write(
      'a.ts',
      `${read('a.ts').replace('return n * 4 + 12;', 'return   n * 4 + 12;')}// a note after the fillers\n`,
    );
    made.repo.write('notes.md', 'first note\n');
    return made;
  }

  it('lists the changed definitions with their hunks first, whitespace-only ones marked, then the hunks outside any definition', () => {
    const { repo } = edited('diff');
    const run = repo.lines('diff', 'HEAD');
    expect(run.status).toBe(0);
    within(run, 600);
    expect(run.stdout).toMatch(
      /^diff HEAD → working tree since HEAD [0-9a-f]{7} {2}\(show [0-9a-z]{6,16}:N reads diff N\)$/m,
    );
    expect(run.stdout).toContain(
      '\na.ts\n1 ~ function filler4 17-19 whitespace only\n 17\texport function filler4(n: number): number {\n-18\t  return n * 4 + 12;\n+18\t  return   n * 4 + 12;\n 19\t}\n',
    );
    expect(run.stdout).toContain('\nb.ts\n2 ~ function gamma 2-6 +1 -1\n');
    expect(run.stdout).toContain('\n-5\t  return z + 1;\n+5\t  return z + 5;\n');
    expect(run.stdout).toContain(
      '\noutside definitions:\na.ts\n3 hunk 40-40 +1 -0\n+40\t// a note after the fillers\nnotes.md (untracked)\n4 hunk 1-1 +1 -0\n+1\tfirst note\n',
    );
    expect(run.stdout).toMatch(
      /^coverage: 4 changes in 3 files \(2 definitions, 2 hunks outside definitions\), since HEAD [0-9a-f]{7}$/m,
    );
    const out = repo.cli('-b', '5000', 'diff', 'HEAD').json();
    expect(out.hits.map((h: any) => `${h.section} ${h.path} ${h.name ?? ''}`.trim())).toEqual([
      'definition a.ts filler4',
      'definition b.ts gamma',
      'outside a.ts',
      'outside notes.md',
    ]);
    expect(out.hits[0]).toMatchObject({ whitespace_only: true, status: 'changed', start_line: 17, end_line: 19 });
    expect(out.hits[3]).toMatchObject({ status: 'added', added: 1, deleted: 0 });
    expect(out.hits[1].rows.filter((r: any) => r.mark !== ' ').map((r: any) => `${r.mark}${r.line} ${r.text}`)).toEqual(
      ['-5   return z + 1;', '+5   return z + 5;'],
    );
    expect(out.coverage).toMatchObject({ definitions: 2, hunks: 2, changes: 4, complete: true, uncommitted: false });
  });

  it('each change handle shows back what the page printed, verified against the Git objects and the working file', () => {
    const { repo } = edited('diff-show');
    const out = repo.cli('-b', '5000', 'diff', 'HEAD').json();
    for (const hit of out.hits) {
      const shown = repo.cli('show', hit.handle).json();
      expect(shown).toMatchObject({ handle: hit.handle, since: git(repo.root, 'rev-parse', 'HEAD').trim() });
      expect(shown.rows).toEqual(hit.rows);
    }
    const note = repo.cli('show', out.hits[2].handle, '--side', 'before').json();
    expect(note).toMatchObject({
      verified: 'git object',
      revision: git(repo.root, 'rev-parse', 'HEAD:a.ts').trim(),
      rows: [],
    });
    const gamma = repo.cli('show', out.hits[1].handle, '--side', 'after').json();
    expect(gamma).toMatchObject({ verified: 'revision', worktree: true });
    // The working file changed since: the handle no longer reads, and more says so in place of the rows.
    const paged = repo.lines('-n', '1', 'diff', 'HEAD');
    repo.write('b.ts', fs.readFileSync(repo.abs('b.ts') as string, 'utf8').replace('y * 3', 'y * 8'));
    expect(repo.cli('show', out.hits[1].handle).json().error.code).toBe('stale_source');
    const cursor = /^next: more (\S+)$/m.exec(paged.stdout)?.[1];
    expect(cursor).toMatch(CURSOR);
    const rest = repo.cli('-b', '5000', 'more', cursor!).json();
    expect(rest.hits[0]).toMatchObject({
      path: 'b.ts',
      name: 'gamma',
      error: expect.stringMatching(/^stale_source: /),
    });
    expect(rest.hits[0].rows).toBeUndefined();
    for (const h of rest.hits.filter((x: any) => x.path !== 'b.ts')) expect(h.rows.length).toBeGreaterThan(0);
  });

  it('--target restricts the diff to a definition, a file or lines', () => {
    const { repo } = edited('diff-target');
    const sym = repo.cli('-b', '5000', 'diff', 'HEAD', '--target', 'sym:gamma').json();
    expect(sym.target).toBe('b.ts:2-6 gamma');
    expect(sym.hits.map((h: any) => h.name)).toEqual(['gamma']);
    const file = repo.cli('-b', '5000', 'diff', 'HEAD', '--target=path:a.ts').json();
    expect(file.hits.map((h: any) => `${h.section} ${h.start_line}-${h.end_line}`)).toEqual([
      'definition 17-19',
      'outside 40-40',
    ]);
    const lines = repo.cli('-b', '5000', 'diff', 'HEAD', '--target', 'path:a.ts:38-40').json();
    expect(lines.hits.map((h: any) => `${h.section} ${h.start_line}-${h.end_line}`)).toEqual(['outside 40-40']);
    const handle = repo.cli('show', 'sym:filler4').json().handle;
    expect(
      repo
        .cli('-b', '5000', 'diff', 'HEAD', '--target', handle)
        .json()
        .hits.map((h: any) => h.name),
    ).toEqual(['filler4']);
  });

  it('--uncommitted compares HEAD with the working tree, each file marked staged or unstaged', () => {
    const { repo } = edited('diff-uncommitted');
    const run = repo.lines('diff', '--uncommitted');
    within(run, 600);
    expect(run.stdout).toMatch(
      /^diff --uncommitted → working tree uncommitted \(staged and unstaged\) against HEAD [0-9a-f]{7} /m,
    );
    expect(run.stdout).toMatch(/^b\.ts \(staged\)$/m);
    expect(run.stdout).toMatch(/^a\.ts \(unstaged\)$/m);
    expect(repo.cli('diff', '--uncommitted').json().coverage).toMatchObject({ uncommitted: true });
  });

  it('fits the budget: pages with more, a change cut short ends in its show continuation, tiny budgets answer a status', () => {
    const { repo } = edited('diff-budget');
    const first = repo.lines('-b', '150', 'diff', 'HEAD');
    expect(first.status).toBe(0);
    within(first, 150);
    const next = /^next: more (\S+)$/m.exec(first.stdout)?.[1];
    expect(next).toMatch(CURSOR);
    const second = repo.lines('-b', '150', 'more', next!);
    within(second, 150);
    expect(second.stdout).toMatch(/^diff HEAD → /);
    const rowsOf = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^\d+ (~|\+|-|hunk) /.test(l))
        .map((l) => Number(l.split(' ')[0]));
    expect(rowsOf(second.stdout)[0]).toBe(rowsOf(first.stdout).at(-1)! + 1);
    // Some budget cuts gamma's hunk short: its row, its first rows, and the continuation that shows the rest.
    let cut = 0;
    for (let b = 100; b <= 220; b += 10) {
      const page = repo.lines('-b', String(b), 'more', next!);
      within(page, b);
      const rest = /^rest: show (\S+~(\d+))$/m.exec(page.stdout);
      if (rest === null) continue;
      cut++;
      const shown = repo.lines('show', rest[1]);
      expect(shown.status).toBe(0);
      const full = repo
        .lines('-b', '5000', 'show', rest[1].replace(/~\d+$/, ''))
        .stdout.split('\n')
        .filter((l) => /^[ +-]\d+:/.test(l));
      expect(shown.stdout.split('\n').filter((l) => /^[ +-]\d+:/.test(l))).toEqual(full.slice(Number(rest[2])));
    }
    expect(cut).toBeGreaterThan(0);
    for (const b of [0, 10, 40]) {
      const tiny = repo.lines('-b', String(b), 'diff', 'HEAD');
      expect(tiny.status).toBe(0);
      within(tiny, b);
    }
    for (const b of [100, 250, 600]) within(repo.cli('-b', String(b), 'diff', 'HEAD'), b);
  });

  it('a REV that names no commit is bad_revision; a missing REV or a stray word is bad_arguments', () => {
    const { repo } = edited('diff-bad');
    const bad = repo.cli('diff', 'no-such-rev');
    expect(bad.status).toBe(2);
    expect(bad.json().error.code).toBe('bad_revision');
    expect(repo.lines('diff', 'no-such-rev').stderr).toMatch(/^trufflepig: bad_revision: no-such-rev names no commit/);
    expect(repo.lines('diff').stderr).toMatch(/^trufflepig: bad_arguments: diff needs a REV/);
    expect(repo.cli('diff', 'HEAD', 'path:a.ts').json().error).toMatchObject({
      code: 'bad_arguments',
      message: expect.stringMatching(/--target/),
    });
    expect(repo.cli('diff', 'HEAD', '--target').json().error.code).toBe('bad_arguments');
    expect(repo.lines('help').stdout).toMatch(/^ {2}diff REV \[--target TARGET\]$/m);
    expect(repo.lines('patch', 'HEAD').stderr).toMatch(/did you mean: trufflepig diff REV/);
  });
});
