import * as fs from 'node:fs';
import * as path from 'node:path';
import { belongsToMember, gitInfo, sameMemberByGit, worktreeStandIn } from '../src/index';
import { addWorktree, git, makeRepo, tempDir } from './git-fixtures';

describe('gitInfo', () => {
  it('reports a plain directory as outside any work tree', () => {
    expect(gitInfo(tempDir())).toEqual({ ok: true, value: { insideWorkTree: false } });
  });

  it('reports top level and common dir of a main checkout from a subdirectory', () => {
    const repo = makeRepo(path.join(tempDir(), 'repo'));
    expect(gitInfo(path.join(repo, 'src'))).toEqual({
      ok: true,
      value: {
        insideWorkTree: true,
        topLevel: repo,
        gitDir: path.join(repo, '.git'),
        commonDir: path.join(repo, '.git'),
        linkedWorktree: false,
      },
    });
  });

  it('reports a linked worktree with the main repository as common dir', () => {
    const base = tempDir();
    const repo = makeRepo(path.join(base, 'repo'));
    const wt = addWorktree(repo, path.join(base, 'wt'), 'feature');
    const result = gitInfo(path.join(wt, 'src'));
    expect(result.ok && result.value).toMatchObject({
      insideWorkTree: true,
      topLevel: wt,
      commonDir: path.join(repo, '.git'),
      linkedWorktree: true,
    });
    expect(result.ok && result.value.insideWorkTree && result.value.gitDir).toBe(
      path.join(repo, '.git', 'worktrees', 'wt'),
    );
  });

  it('canonicalizes paths reached through a symlink', () => {
    const base = tempDir();
    const repo = makeRepo(path.join(base, 'repo'));
    fs.symlinkSync(repo, path.join(base, 'alias'));
    const result = gitInfo(path.join(base, 'alias', 'src'));
    expect(result.ok && result.value.insideWorkTree && result.value.topLevel).toBe(repo);
  });

  it('treats the inside of .git as outside a work tree', () => {
    const repo = makeRepo(path.join(tempDir(), 'repo'));
    expect(gitInfo(path.join(repo, '.git'))).toEqual({ ok: true, value: { insideWorkTree: false } });
  });

  it('returns root_not_found for a missing directory', () => {
    const result = gitInfo(path.join(tempDir(), 'missing'));
    expect(!result.ok && result.error.code).toBe('root_not_found');
  });

  it('ignores an inherited GIT_DIR that points elsewhere', () => {
    const base = tempDir();
    const repo = makeRepo(path.join(base, 'repo'));
    const other = makeRepo(path.join(base, 'other'));
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(other, '.git');
    try {
      const result = gitInfo(repo);
      expect(result.ok && result.value.insideWorkTree && result.value.commonDir).toBe(path.join(repo, '.git'));
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });
});

describe('sameMemberByGit', () => {
  it('accepts a linked worktree anywhere, by common directory', () => {
    const base = tempDir();
    const member = makeRepo(path.join(base, 'member'));
    const wt = addWorktree(member, path.join(base, 'elsewhere', 'wt'), 'feature');
    expect(sameMemberByGit(member, wt)).toBe(true);
    expect(sameMemberByGit(member, path.join(wt, 'src'))).toBe(true);
    expect(worktreeStandIn(member, path.join(wt, 'src'))).toBe(wt);
  });

  it('accepts a linked worktree nested inside the member itself', () => {
    const member = makeRepo(path.join(tempDir(), 'member'));
    const wt = addWorktree(member, path.join(member, '.worktrees', 'wt'), 'nested');
    expect(sameMemberByGit(member, wt)).toBe(true);
  });

  it('rejects the member checkout itself, a clone, and an unrelated nested repository', () => {
    const base = tempDir();
    const member = makeRepo(path.join(base, 'member'));
    git(base, 'clone', '-q', member, path.join(base, 'clone'));
    const nested = makeRepo(path.join(member, 'vendor', 'lib'));
    expect(sameMemberByGit(member, path.join(member, 'src'))).toBe(false);
    expect(sameMemberByGit(member, path.join(base, 'clone'))).toBe(false);
    expect(sameMemberByGit(member, nested)).toBe(false);
    // ...but the nested repository is still part of the enclosing member by path.
    expect(belongsToMember(member, nested)).toBe(true);
  });

  it('rejects a linked worktree of an unrelated repository nested inside the member', () => {
    const base = tempDir();
    const member = makeRepo(path.join(base, 'member'));
    const other = makeRepo(path.join(base, 'other'));
    const foreignWt = addWorktree(other, path.join(member, 'foreign-wt'), 'x');
    expect(sameMemberByGit(member, foreignWt)).toBe(false);
    expect(belongsToMember(member, foreignWt)).toBe(true);
    expect(belongsToMember(other, foreignWt)).toBe(true);
  });

  it('never matches by path prefix alone', () => {
    const base = tempDir();
    const member = makeRepo(path.join(base, 'member'));
    const sibling = makeRepo(path.join(base, 'member-2'));
    expect(sameMemberByGit(member, sibling)).toBe(false);
    expect(belongsToMember(member, sibling)).toBe(false);
  });

  it('maps a member that is a subdirectory of its repository onto the same subdirectory of a worktree', () => {
    const base = tempDir();
    const repo = makeRepo(path.join(base, 'mono'));
    const memberRoot = path.join(repo, 'src');
    const wt = addWorktree(repo, path.join(base, 'wt'), 'feature');
    expect(worktreeStandIn(memberRoot, path.join(wt, 'src'))).toBe(path.join(wt, 'src'));
    expect(worktreeStandIn(memberRoot, wt)).toBeUndefined();
  });

  it('is false for directories outside any repository', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'plain'));
    expect(sameMemberByGit(path.join(base, 'plain'), base)).toBe(false);
  });
});
