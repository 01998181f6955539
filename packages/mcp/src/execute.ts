// Running a checked call: through the root's daemon or the workspace's coordinator (the
// same ones the CLI starts and asks), else in this process by the same handler they run.
import { handleServedRequest, serveThroughDaemons, type ContextOptions } from '@trufflepig/workspace';
import type { VerbCall } from './tools/arguments';

/** What the server serves: its working directory's root or workspace, or the ones named at start. */
export interface ServeTarget {
  /** The directory a call runs in (the server's working directory). */
  readonly cwd: string;
  readonly root?: string;
  readonly cache?: string;
  readonly workspace?: string;
  readonly noWorkspace?: boolean;
  /** Start and ask no daemon: every call runs in this process (and indexes in the foreground). */
  readonly noDaemon: boolean;
}

/** A verb's answer as the CLI would print it, plus the JSON view of the same answer. */
export interface VerbAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly json?: string;
}

type OptionMap = Record<string, string | number | boolean>;

function optionsOf(call: VerbCall, target: ServeTarget): OptionMap {
  const out: OptionMap = { format: 'lines', alsoJson: true, budget: call.budget };
  if (target.root !== undefined) out.root = target.root;
  if (target.cache !== undefined) out.cache = target.cache;
  if (target.noWorkspace) out.noWorkspace = true;
  if (call.member !== undefined) out.member = call.member;
  if (call.limit !== undefined) out.limit = call.limit;
  if (call.context !== undefined) out.context = call.context;
  if (call.scopes !== undefined) out.scopes = call.scopes;
  return out;
}

/**
 * Run one call. `onStarted` hears the state directory of each daemon or coordinator this
 * call had to start (the server stops those when its session ends).
 */
export async function runCall(call: VerbCall, target: ServeTarget, onStarted?: (stateDir: string) => void): Promise<VerbAnswer> {
  const options = optionsOf(call, target);
  if (!target.noDaemon) {
    const ctx: ContextOptions = {
      cwd: target.cwd,
      ...(target.root !== undefined ? { root: target.root } : {}),
      ...(target.cache !== undefined ? { cache: target.cache } : {}),
      ...(target.workspace !== undefined ? { workspace: target.workspace } : {}),
      ...(target.noWorkspace ? { noWorkspace: true } : {}),
      ...(call.member !== undefined ? { member: call.member } : {}),
    };
    const served = await serveThroughDaemons(call.verb, call.words, ctx, options, onStarted);
    if (served) return served;
  }
  const local = { ...options, ...(target.workspace !== undefined ? { workspace: target.workspace } : {}) };
  return handleServedRequest({ verb: call.verb, args: call.words, options: local, cwd: target.cwd });
}
