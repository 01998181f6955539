// Which roots an invocation addresses: one root (no workspace), or a workspace with its
// members, home and caches (workspace contract, "Membership and discovery").
import * as fs from 'node:fs';
import * as path from 'node:path';
import { selectWorkspace, type ConfigError, type WorkspaceConfig } from '@trufflepig/config';
import {
  belongsToMember,
  cacheBase,
  cacheDirForRoot,
  checkCacheOutsideRoots,
  checkExplicitRoot,
  findHome,
  gitInfo,
  type Home,
} from '@trufflepig/member-root';
import { fail, ok, type Outcome } from './errors';
import { CLIENT_HOST, type Host } from './host';
import { resolveRoot, RESULTS_DIR_NAME, type ResolvedRoot, type RootOptions } from './root';
import { coordinatorStateDir } from './workspace-id';

export { WORKSPACES_DIR_NAME, workspaceId } from './workspace-id';

export interface ContextOptions extends RootOptions {
  /** The process the command runs in (core/host.ts); the one-shot client when not given. */
  readonly host?: Host;
  /** `--workspace FILE` (a file, or a directory holding trufflepig.workspace.toml). */
  readonly workspace?: string;
  /** `--no-workspace`: no discovery; conflicts with `workspace`. */
  readonly noWorkspace?: boolean;
  /** `--member NAME`: select one member (never widens). */
  readonly member?: string;
}

/** One member as this invocation sees it. */
export interface MemberTarget {
  readonly name: string;
  /** The configured root (canonical when available). */
  readonly configuredRoot: string;
  /** The root searched and read: the configured root, or the linked worktree standing in for it. */
  readonly root: string;
  readonly available: boolean;
  readonly unavailableReason?: string;
  /** True when `root` is a linked worktree standing in for the configured root. */
  readonly worktree: boolean;
  readonly cacheDir: string;
  /** For a worktree stand-in: the configured root's cache, which seeds and backs it. */
  readonly parentCacheDir?: string;
}

export interface WorkspaceContext {
  readonly config: WorkspaceConfig;
  readonly selectedBy: 'flag' | 'ancestor' | 'registry';
  /** The member containing the invocation (or the explicit root); undefined outside every member. */
  readonly home?: Home;
  readonly members: readonly MemberTarget[];
  /** Workspace result sets: keyed by the canonical configuration path, apart from member caches. */
  readonly resultsDir: string;
  /** `--member NAME`, already checked against the configuration. */
  readonly member?: string;
  /** True when --root named a member root or worktree (it then acts as the invocation directory). */
  readonly explicitRoot: boolean;
}

/**
 * A path as workspace pages print it, `MEMBER/path` (docs/spec/retrieval.md §4): the member
 * its first segment names and the path inside it, or undefined when the first segment names
 * no member. Pasted back into `show`, `map` or `file:` it addresses that member (an agent
 * trial pasted `express/lib/response.js:275` and got `member_required`).
 */
export function memberPrefixed(
  ws: WorkspaceContext,
  path: string,
): { readonly member: MemberTarget; readonly path: string } | undefined {
  const slash = path.indexOf('/');
  if (slash <= 0) return undefined;
  const member = ws.members.find((m) => m.name === path.slice(0, slash));
  return member ? { member, path: path.slice(slash + 1) } : undefined;
}

export type Context =
  | { readonly kind: 'single'; readonly root: ResolvedRoot; readonly host: Host }
  | { readonly kind: 'workspace'; readonly ws: WorkspaceContext; readonly host: Host };

export function configFailure(error: ConfigError, all: readonly ConfigError[]): Outcome<never> {
  const more =
    all.length > 1
      ? ` (and ${all.length - 1} more: ${all
          .slice(1, 4)
          .map((e) => e.code)
          .join(', ')})`
      : '';
  return fail(error.code, `${error.message}${more}`);
}

/**
 * Resolve the invocation: workspace selection (flag, ancestor, registry), then --root
 * rules, home, member caches. Without a selected workspace this is the single-root
 * behaviour of the retrieval core.
 */
