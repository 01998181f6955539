// Small path helpers of the configuration. Canonical paths, containment and the directory
// probe are @trufflepig/base's (config may not depend on @trufflepig/member-root).
import * as os from 'node:os';
import * as path from 'node:path';
import { probeDirectory } from '@trufflepig/base';

export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
}

/** Expand a leading `~` or `~/` to the user's home; `~user` forms are left as written. */
export function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  if (p === '~') return homeDir(env);
  if (p.startsWith('~/')) return path.join(homeDir(env), p.slice(2));
  return p;
}

/** Expand `~`, then resolve relative to `baseDir` and normalize. */
export function resolveConfigPath(p: string, baseDir: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(baseDir, expandHome(p, env));
}

export type RootState = { available: true; root: string } | { available: false; root: string; reason: string };

/** A member root: an existing directory becomes canonical; otherwise normalized absolute and unavailable. */
export function inspectRoot(absolute: string): RootState {
  const probe = probeDirectory(absolute);
  switch (probe.state) {
    case 'ok':
      return { available: true, root: probe.real };
    case 'unresolved':
      return {
        available: false,
        root: absolute,
        reason: probe.code === 'EACCES' ? 'permission denied' : 'directory does not exist',
      };
    case 'not_directory':
      return { available: false, root: probe.real, reason: 'not a directory' };
    case 'vanished':
    case 'unreadable':
      return { available: false, root: probe.real, reason: 'directory is not readable' };
  }
}
