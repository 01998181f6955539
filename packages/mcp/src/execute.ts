// Running a checked call: through the root's daemon or the workspace's coordinator (the
// same ones the CLI starts and asks), else in this process by the same handler they run.
import {
  blameCommand,
  CLIENT_HOST,
  commandOptions,
  diffCommand,
  handleServedRequest,
  histCommand,
  resolveContext,
  serveThroughDaemons,
  sinceCommand,
} from '@trufflepig/workspace';
import { encodeWire, type WireMap } from '@trufflepig/cli-surface/wire';
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

type OptionMap = WireMap;

/**
 * Whether the target is a workspace (its tools then take `member`). A target that does not
 * resolve counts as one: the full tools are listed and each call answers the coded error.
 */
export function servesWorkspace(target: ServeTarget): boolean {
  const context = resolveContext({
    cwd: target.cwd,
    root: target.root,
    cache: target.cache,
    workspace: target.workspace,
    noWorkspace: target.noWorkspace,
  });
  return !context.ok || context.value.kind === 'workspace';
}

/** The call's options as a daemon request carries them (the server's target included, but `workspace`: the daemons add it). */
function optionsOf(call: VerbCall, target: ServeTarget, alsoJson: boolean): OptionMap {
  return encodeWire({
    format: 'lines',
    // Asked only when the session sends structured content: the JSON view is a second render.
    alsoJson: alsoJson || undefined,
    budget: call.budget,
    root: target.root,
    cache: target.cache,
    noWorkspace: target.noWorkspace,
    member: call.member,
    limit: call.limit,
    context: call.context,
    scopes: call.scopes,
  });
}

/**
 * Run one call. `onStarted` hears the state directory of each daemon or coordinator this
 * call had to start (the server stops those when its session ends). With `alsoJson` the
 * answer carries the JSON view of the same execution too (`VerbAnswer.json`).
 */
export async function runCall(
  call: VerbCall,
  target: ServeTarget,
  onStarted?: (stateDir: string) => void,
  alsoJson = false,
): Promise<VerbAnswer> {
  const options = optionsOf(call, target, alsoJson);
  // `show --side` is a word of the verb, as on the command line.
  const words = call.side !== undefined ? [...call.words, '--side', call.side] : call.words;
  const local: OptionMap = { ...options, ...encodeWire({ workspace: target.workspace, noDaemon: target.noDaemon }) };
  const request = { verb: call.verb, args: words, options: local, cwd: target.cwd };
  // The history verbs run in the client, as the CLI runs them (they read Git, not an index a daemon holds).
  const history = { hist: histCommand, blame: blameCommand, since: sinceCommand, diff: diffCommand } as const;
  if (call.verb in history)
    return history[call.verb as keyof typeof history](words, commandOptions(request, CLIENT_HOST));
  if (!target.noDaemon) {
    const served = await serveThroughDaemons(
      call.verb,
      words,
      commandOptions(request, CLIENT_HOST),
      options,
      onStarted,
    );
    if (served) return served;
  }
  return handleServedRequest(request, CLIENT_HOST);
}
