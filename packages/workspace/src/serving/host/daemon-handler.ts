// What a root daemon and a workspace coordinator answer: the read verbs of the CLI, run
// in-process against warm indexes. Requests carry the client's argv split into verb, arguments and options.
import { wordsError } from '@trufflepig/cli-surface';
import { decodeWire } from '@trufflepig/cli-surface/wire';
import { quoteInput } from '@trufflepig/index';
import type { HandlerAnswer } from '@trufflepig/runtime';
import { DEFAULT_BUDGET, DEFAULT_SHOW_BUDGET } from '@trufflepig/render';
import {
  type CommandOptions,
  type CommandResult,
  errorResult,
  internalErrorResult,
  responseBudget,
} from '../../core/command-kit';
import { moreCommand, searchCommand, showCommand, statusCommand } from '../../facade/commands';
import { ctxCommand, mapCommand, refsCommand } from '../../navigation/commands';
import {
  blameCommand,
  histCommand,
  HISTORY_VERB_USAGE,
  parseShowWords,
  sinceCommand,
} from '../../history-verbs/commands';
import { diffCommand } from '../../history-verbs/diff-command';
import type { Host } from '../../core/host';

// Verbs a daemon serves: FAST_VERBS (serving/launch/fast-client.ts). Everything else (index, help, the
// ws verbs, which inspect locally and start nothing) runs in the client.

export interface ServedRequest {
  readonly verb: string;
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly cwd: string;
}

/**
 * Command options from a request's plain option map: the fields the CLI surface's table
 * declares (@trufflepig/cli-surface's decodeWire: each only with its type, `format` lines
 * unless json, booleans only when true); unknown keys are ignored.
 */
export function commandOptions(req: ServedRequest, host: Host): CommandOptions {
  return { cwd: req.cwd, host, ...decodeWire(req.options) };
}

/** The budget of an answer that runs no verb: -b, the workspace's, else the verb's default. */
function budgetOf(req: ServedRequest, opts: CommandOptions): number {
  return responseBudget(opts, req.verb === 'show' ? DEFAULT_SHOW_BUDGET : DEFAULT_BUDGET);
}

/**
 * Answer one request; never throws: an exception in a verb answers one coded
 * `internal_error` line (no stack), fitted to the budget like every other error.
 */
export async function handleServedRequest(req: ServedRequest, host: Host): Promise<CommandResult> {
  const opts = commandOptions(req, host);
  let result: CommandResult;
  try {
    result = await serve(req, opts);
  } catch (err) {
    result = internalErrorResult(err, budgetOf(req, opts));
  }
  return linesError(result, opts);
}

/**
 * Answer a request of a root daemon whose first index may still be building: a read that
 * finds no published index waits for the daemon's first reconcile (at most `waitMs`) and
 * is answered then. Past the wait it answers `index_warming` saying the daemon is building
 * it: the reader's `run: trufflepig index` would meet `index_locked` (an agent trial on the
 * Neovim runtime spent three commands on a fresh root before its first answer).
 */
export async function answerWhenIndexed(
  req: ServedRequest,
  host: Host,
  firstReconcileWithin: (ms: number) => Promise<boolean>,
  waitMs: number,
): Promise<HandlerAnswer> {
  const first = await handleServedRequest(req, host);
  if (first.errorCode !== 'index_warming') return asAnswer(first);
  if (await firstReconcileWithin(waitMs)) return answerRequest(req, host);
  const opts = commandOptions(req, host);
  const warming = errorResult(
    {
      code: 'index_warming',
      message: `this root's daemon (pid ${process.pid}) is building its first index and has not published it after ${Math.round(waitMs / 1000)} s; retry in a moment (trufflepig status says when it is published)`,
    },
    budgetOf(req, opts),
  );
  return asAnswer(linesError(warming, opts));
}

/** A runtime request answered in `host`, as the body of the runtime's reply (the JSON rendering rides along when the request asked for it: the MCP front end). */
export async function answerRequest(req: ServedRequest, host: Host): Promise<HandlerAnswer> {
  return asAnswer(await handleServedRequest(req, host));
}

function asAnswer(r: CommandResult): HandlerAnswer {
  return {
    stdout: r.stdout,
    stderr: r.stderr,
    exitCode: r.exitCode,
    ...(typeof r.json === 'string' ? { json: r.json } : {}),
  };
}

/** An error in lines format is the stderr line alone (docs/spec/retrieval.md §4: the JSON error object is for --json). */
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
      return wordsError('ctx', req.args) === undefined
        ? ctxCommand(req.args.join(' '), opts)
        : usage(wordsError('ctx', req.args)!);
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
