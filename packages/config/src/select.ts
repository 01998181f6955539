import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalOrAbsolute, isSameOrInside } from '@trufflepig/base';
import { configError, failure, success, type ConfigError, type ConfigOutcome } from './errors';
import { WORKSPACE_FILE_NAME } from './limits';
import { loadRegistry } from './registry';
import { loadWorkspaceConfig, type WorkspaceConfig } from './workspace-config';

/**
 * Whether `dir` belongs to the member rooted at `memberRoot` beyond plain containment,
 * e.g. because it lies in a linked Git worktree of it. Pass @trufflepig/member-root's
 * `belongsToMember` (config does not import it: dependency table).
 */
export type BelongsToMember = (memberRoot: string, dir: string) => boolean;

export interface SelectOptions {
  /** --workspace FILE (a file, or a directory holding trufflepig.workspace.toml). */
  workspaceFlag?: string;
  /** --no-workspace: no discovery at all. */
  noWorkspace?: boolean;
  /** The invocation directory. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Consulted for registry selection when cwd is not inside a member root by path. */
  belongsToMember?: BelongsToMember;
}

export type Selection =
  | { source: 'none'; reason: 'disabled' | 'not_found' }
  | { source: 'flag' | 'ancestor' | 'registry'; config: WorkspaceConfig };

/**
 * Selection precedence (workspace contract): --workspace FILE, else the nearest ancestor
 * trufflepig.workspace.toml, else the global registry — the registry only when cwd
 * belongs to a member of exactly one registered workspace.
 */
export function selectWorkspace(opts: SelectOptions): ConfigOutcome<Selection> {
  const env = opts.env ?? process.env;
  const cwd = path.resolve(opts.cwd);
  if (opts.noWorkspace && opts.workspaceFlag !== undefined) {
    return failure([
      {
        code: 'workspace_conflicting_flags',
        message: '--no-workspace conflicts with --workspace; pass only one of them',
      },
    ]);
  }
  if (opts.noWorkspace) return success({ source: 'none', reason: 'disabled' });

  if (opts.workspaceFlag !== undefined) {
    let file = path.resolve(cwd, opts.workspaceFlag);
    if (isDirectory(file)) file = path.join(file, WORKSPACE_FILE_NAME);
    if (!fs.existsSync(file)) {
      return failure([
        configError('workspace_not_found', '--workspace names no configuration file; check the path', { file }),
      ]);
    }
    const loaded = loadWorkspaceConfig(file, { env });
    return loaded.ok ? success({ source: 'flag', config: loaded.value }) : loaded;
  }

  const ancestor = nearestAncestorConfig(cwd);
  if (ancestor !== undefined) {
    const loaded = loadWorkspaceConfig(ancestor, { env });
    return loaded.ok ? success({ source: 'ancestor', config: loaded.value }) : loaded;
  }
  return selectFromRegistry(cwd, env, opts.belongsToMember);
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest trufflepig.workspace.toml in `dir` or its ancestors. */
export function nearestAncestorConfig(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    const candidate = path.join(current, WORKSPACE_FILE_NAME);
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep climbing
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function selectFromRegistry(
  cwd: string,
  env: NodeJS.ProcessEnv,
  belongs: BelongsToMember | undefined,
): ConfigOutcome<Selection> {
  const registry = loadRegistry(env);
  if (!registry.ok) return registry;
  if (registry.value === undefined) return success({ source: 'none', reason: 'not_found' });
  const { file: registryFile, entries } = registry.value;

  const stale: ConfigError[] = [];
  const configs: WorkspaceConfig[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!fs.existsSync(entry.file)) {
      stale.push(
        configError(
          'registry_stale_entry',
          `registry entry ${JSON.stringify(entry.path)} names ${entry.file}, which does not exist; remove the entry or restore the file`,
          { file: registryFile, line: entry.line, field: 'workspaces' },
        ),
      );
      continue;
    }
    const loaded = loadWorkspaceConfig(entry.file, { env });
    if (!loaded.ok) {
      const listed = ` (listed in ${registryFile})`;
      return failure(loaded.errors.map((e) => ({ ...e, message: e.message + listed })));
    }
    if (seen.has(loaded.value.file)) continue;
    seen.add(loaded.value.file);
    configs.push(loaded.value);
  }
  // The contract makes a stale entry a configuration error; listing every one lets the user fix them in one edit.
  if (stale.length) return failure(stale);

  const here = canonicalOrAbsolute(cwd);
  const matches = configs.filter((config) =>
    config.members.some(
      (member) =>
        (member.available && isSameOrInside(member.root, here)) ||
        (belongs !== undefined && member.available && belongs(member.root, cwd)),
    ),
  );
  if (matches.length === 0) return success({ source: 'none', reason: 'not_found' });
  if (matches.length > 1) {
    const files = matches.map((m) => m.file);
    return failure([
      {
        code: 'workspace_ambiguous',
        message: `${cwd} belongs to members of ${files.length} registered workspaces (${files.join(', ')}); choose one with --workspace FILE`,
        file: registryFile,
      },
    ]);
  }
  return success({ source: 'registry', config: matches[0]! });
}
