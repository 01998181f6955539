import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeDirectories } from '../src';
import { tempDir } from './helpers';

function errorCode(run: () => void): string | undefined {
  try {
    run();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
  return undefined;
}

describe('makeDirectories', () => {
  it('creates every missing level with mode 0700 by default', () => {
    const base = tempDir();
    const deep = path.join(base, 'a', 'b', 'c');
    const umask = process.umask();
    makeDirectories(deep);
    for (const dir of [path.join(base, 'a'), path.join(base, 'a', 'b'), deep]) {
      const stat = fs.statSync(dir);
      expect(stat.isDirectory()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o700 & ~umask);
    }
  });

  it('uses the given mode for created levels and leaves existing ones as they are', () => {
    const base = tempDir();
    const existing = path.join(base, 'existing');
    fs.mkdirSync(existing);
    fs.chmodSync(existing, 0o755);
    const umask = process.umask();
    makeDirectories(path.join(existing, 'x', 'y'), 0o750);
    expect(fs.statSync(existing).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(existing, 'x')).mode & 0o777).toBe(0o750 & ~umask);
    expect(fs.statSync(path.join(existing, 'x', 'y')).mode & 0o777).toBe(0o750 & ~umask);
  });

  it('is idempotent on an existing directory', () => {
    const base = tempDir();
    fs.writeFileSync(path.join(base, 'keep.txt'), 'x');
    makeDirectories(base);
    makeDirectories(base);
    expect(fs.readdirSync(base)).toEqual(['keep.txt']);
  });

  it('resolves a relative path against the current directory', () => {
    const base = tempDir();
    const previous = process.cwd();
    process.chdir(base);
    try {
      makeDirectories(path.join('rel', 'dir'));
    } finally {
      process.chdir(previous);
    }
    expect(fs.statSync(path.join(base, 'rel', 'dir')).isDirectory()).toBe(true);
  });

  it('creates below a symlinked parent, and accepts a symlink to a directory as the target', () => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'alias'));
    makeDirectories(path.join(base, 'alias', 'inner'));
    expect(fs.statSync(path.join(base, 'real', 'inner')).isDirectory()).toBe(true);
    expect(() => makeDirectories(path.join(base, 'alias'))).not.toThrow();
  });

  it('throws ENOTDIR when the path is a file, naming it', () => {
    const base = tempDir();
    const file = path.join(base, 'file');
    fs.writeFileSync(file, 'x');
    expect(() => makeDirectories(file)).toThrow(`${file} is not a directory`);
    expect(errorCode(() => makeDirectories(file))).toBe('ENOTDIR');
  });

  it("throws Node's ENOTDIR when a parent is a file", () => {
    const base = tempDir();
    fs.writeFileSync(path.join(base, 'file'), 'x');
    expect(errorCode(() => makeDirectories(path.join(base, 'file', 'sub', 'deeper')))).toBe('ENOTDIR');
  });

  it('throws instead of looping when a dangling symlink stands in the way', () => {
    const base = tempDir();
    fs.symlinkSync(path.join(base, 'gone'), path.join(base, 'dangling'));
    expect(errorCode(() => makeDirectories(path.join(base, 'dangling', 'child')))).toBe('ENOENT');
    expect(errorCode(() => makeDirectories(path.join(base, 'dangling')))).toBe('ENOENT');
  });

  // The reason this function exists: recursive mkdir spins forever where a parent refuses
  // children with ENOENT. /proc does, on Linux.
  (fs.existsSync('/proc/self') ? it : it.skip)('returns with an error under /proc instead of retrying forever', () => {
    const code = errorCode(() => makeDirectories('/proc/trufflepig-base-test/child'));
    expect(code).toBeDefined();
    expect(fs.existsSync('/proc/trufflepig-base-test')).toBe(false);
  });
});
