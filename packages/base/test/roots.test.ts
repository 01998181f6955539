import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalOrAbsolute, isSameOrInside, overlappingPairs, probeDirectory } from '../src';
import { isRoot, tempDir } from './helpers';

// The first two cases moved here from @trufflepig/member-root (test/basics.test.ts, "path helpers").
describe('path helpers', () => {
  it('isSameOrInside compares whole path segments', () => {
    expect(isSameOrInside('/a/b', '/a/b')).toBe(true);
    expect(isSameOrInside('/a/b', '/a/b/c')).toBe(true);
    expect(isSameOrInside('/a/b', '/a/bc')).toBe(false);
    expect(isSameOrInside('/a/b', '/a')).toBe(false);
    expect(isSameOrInside('/a/b', '/a/b/..c')).toBe(true);
  });

  it('canonicalOrAbsolute resolves the existing part of a missing path', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'alias'));
    expect(canonicalOrAbsolute(path.join(base, 'alias', 'x', 'y'))).toBe(path.join(base, 'real', 'x', 'y'));
  });

  it('isSameOrInside: a sibling, the root and unnormalized spellings', () => {
    expect(isSameOrInside('/a/b', '/a/c')).toBe(false);
    expect(isSameOrInside('/', '/anything/below')).toBe(true);
    expect(isSameOrInside('/a/b/', '/a/b')).toBe(true);
    expect(isSameOrInside('/a/b', '/a/b/c/../../x')).toBe(false);
  });

  it('canonicalOrAbsolute: an existing symlink, a relative path, and a path with no resolvable part', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'alias'));
    expect(canonicalOrAbsolute(path.join(base, 'alias'))).toBe(path.join(base, 'real'));
    expect(canonicalOrAbsolute(path.join(base, 'alias', '..', 'real', '.'))).toBe(path.join(base, 'real'));
    const previous = process.cwd();
    process.chdir(path.join(base, 'alias'));
    try {
      expect(canonicalOrAbsolute('missing/z')).toBe(path.join(base, 'real', 'missing', 'z'));
    } finally {
      process.chdir(previous);
    }
    expect(canonicalOrAbsolute('/')).toBe('/');
  });
});

describe('probeDirectory', () => {
  it('is ok with the realpath of a directory reached through a symlink', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'alias'));
    expect(probeDirectory(path.join(base, 'alias'))).toEqual({ state: 'ok', real: path.join(base, 'real') });
  });

  it('is unresolved with the errno code for a missing path, a dangling symlink and a path below a file', () => {
    const base = tempDir();
    const missing = path.join(base, 'nope');
    expect(probeDirectory(missing)).toEqual({ state: 'unresolved', path: missing, code: 'ENOENT' });
    fs.symlinkSync(path.join(base, 'gone'), path.join(base, 'dangling'));
    expect(probeDirectory(path.join(base, 'dangling'))).toMatchObject({ state: 'unresolved', code: 'ENOENT' });
    fs.writeFileSync(path.join(base, 'file'), 'x');
    expect(probeDirectory(path.join(base, 'file', 'sub'))).toMatchObject({ state: 'unresolved', code: 'ENOTDIR' });
  });

  it('is not_directory for a file, also through a symlink', () => {
    const base = tempDir();
    fs.writeFileSync(path.join(base, 'file'), 'x');
    fs.symlinkSync(path.join(base, 'file'), path.join(base, 'link'));
    expect(probeDirectory(path.join(base, 'file'))).toEqual({ state: 'not_directory', real: path.join(base, 'file') });
    expect(probeDirectory(path.join(base, 'link'))).toEqual({ state: 'not_directory', real: path.join(base, 'file') });
  });

  (isRoot ? it.skip : it)('is unreadable for a directory without read or execute permission', () => {
    const base = tempDir();
    for (const [name, mode] of [
      ['no-read', 0o300],
      ['no-exec', 0o600],
    ] as const) {
      const dir = path.join(base, name);
      fs.mkdirSync(dir);
      fs.chmodSync(dir, mode);
      try {
        expect(probeDirectory(dir)).toEqual({ state: 'unreadable', real: dir });
      } finally {
        fs.chmodSync(dir, 0o755);
      }
    }
  });

  (isRoot ? it.skip : it)('is unresolved with EACCES below a directory that cannot be searched', () => {
    const base = tempDir();
    const locked = path.join(base, 'locked');
    fs.mkdirSync(path.join(locked, 'inner'), { recursive: true });
    fs.chmodSync(locked, 0o600);
    try {
      expect(probeDirectory(path.join(locked, 'inner'))).toMatchObject({ state: 'unresolved', code: 'EACCES' });
    } finally {
      fs.chmodSync(locked, 0o755);
    }
  });
});

describe('overlappingPairs', () => {
  it('finds equal and nested paths, each pair once, in (first, second) order', () => {
    expect(overlappingPairs(['/w/a', '/w/b', '/w/a/sub', '/w/a', '/w'])).toEqual([
      { kind: 'nested', first: 0, second: 2, outer: 0, inner: 2 },
      { kind: 'same', first: 0, second: 3, outer: 0, inner: 3 },
      { kind: 'nested', first: 0, second: 4, outer: 4, inner: 0 },
      { kind: 'nested', first: 1, second: 4, outer: 4, inner: 1 },
      { kind: 'nested', first: 2, second: 3, outer: 3, inner: 2 },
      { kind: 'nested', first: 2, second: 4, outer: 4, inner: 2 },
      { kind: 'nested', first: 3, second: 4, outer: 4, inner: 3 },
    ]);
  });

  it('does not confuse a sibling sharing a name prefix, and is empty for disjoint or too few paths', () => {
    expect(overlappingPairs(['/w/app', '/w/app-2', '/w/ap'])).toEqual([]);
    expect(overlappingPairs(['/w/a'])).toEqual([]);
    expect(overlappingPairs([])).toEqual([]);
  });

  it('compares strings only: aliases count once canonicalized', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'alias'));
    const roots = [path.join(base, 'alias'), path.join(base, 'real')];
    expect(overlappingPairs(roots)).toEqual([]);
    expect(overlappingPairs(roots.map((r) => canonicalOrAbsolute(r)))).toEqual([
      { kind: 'same', first: 0, second: 1, outer: 0, inner: 1 },
    ]);
  });
});
