// The CLI's fast path (`@trufflepig/workspace/client`): hand a read verb to the running
// daemon of a single root and print its answer. Loads only the runtime's client and the
// cache-directory rules, never the index, the renderer or the workspace facade, so a
// daemon-served call costs little more than starting node.
import * as fs from 'node:fs';
import * as path from 'node:path';
// Subpaths on purpose: the packages' main entries load their servers and Git probes.
import { cacheBase, cacheDirForRoot } from '@trufflepig/member-root/cache-dir';
import { sendRequest } from '@trufflepig/runtime/client';
import type { OptionValue } from '@trufflepig/runtime';
import { forwardedWire, SERVED_VERBS } from '@trufflepig/cli-surface/wire';
import type { FastCallOptions } from '@trufflepig/cli-surface/argv';
import { coordinatorStateDir } from '../../core/workspace-id';

/** Verbs a root daemon answers: the CLI surface's table says which (serving/host/daemon-handler.ts answers them). */
export const FAST_VERBS: ReadonlySet<string> = SERVED_VERBS;

/** The workspace file name and registry location (config package constants, repeated so this module stays light). */
const WORKSPACE_FILE = 'trufflepig.workspace.toml';
const REGISTRY = path.join('trufflepig', 'workspaces.toml');

/** The options of a call the fast path offers to a daemon (the CLI surface's fastOptions). */
export type FastOptions = FastCallOptions;

export interface FastResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** The JSON rendering of the same answer, when the request asked for it and the daemon gave it. */
  readonly json?: string;
}

/**
 * What a daemon made of a request: its answer; `other_version` (it is of another version,
 * or predates the version handshake: whoever can start daemons replaces an older one);
 * or `none` (no daemon, or its own trouble: answer locally).
 */
export type DaemonAnswer =
  | { readonly kind: 'answer'; readonly result: FastResult }
  | { readonly kind: 'other_version'; readonly message: string }
  | { readonly kind: 'none' };

/** The Git top level above `dir` by its `.git` entry (a directory, or a worktree's file), else `dir`. */
export function topLevelOf(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return dir;
  }
}

function ancestorWorkspace(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const file = path.join(d, WORKSPACE_FILE);
    if (fs.existsSync(file)) return file;
    if (path.dirname(d) === d) return undefined;
  }
}

function registryExists(env: NodeJS.ProcessEnv): boolean {
  const xdg =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(env.HOME ?? '', '.config');
  return fs.existsSync(path.join(xdg, REGISTRY));
}

/**
 * The root and cache a call addresses when no workspace can be involved, else undefined
 * (a workspace file above, a registry, --workspace or --member: the full path decides).
 */
export function singleRootTarget(
  opts: FastOptions,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): { root: string; cacheDir: string } | undefined {
  if (opts.workspace !== undefined || opts.member !== undefined) return undefined;
  const start = opts.root !== undefined ? path.resolve(cwd, opts.root) : cwd;
  if (!opts.noWorkspace && (ancestorWorkspace(start) !== undefined || registryExists(env))) return undefined;
  let root: string;
  try {
    root = fs.realpathSync(opts.root !== undefined ? start : topLevelOf(start));
  } catch {
    return undefined;
  }
  // The full path's rule (root.ts), applied to the same inputs: --cache is a base.
  const cacheDir = cacheDirForRoot(root, {
    cacheOverride: opts.cache !== undefined ? path.resolve(cwd, opts.cache) : undefined,
    env,
  });
  return { root, cacheDir };
}

/**
 * The coordinator a call addresses when its workspace is chosen by --workspace or by a
 * workspace file above the directory (the registry, and --root inside a workspace, take
 * the full path, which applies their rules).
 */
export function coordinatorTarget(
  opts: FastOptions,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): { stateDir: string; configFile: string } | undefined {
  if (opts.noWorkspace || opts.root !== undefined) return undefined;
  let file = opts.workspace !== undefined ? path.resolve(cwd, opts.workspace) : ancestorWorkspace(cwd);
  if (file === undefined) return undefined;
  try {
    if (fs.statSync(file).isDirectory()) file = path.join(file, WORKSPACE_FILE);
    file = fs.realpathSync(file);
  } catch {
    return undefined;
  }
  const base = opts.cache !== undefined ? path.resolve(cwd, opts.cache) : cacheBase(env);
  return { stateDir: coordinatorStateDir(base, file), configFile: file };
}

/** Answer `verb` through the root's daemon or the workspace's coordinator; undefined when none runs (or it cannot answer). */
export async function serveFromDaemon(
  verb: string,
  words: readonly string[],
  opts: FastOptions,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FastResult | undefined> {
  if (!FAST_VERBS.has(verb)) return undefined;
  const coordinator = coordinatorTarget(opts, cwd, env);
  const stateDir = coordinator?.stateDir ?? singleRootTarget(opts, cwd, env)?.cacheDir;
  if (stateDir === undefined) return undefined;
  // What the full path would forward for the same options (never `workspace` as typed).
  const options: Record<string, OptionValue> = forwardedWire(opts);
  if (coordinator) options.workspace = coordinator.configFile;
  return askDaemon(stateDir, verb, words, options, cwd);
}

/** Send a read verb to the daemon whose state lives in `stateDir` and say what came of it. */
export async function queryDaemon(
  stateDir: string,
  verb: string,
  args: readonly string[],
  options: Record<string, OptionValue>,
  cwd: string,
): Promise<DaemonAnswer> {
  const sent = await sendRequest(stateDir, { verb, args: [...args], options, cwd });
  if (!sent.ok)
    return sent.code === 'version_mismatch' ? { kind: 'other_version', message: sent.message } : { kind: 'none' };
  const reply = sent.reply;
  // The daemon's own trouble (stopping, busy, a handler that failed: an older daemon's, whose
  // failure text is neither bounded nor fitted to the budget): answer locally instead.
  if (reply.error) return { kind: 'none' };
  return {
    kind: 'answer',
    result: {
      stdout: reply.stdout,
      stderr: reply.stderr,
      exitCode: reply.exitCode,
      ...(reply.json !== undefined ? { json: reply.json } : {}),
    },
  };
}

/**
 * Send a read verb to the daemon whose state lives in `stateDir`; undefined when none
 * answers, or when it is of another version (the fast path never restarts a daemon: the
 * full path's serveThroughDaemons does, then answers).
 */
export async function askDaemon(
  stateDir: string,
  verb: string,
  args: readonly string[],
  options: Record<string, OptionValue>,
  cwd: string,
): Promise<FastResult | undefined> {
  const answer = await queryDaemon(stateDir, verb, args, options, cwd);
  return answer.kind === 'answer' ? answer.result : undefined;
}
