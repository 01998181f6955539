// What a root daemon answers: the read verbs of the CLI, run in-process against warm
// indexes. Requests carry the client's argv split into verb, arguments and options.
import { quoteInput } from '@trufflepig/index';
import { DEFAULT_BUDGET, DEFAULT_SHOW_BUDGET } from '@trufflepig/render';
import {
  type CommandOptions, type CommandResult, errorResult, internalErrorResult, moreCommand, responseBudget, searchCommand, showCommand, statusCommand,
} from './commands';
import { ctxCommand, mapCommand, refsCommand } from './nav-commands';
import { blameCommand, histCommand, HISTORY_VERB_USAGE, parseShowWords, sinceCommand } from './history-commands';
import { diffCommand } from './diff-command';

// Verbs a daemon serves: FAST_VERBS (fast-client.ts). Everything else (index, help, the
// ws verbs, which inspect locally and start nothing) runs in the client.

export interface ServedRequest {
  readonly verb: string;
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly cwd: string;
}

const STRING_OPTIONS = ['root', 'cache', 'workspace', 'member'] as const;
const NUMBER_OPTIONS = ['budget', 'limit', 'context'] as const;

/** Command options from a request's plain option map; unknown keys are ignored. */
export function commandOptions(req: ServedRequest): CommandOptions {
  const o = req.options;
  const out: Record<string, unknown> = { cwd: req.cwd };
  for (const k of STRING_OPTIONS) if (typeof o[k] === 'string') out[k] = o[k];
  for (const k of NUMBER_OPTIONS) if (typeof o[k] === 'number') out[k] = o[k];
  // Lines unless the client asked for JSON (spec 4: lines is every verb's default).
  out.format = o.format === 'json' ? 'json' : 'lines';
  if (o.scopes === 'shared' || o.scopes === 'per_source') out.scopes = o.scopes;
  if (o.noWorkspace === true) out.noWorkspace = true;
  // The MCP front end's structured content: the JSON view of the same answer.
  if (o.alsoJson === true) out.alsoJson = true;
  // An in-process caller that must start nothing (a daemon's own requests never say so).
  if (o.noDaemon === true) out.noDaemon = true;
  return out as CommandOptions;
}

/** The budget of an answer that runs no verb: -b, the workspace's, else the verb's default. */
function budgetOf(req: ServedRequest, opts: CommandOptions): number {
  return responseBudget(opts, req.verb === 'show' ? DEFAULT_SHOW_BUDGET : DEFAULT_BUDGET);
}

/**
 * Answer one request; never throws: an exception in a verb answers one coded
 * `internal_error` line (no stack), fitted to the budget like every other error.
 */
export async function handleServedRequest(req: ServedRequest): Promise<CommandResult> {
  const opts = commandOptions(req);
  let result: CommandResult;
  try {
    result = await serve(req, opts);
  } catch (err) {
    result = internalErrorResult(err, budgetOf(req, opts));
  }
  return linesError(result, opts);
}

/** An error in lines format is the stderr line alone (spec 4: the JSON error object is for --json). */
export function linesError(result: CommandResult, opts: CommandOptions): CommandResult {
  return result.exitCode === 2 && opts.format !== 'json' ? { ...result, stdout: '' } : result;
}

function serve(req: ServedRequest, opts: CommandOptions): Promise<CommandResult> | CommandResult {
  const usage = (message: string) => errorResult({ code: 'bad_arguments', message }, budgetOf(req, opts));
  switch (req.verb) {
    case 'search':
      return req.args.length ? searchCommand(req.args, opts) : usage('search needs a query');
    case 'more':
      return req.args.length === 1 ? moreCommand(req.args[0], opts) : usage('more takes one CURSOR');
    case 'show': {
      const show = parseShowWords(req.args);
      return 'usage' in show ? usage(show.usage) : showCommand(show.target, opts, show.side);
    }
    case 'refs':
      return req.args.length ? refsCommand(req.args, opts) : usage('refs needs a NAME');
    case 'map':
      return req.args.length ? mapCommand(req.args, opts) : usage('map needs a PATH');
    case 'ctx':
      return req.args.length === 1 ? ctxCommand(req.args[0], opts) : usage('ctx takes one HANDLE');
    case 'hist':
      return req.args.length ? histCommand(req.args, opts) : usage(HISTORY_VERB_USAGE.hist);
    case 'blame':
      return req.args.length ? blameCommand(req.args, opts) : usage(HISTORY_VERB_USAGE.blame);
    case 'since':
      return req.args.length ? sinceCommand(req.args, opts) : usage(HISTORY_VERB_USAGE.since);
    case 'diff':
      return req.args.length ? diffCommand(req.args, opts) : usage(HISTORY_VERB_USAGE.diff);
    case 'status':
      return statusCommand(opts);
    default:
      return usage(`a daemon does not serve '${quoteInput(req.verb)}'; run it without the daemon`);
  }
}
