import * as path from 'node:path';
import { cacheDirForRoot, canonicalRoot, gitInfo } from '@trufflepig/member-root';
import { fail, ok, type Outcome } from './errors';

export interface RootOptions {
  /** `--root DIR`; else the Git top level of the invocation directory, else that directory. */
  readonly root?: string;
  /** `--cache DIR`. */
  readonly cache?: string;
  /** Invocation directory (defaults to process.cwd()). */
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface ResolvedRoot {
  readonly root: string;
  readonly cacheDir: string;
  readonly resultsDir: string;
}

/** Directory of persisted result sets inside a root's cache: separate from the index so saving never waits on publication. */
export const RESULTS_DIR_NAME = 'results';

export function resolveRoot(opts: RootOptions): Outcome<ResolvedRoot> {
  const cwd = opts.cwd ?? process.cwd();
  let dir: string;
  if (opts.root !== undefined) {
    dir = path.resolve(cwd, opts.root);
  } else {
    const git = gitInfo(cwd);
    dir = git.ok && git.value.insideWorkTree ? git.value.topLevel : cwd;
  }
  const canonical = canonicalRoot(dir);
  if (!canonical.ok) return fail(canonical.error.code, canonical.error.message);
  const cacheDir = cacheDirForRoot(canonical.value, {
    cacheOverride: opts.cache === undefined ? undefined : path.resolve(cwd, opts.cache),
    env: opts.env,
  });
  return ok({ root: canonical.value, cacheDir, resultsDir: path.join(cacheDir, RESULTS_DIR_NAME) });
}
