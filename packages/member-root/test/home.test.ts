import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkExplicitRoot, checkRoots, findHome, matchExplicitRoot } from '../src/index';
import { addWorktree, makeRepo, tempDir } from './git-fixtures';

function workspace() {
  const base = tempDir();
  const alpha = makeRepo(path.join(base, 'alpha'));
  const beta = makeRepo(path.join(base, 'beta'));
  fs.mkdirSync(path.join(base, 'outside'));
  return {
    base,
    alpha,
    beta,
    members: [
      { name: 'alpha', root: alpha },
      { name: 'beta', root: beta },
    ],
  };
}

describe('findHome', () => {
  it('returns the member containing the invocation directory, with its full configured root', () => {
    const { alpha, members } = workspace();
    expect(findHome(members, path.join(alpha, 'src'))).toEqual({ name: 'alpha', root: alpha, worktree: false });
  });

  it('returns undefined outside every member', () => {
    const { base, members } = workspace();
    expect(findHome(members, path.join(base, 'outside'))).toBeUndefined();
  });

  it('compares canonical paths: a symlinked invocation dir and a symlinked member root both match', () => {
    const { base, alpha } = workspace();
    fs.symlinkSync(alpha, path.join(base, 'alpha-link'));
    const viaLink = [{ name: 'alpha', root: path.join(base, 'alpha-link') }];
    expect(findHome(viaLink, path.join(alpha, 'src'))).toEqual({ name: 'alpha', root: alpha, worktree: false });
    expect(findHome([{ name: 'alpha', root: alpha }], path.join(base, 'alpha-link', 'src'))).toEqual({
      name: 'alpha',
      root: alpha,
      worktree: false,
    });
  });

  it('makes a linked worktree outside all members home for its member', () => {
    const { base, alpha, members } = workspace();
    const wt = addWorktree(alpha, path.join(base, 'outside', 'alpha-wt'), 'feature');
    expect(findHome(members, path.join(wt, 'src'))).toEqual({ name: 'alpha', root: wt, worktree: true });
  });

  it('makes a linked worktree nested in its own member home as that worktree', () => {
    const { alpha, members } = workspace();
    const wt = addWorktree(alpha, path.join(alpha, '.worktrees', 'feature'), 'feature');
    expect(findHome(members, wt)).toEqual({ name: 'alpha', root: wt, worktree: true });
  });

  it('prefers the worktree owner over path containment in another member', () => {
    const { alpha, beta, members } = workspace();
    const wt = addWorktree(alpha, path.join(beta, 'alpha-wt'), 'feature');
    expect(findHome(members, wt)).toEqual({ name: 'alpha', root: wt, worktree: true });
  });

  it('keeps an unrelated nested repository part of its enclosing member', () => {
    const { alpha, members } = workspace();
    const nested = makeRepo(path.join(alpha, 'third_party', 'lib'));
    expect(findHome(members, path.join(nested, 'src'))).toEqual({ name: 'alpha', root: alpha, worktree: false });
  });

  it('picks the deepest containing member when roots overlap', () => {
    const { alpha } = workspace();
    const members = [
      { name: 'outer', root: alpha },
      { name: 'inner', root: path.join(alpha, 'src') },
    ];
    expect(findHome(members, path.join(alpha, 'src'))?.name).toBe('inner');
    expect(findHome(members.slice().reverse(), path.join(alpha, 'src'))?.name).toBe('inner');
  });

  it('tolerates missing member roots', () => {
    const { base, alpha } = workspace();
    const members = [
      { name: 'gone', root: path.join(base, 'gone') },
      { name: 'alpha', root: alpha },
    ];
    expect(findHome(members, alpha)?.name).toBe('alpha');
  });
});

describe('matchExplicitRoot', () => {
  it('matches a member root exactly, also through a symlink alias', () => {
    const { base, alpha, members } = workspace();
    fs.symlinkSync(alpha, path.join(base, 'alias'));
    expect(matchExplicitRoot(members, alpha)).toEqual({ name: 'alpha', root: alpha, worktree: false });
    expect(matchExplicitRoot(members, path.join(base, 'alias'))).toEqual({
      name: 'alpha',
      root: alpha,
      worktree: false,
    });
  });

  it('does not match a subdirectory of a member (that is a subtree request)', () => {
    const { alpha, members } = workspace();
    expect(matchExplicitRoot(members, path.join(alpha, 'src'))).toBeUndefined();
  });

  it('matches the top level of a linked worktree of a member, not its subdirectories', () => {
    const { base, alpha, members } = workspace();
    const wt = addWorktree(alpha, path.join(base, 'outside', 'wt'), 'feature');
    expect(matchExplicitRoot(members, wt)).toEqual({ name: 'alpha', root: wt, worktree: true });
    expect(matchExplicitRoot(members, path.join(wt, 'src'))).toBeUndefined();
  });
});

describe('checkRoots', () => {
  it('finds duplicates including symlink aliases', () => {
    const { base, alpha, beta } = workspace();
    fs.symlinkSync(alpha, path.join(base, 'alias'));
    const conflicts = checkRoots([alpha, beta, path.join(base, 'alias')]);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({
      kind: 'duplicate',
      first: 0,
      second: 2,
      firstCanonical: alpha,
      secondCanonical: alpha,
    });
  });

  it('finds overlapping roots with the outer one first, whatever the order', () => {
    const { alpha, beta } = workspace();
    const inner = path.join(alpha, 'src');
    expect(checkRoots([inner, beta, alpha])).toEqual([
      expect.objectContaining({
        kind: 'overlapping',
        first: 2,
        second: 0,
        firstCanonical: alpha,
        secondCanonical: inner,
      }),
    ]);
  });

  it('sees overlap through a symlink into another root', () => {
    const { base, alpha } = workspace();
    fs.symlinkSync(path.join(alpha, 'src'), path.join(base, 'src-link'));
    expect(checkRoots([alpha, path.join(base, 'src-link')])).toEqual([
      expect.objectContaining({ kind: 'overlapping', first: 0, second: 1 }),
    ]);
  });

  it('treats sibling names sharing a prefix as disjoint and handles missing roots', () => {
    const { base, alpha } = workspace();
    fs.mkdirSync(path.join(base, 'alpha2'));
    expect(checkRoots([alpha, path.join(base, 'alpha2')])).toEqual([]);
    expect(checkRoots([path.join(base, 'gone'), path.join(base, 'gone', 'inner')])).toEqual([
      expect.objectContaining({ kind: 'overlapping', first: 0, second: 1 }),
    ]);
    expect(checkRoots([path.join(base, 'gone'), path.join(base, 'gone/')])).toEqual([
      expect.objectContaining({ kind: 'duplicate' }),
    ]);
  });
});

describe('checkExplicitRoot', () => {
  it('errors only for an explicit workspace with a non-matching root', () => {
    const { alpha, members } = workspace();
    const sub = path.join(alpha, 'src');
    const withWorkspace = checkExplicitRoot(members, sub, true);
    expect(!withWorkspace.ok && withWorkspace.error.code).toBe('root_not_member');
    expect(!withWorkspace.ok && withWorkspace.error.message).toContain('alpha, beta');
    expect(checkExplicitRoot(members, sub, false)).toEqual({ ok: true, value: undefined });
    expect(checkExplicitRoot(members, alpha, true)).toEqual({
      ok: true,
      value: { name: 'alpha', root: alpha, worktree: false },
    });
  });
});
