import * as os from 'node:os';
import * as path from 'node:path';
// The subpath, not the package entry: this module is on the CLI's fast path (one file loaded).
import { canonicalOrAbsolute, isSameOrInside } from '@trufflepig/base/roots';
import { sha256Hex } from '@trufflepig/base/sha256';
import { CACHE_APP_DIR, ROOT_HASH_HEX_LENGTH } from './limits';
import { fail, ok, type Outcome } from './outcome';

/** Stable short name of a canonical root: the first hex digits of SHA-256 of its path. */
export function rootHash(canonical: string): string {
  return sha256Hex(canonical).slice(0, ROOT_HASH_HEX_LENGTH);
}

export interface CacheDirOptions {
  /**
   * The --cache DIR base (resolved to an absolute path). It replaces the default base,
   * never the per-root directory: every root still gets its own `<base>/<rootHash>`.
   */
  cacheOverride?: string;
  /** Environment to read XDG_CACHE_HOME and HOME from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/** The cache base for all roots: $XDG_CACHE_HOME/trufflepig, else $HOME/.cache/trufflepig. */
export function cacheBase(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, CACHE_APP_DIR);
  const home = env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
  return path.join(home, '.cache', CACHE_APP_DIR);
}

/** The base an invocation uses: the --cache DIR base when given, else the default base. */
export function effectiveCacheBase(opts: CacheDirOptions = {}): string {
  if (opts.cacheOverride !== undefined && opts.cacheOverride !== '') return path.resolve(opts.cacheOverride);
  return cacheBase(opts.env ?? process.env);
}

/**
 * The cache directory for one canonical root (docs/spec/retrieval.md §3): <base>/<rootHash>, where
 * the base is --cache DIR or the default. One base serves any number of roots, so a
 * `--cache` shared by several roots never makes one root read another's index.
 */
export function cacheDirForRoot(canonical: string, opts: CacheDirOptions = {}): string {
  return path.join(effectiveCacheBase(opts), rootHash(canonical));
}

/**
 * The --cache base a per-root cache directory was made under, when that is not the default
 * base (undefined otherwise): hints that name a command keep the user's --cache.
 */
export function explicitCacheBaseOf(cacheDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = path.dirname(path.resolve(cacheDir));
  return base === cacheBase(env) ? undefined : base;
}

/**
 * An override cache base must lie outside every root, or indexing would see its own
 * cache files. Symlinks are resolved on both sides before comparing.
 */
export function checkCacheOutsideRoots(cacheDir: string, canonicalRoots: readonly string[]): Outcome<string> {
  const cache = canonicalOrAbsolute(cacheDir);
  for (const root of canonicalRoots) {
    const canonical = canonicalOrAbsolute(root);
    if (isSameOrInside(canonical, cache)) {
      return fail(
        'cache_inside_root',
        `cache directory ${cache} lies inside root ${canonical}; pass --cache a directory outside every root`,
      );
    }
  }
  return ok(cache);
}
