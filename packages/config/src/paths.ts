// Small path helpers. config may not depend on @trufflepig/member-root (dependency table),
// so the few realpath and containment rules it needs live here.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

/**
 * The realpath of a path; for a missing path, the realpath of its deepest existing
 * ancestor joined with the missing tail, so aliases through symlinked parents still match.
 */
export function canonicalOrAbsolute(p: string): string {
  const absolute = path.resolve(p);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** Whether `inner` equals `outer` or lies beneath it (whole path segments). */
export function isSameOrInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  if (rel === '') return true;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

export type RootState = { available: true; root: string } | { available: false; root: string; reason: string };

/** A member root: an existing directory becomes canonical; otherwise normalized absolute and unavailable. */
export function inspectRoot(absolute: string): RootState {
  let real: string;
  try {
    real = fs.realpathSync.native(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EACCES' ? 'permission denied' : 'directory does not exist';
    return { available: false, root: absolute, reason };
  }
  try {
    if (!fs.statSync(real).isDirectory()) return { available: false, root: real, reason: 'not a directory' };
    fs.accessSync(real, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return { available: false, root: real, reason: 'directory is not readable' };
  }
  return { available: true, root: real };
}