export function resolveContext(opts: ContextOptions): Outcome<Context> {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? process.env;
  const explicitRoot = opts.root !== undefined ? path.resolve(cwd, opts.root) : undefined;
  if (opts.noWorkspace && opts.member !== undefined)
    return fail(
      'workspace_conflicting_flags',
      '--member selects a workspace member and conflicts with --no-workspace; pass only one of them',
    );
  const selected = selectWorkspace({
    workspaceFlag: opts.workspace === undefined ? undefined : path.resolve(cwd, opts.workspace),
    noWorkspace: opts.noWorkspace,
    // An explicit root is where the request is "from": discovery starts there.
    cwd: explicitRoot !== undefined && fs.existsSync(explicitRoot) ? explicitRoot : cwd,
    env,
    belongsToMember,
  });
  if (!selected.ok) return configFailure(selected.error, selected.errors);
  const selection = selected.value;
  if (selection.source === 'none') {
    if (opts.member !== undefined)
      return fail(
        'no_workspace',
        `--member ${opts.member} needs a workspace, and none was found; pass --workspace FILE or run inside a member`,
      );
    return single(opts);
  }
  const config = selection.config;
  const refs = config.members.filter((m) => m.available).map((m) => ({ name: m.name, root: m.root }));
  let home: Home | undefined;
  if (explicitRoot !== undefined) {
    const checked = checkExplicitRoot(refs, explicitRoot, selection.source === 'flag');
    if (!checked.ok) return fail(checked.error.code, checked.error.message);
    // A root that is no member (a subtree, or an unrelated directory) does not activate
    // discovery: that root alone is searched, as without a workspace.
    if (checked.value === undefined) {
      if (opts.member !== undefined)
        return fail(
          'root_not_member',
          `--root ${explicitRoot} is not a member root, so --member ${opts.member} cannot apply; drop one of them`,
        );
      return single(opts);
    }
    home = checked.value;
  } else {
    home = findHome(refs, cwd);
  }
  if (opts.member !== undefined && !config.members.some((m) => m.name === opts.member)) {
    return fail(
      'unknown_member',
      `--member ${opts.member} is not a member of ${config.file} (members: ${config.members.map((m) => m.name).join(', ')}); use one of those names`,
    );
  }
  const base = opts.cache !== undefined ? path.resolve(cwd, opts.cache) : undefined;
  const members = config.members.map((m): MemberTarget => {
    const standIn = home?.worktree && home.name === m.name ? home.root : undefined;
    const root = standIn ?? m.root;
    // Members follow the single-root rule: <base>/<root-hash>, with --cache as the base.
    const cacheOf = (r: string) => cacheDirForRoot(r, { cacheOverride: base, env });
    return {
      name: m.name,
      configuredRoot: m.root,
      root,
      available: m.available,
      ...(m.unavailableReason !== undefined ? { unavailableReason: m.unavailableReason } : {}),
      worktree: standIn !== undefined,
      cacheDir: cacheOf(root),
      ...(standIn !== undefined ? { parentCacheDir: cacheOf(m.root) } : {}),
    };
  });
  if (base !== undefined) {
    const outside = checkCacheOutsideRoots(
      base,
      members.filter((m) => m.available).map((m) => m.root),
    );
    if (!outside.ok) return fail(outside.error.code, outside.error.message);
  }
  const coordinator = coordinatorStateDir(base ?? cacheBase(env), config.file);
  return ok({
    kind: 'workspace',
    host: opts.host ?? CLIENT_HOST,
    ws: {
      config,
      selectedBy: selection.source,
      ...(home ? { home } : {}),
      members,
      resultsDir: path.join(coordinator, RESULTS_DIR_NAME),
      ...(opts.member !== undefined ? { member: opts.member } : {}),
      explicitRoot: explicitRoot !== undefined,
    },
  });
}

function single(opts: ContextOptions): Outcome<Context> {
  const r = resolveRoot(opts);
  return r.ok ? ok({ kind: 'single', root: r.value, host: opts.host ?? CLIENT_HOST }) : r;
}

/** Whether a linked worktree root is still a linked worktree sharing `commonDir` (handles to worktree owners). */
export function stillWorktreeOf(root: string, commonDir: string): boolean {
  const info = gitInfo(root);
  return info.ok && info.value.insideWorkTree && info.value.linkedWorktree && info.value.commonDir === commonDir;
}
