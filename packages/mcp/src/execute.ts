// Running a checked call: through the root's daemon or the workspace's coordinator (the
// same ones the CLI starts and asks), else in this process by the same handler they run.
import { blameCommand, handleServedRequest, histCommand, serveThroughDaemons, type CommandOptions, type ContextOptions } from '@trufflepig/workspace';
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
  if (call.verb === 'hist' || call.verb === 'blame') return runHistory(call, target);
  const options = optionsOf(call, target);
  // `show --side` is a word of the verb, as on the command line.
  const words = call.side !== undefined ? [...call.words, '--side', call.side] : call.words;
  if (!target.noDaemon) {
    const ctx: ContextOptions = {
      cwd: target.cwd,
      ...(target.root !== undefined ? { root: target.root } : {}),
      ...(target.cache !== undefined ? { cache: target.cache } : {}),
      ...(target.workspace !== undefined ? { workspace: target.workspace } : {}),
      ...(target.noWorkspace ? { noWorkspace: true } : {}),
      ...(call.member !== undefined ? { member: call.member } : {}),
    };
    const served = await serveThroughDaemons(call.verb, words, ctx, options, onStarted);
    if (served) return served;
  }
  const local = { ...options, ...(target.workspace !== undefined ? { workspace: target.workspace } : {}) };
  return handleServedRequest({ verb: call.verb, args: words, options: local, cwd: target.cwd });
}

/** `hist` and `blame` run in the client, as the CLI runs them (they read Git, not an index a daemon holds). */
function runHistory(call: VerbCall, target: ServeTarget): Promise<VerbAnswer> {
  const opts: CommandOptions = {
    cwd: target.cwd, format: 'lines', alsoJson: true, budget: call.budget,
    ...(target.root !== undefined ? { root: target.root } : {}), ...(target.cache !== undefined ? { cache: target.cache } : {}),
    ...(target.workspace !== undefined ? { workspace: target.workspace } : {}), ...(target.noWorkspace ? { noWorkspace: true } : {}),
    ...(call.member !== undefined ? { member: call.member } : {}), ...(call.limit !== undefined ? { limit: call.limit } : {}),
    ...(target.noDaemon ? { noDaemon: true } : {}),
  };
  return (call.verb === 'hist' ? histCommand : blameCommand)(call.words, opts);
}
