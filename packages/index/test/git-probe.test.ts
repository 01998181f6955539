// probeGit remembers its answer while the files HEAD is read from are unchanged (a daemon
// probes on every reconcile): every way HEAD moves must still be seen at once. Real
// repositories, real git.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { probeGit } from '../src/reconcile/git-log';
import { gitInit, tempDir } from './helpers';

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
}

const head = (root: string) => git(root, 'rev-parse', 'HEAD').trim();

function commit(root: string, file: string, text: string): string {
  fs.writeFileSync(path.join(root, file), text);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', `write ${file}`);
  return head(root);
}

describe('probeGit', () => {
  it('sees every move of HEAD: a first commit, commits, branches, resets, packed and detached refs', () => {
    const root = tempDir('probe');
    gitInit(root);
    expect(probeGit(root)).toEqual({ state: 'no_commits' });
    const first = commit(root, 'a.txt', 'one\n');
    expect(probeGit(root)).toEqual({ state: 'indexed', head: first });
    expect(probeGit(root)).toEqual({ state: 'indexed', head: first });
    const second = commit(root, 'a.txt', 'two\n');
    expect(probeGit(root).head).toBe(second);
    git(root, 'checkout', '-q', '-b', 'side', first);
    expect(probeGit(root).head).toBe(first);
    const side = commit(root, 'b.txt', 'side\n');
    expect(probeGit(root).head).toBe(side);
    git(root, 'reset', '-q', '--hard', first);
    expect(probeGit(root).head).toBe(first);
    git(root, 'pack-refs', '--all');
    expect(probeGit(root).head).toBe(first);
    git(root, 'checkout', '-q', '--detach', second);
    expect(probeGit(root).head).toBe(second);
    // A ref changed in packed-refs alone (no loose file): `update-ref` after pack-refs.
    git(root, 'checkout', '-q', 'side');
    git(root, 'pack-refs', '--all');
    git(root, 'update-ref', 'refs/heads/side', second);
    expect(probeGit(root).head).toBe(second);
  });

  it('a root that stops being a repository says so', () => {
    const root = tempDir('probe-gone');
    gitInit(root);
    commit(root, 'a.txt', 'one\n');
    expect(probeGit(root).state).toBe('indexed');
    fs.rmSync(path.join(root, '.git'), { recursive: true });
    expect(probeGit(root)).toEqual({ state: 'not_git' });
  });
});
