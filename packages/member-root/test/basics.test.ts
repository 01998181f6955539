import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  cacheDirForRoot,
  effectiveCacheBase,
  explicitCacheBaseOf,
  canonicalRoot,
  checkCacheOutsideRoots,
  rootHash,
  ROOT_HASH_HEX_LENGTH,
} from '../src/index';

function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-member-root-')));
}

describe('canonicalRoot', () => {
  it('returns the realpath of a directory reached through a symlink', () => {
    const base = tempDir();
    const real = path.join(base, 'real');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(base, 'alias'));
    const result = canonicalRoot(path.join(base, 'alias'));
    expect(result).toEqual({ ok: true, value: real });
  });

  it('resolves relative paths against the current directory', () => {
    const base = tempDir();
    const previous = process.cwd();
    process.chdir(base);
    try {
      fs.mkdirSync('sub');
      expect(canonicalRoot('sub')).toEqual({ ok: true, value: path.join(base, 'sub') });
    } finally {
      process.chdir(previous);
    }
  });

  it('reports a missing directory as root_not_found', () => {
    const result = canonicalRoot(path.join(tempDir(), 'nope'));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('root_not_found');
      expect(result.error.message).toContain('nope');
    }
  });

  it('reports a dangling symlink as root_not_found', () => {
    const base = tempDir();
    fs.symlinkSync(path.join(base, 'gone'), path.join(base, 'dangling'));
    const result = canonicalRoot(path.join(base, 'dangling'));
    expect(!result.ok && result.error.code).toBe('root_not_found');
  });

  it('reports a file as root_not_directory', () => {
    const base = tempDir();
    fs.writeFileSync(path.join(base, 'file.txt'), 'x');
    const result = canonicalRoot(path.join(base, 'file.txt'));
    expect(!result.ok && result.error.code).toBe('root_not_directory');
  });

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (isRoot ? it.skip : it)('reports a directory without read permission as root_unreadable', () => {
    const base = tempDir();
    const locked = path.join(base, 'locked');
    fs.mkdirSync(locked);
    fs.chmodSync(locked, 0o000);
    try {
      const result = canonicalRoot(locked);
      expect(!result.ok && result.error.code).toBe('root_unreadable');
    } finally {
      fs.chmodSync(locked, 0o755);
    }
  });
});

describe('rootHash', () => {
  it('is stable, short hex, and differs between roots', () => {
    const a = rootHash('/src/a');
    expect(a).toMatch(new RegExp(`^[0-9a-f]{${ROOT_HASH_HEX_LENGTH}}$`));
    expect(rootHash('/src/a')).toBe(a);
    expect(rootHash('/src/b')).not.toBe(a);
    // First 16 hex digits of sha256("/src/a"), pinned so caches survive refactors.
    expect(a).toBe(require('node:crypto').createHash('sha256').update('/src/a').digest('hex').slice(0, 16));
  });
});

describe('cacheDirForRoot', () => {
  const root = '/src/project';
  const hash = rootHash(root);

  it('uses $XDG_CACHE_HOME when set and absolute', () => {
    expect(cacheDirForRoot(root, { env: { XDG_CACHE_HOME: '/xdg', HOME: '/home/u' } })).toBe(`/xdg/trufflepig/${hash}`);
  });

  it('falls back to $HOME/.cache when XDG_CACHE_HOME is unset, empty or relative', () => {
    expect(cacheDirForRoot(root, { env: { HOME: '/home/u' } })).toBe(`/home/u/.cache/trufflepig/${hash}`);
    expect(cacheDirForRoot(root, { env: { HOME: '/home/u', XDG_CACHE_HOME: '' } })).toBe(
      `/home/u/.cache/trufflepig/${hash}`,
    );
    expect(cacheDirForRoot(root, { env: { HOME: '/home/u', XDG_CACHE_HOME: 'rel/cache' } })).toBe(
      `/home/u/.cache/trufflepig/${hash}`,
    );
  });

  it('uses --cache as the base (resolved absolute): each root keeps its own subdirectory', () => {
    expect(cacheDirForRoot(root, { cacheOverride: '/tmp/isolated', env: { XDG_CACHE_HOME: '/xdg' } })).toBe(
      `/tmp/isolated/${hash}`,
    );
    expect(cacheDirForRoot(root, { cacheOverride: 'rel' })).toBe(path.join(path.resolve('rel'), hash));
    const other = cacheDirForRoot('/src/other', { cacheOverride: '/tmp/isolated' });
    expect(other).toBe(`/tmp/isolated/${rootHash('/src/other')}`);
    expect(other).not.toBe(cacheDirForRoot(root, { cacheOverride: '/tmp/isolated' }));
  });

  it('names the --cache base behind a per-root directory only when it is not the default', () => {
    const env = { XDG_CACHE_HOME: '/xdg', HOME: '/home/u' };
    expect(explicitCacheBaseOf(cacheDirForRoot(root, { cacheOverride: '/tmp/isolated', env }), env)).toBe(
      '/tmp/isolated',
    );
    expect(explicitCacheBaseOf(cacheDirForRoot(root, { env }), env)).toBeUndefined();
    expect(effectiveCacheBase({ env })).toBe('/xdg/trufflepig');
    expect(effectiveCacheBase({ cacheOverride: '/tmp/isolated', env })).toBe('/tmp/isolated');
  });
});

describe('checkCacheOutsideRoots', () => {
  it('rejects a cache inside a root, also when reached through a symlink', () => {
    const base = tempDir();
    const root = path.join(base, 'root');
    fs.mkdirSync(root);
    fs.symlinkSync(root, path.join(base, 'alias'));
    const inside = checkCacheOutsideRoots(path.join(base, 'alias', 'cache-not-yet-created'), [root]);
    expect(!inside.ok && inside.error.code).toBe('cache_inside_root');
    const same = checkCacheOutsideRoots(root, [root]);
    expect(!same.ok && same.error.code).toBe('cache_inside_root');
    const outside = checkCacheOutsideRoots(path.join(base, 'cache'), [root]);
    expect(outside).toEqual({ ok: true, value: path.join(base, 'cache') });
  });
});

// isSameOrInside and canonicalOrAbsolute are @trufflepig/base's: their tests are in packages/base/test/roots.test.ts.

describe('re-exports', () => {
  it('the public entry still offers the path helpers @trufflepig/base owns', () => {
    const base = require('@trufflepig/base') as typeof import('@trufflepig/base');
    const entry = require('../src/index') as typeof import('../src/index');
    expect(entry.canonicalOrAbsolute).toBe(base.canonicalOrAbsolute);
    expect(entry.isSameOrInside).toBe(base.isSameOrInside);
  });
});
