// headStamp (repo.ts): read from files, it must change whenever Git moves HEAD, in the main
// worktree and in a linked one, and stay the same while nothing moves it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { headStamp, openRepo, type Repo } from '../src';
import { makeRepo, tempDir } from './repo';

function repoOf(root: string): Repo {
  const r = openRepo(root);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('headStamp', () => {
  it('changes with every commit, checkout, reset and detached checkout, and only then', () => {
    const repo = makeRepo('stamp');
    repo.write('a.txt', 'one\n');
    const first = repo.commit('one');
    const r = repoOf(repo.root);
    const stamps = [headStamp(r)];
    const expectNew = () => {
      const s = headStamp(r);
      expect(s).toBeDefined();
      expect(stamps).not.toContain(s);
      stamps.push(s);
    };
    // An edit of the work tree and a read of the log move nothing.
    repo.write('a.txt', 'edited\n');
    repo.git('log', '-q', '--oneline');
    expect(headStamp(r)).toBe(stamps[0]);
    repo.commit('two');
    expectNew();
    repo.git('checkout', '-q', '-b', 'topic');
    expectNew();
    repo.commit('three');
    expectNew();
    repo.git('reset', '-q', '--hard', first);
    expectNew();
    repo.git('checkout', '-q', '--detach', 'main');
    expectNew();
    repo.git('pack-refs', '--all');
    repo.git('checkout', '-q', 'main');
    expectNew();
  });

  it("reads a linked worktree's own HEAD, not the main worktree's", () => {
    const repo = makeRepo('stamp-wt');
    repo.write('a.txt', 'one\n');
    repo.commit('one');
    const linked = path.join(tempDir('stamp-linked'), 'wt');
    repo.git('worktree', 'add', '-q', '-b', 'side', linked);
    const main = repoOf(repo.root);
    const side = repoOf(linked);
    expect(side.headFile).not.toBe(main.headFile);
    expect(fs.existsSync(side.headFile)).toBe(true);
    const mainBefore = headStamp(main);
    const sideBefore = headStamp(side);
    repo.git('-C', linked, 'commit', '-q', '--allow-empty', '-m', 'on side');
    expect(headStamp(side)).not.toBe(sideBefore);
    expect(headStamp(main)).toBe(mainBefore);
  });

  it('is undefined when HEAD cannot be read', () => {
    expect(
      headStamp({ headFile: path.join(tempDir('stamp-none'), 'HEAD'), commonDir: '/nonexistent' }),
    ).toBeUndefined();
  });
});
