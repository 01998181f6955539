// The full path of the CLI: every verb, local execution (and daemon start-up). The
// command line is read by @trufflepig/cli-surface's table, the same one the fast path,
// the daemon's request decoding, help and docs/cli.md are made from.
import {
  DAEMON_STARTING_VERBS,
  forwardedWire,
  helpTextFor,
  readCommandLine,
  unknownVerbMessage,
  usageText,
  wordsError,
  isVerb,
  type CliOptions,
  type VerbName,
} from '@trufflepig/cli-surface';
import {
  serveRootDaemon,
  serveThroughDaemons,
  singleRootOf,
  stopDaemons,
  blameCommand,
  ctxCommand,
  diffCommand,
  histCommand,
  sinceCommand,
  indexCommand,
  mapCommand,
  moreCommand,
  parseShowWords,
  refsCommand,
  searchCommand,
  showCommand,
  statusCommand,
  wsCommand,
  WS_SUBCOMMANDS,
  boundedMessage,
  DEFAULT_BUDGET,
  DEFAULT_SHOW_BUDGET,
  editDistance,
  errorResult,
  escapeLineField,
  internalErrorResult,
  linesError,
  objectResult,
  quoteInput,
  responseBudget,
  type CommandOptions,
  type CommandResult,
} from '@trufflepig/workspace';
import { runAgentSetup } from './agent-setup/run';
import { progressReporter } from './progress';

function writeResult(r: CommandResult): number {
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr.endsWith('\n') ? r.stderr : `${r.stderr}\n`);
  return r.exitCode;
}

/**
 * A usage error: `trufflepig: bad_arguments: MESSAGE` on stderr (one bounded, escaped
 * line, then the usage), nothing on stdout, exit 2: coded like every other error, so a
 * script can tell a typo from a failed search.
 */
function usageError(message: string): number {
  process.stderr.write(`trufflepig: bad_arguments: ${escapeLineField(boundedMessage(message))}\n${usageText()}\n`);
  return 2;
}

/** The facade's options of a parsed command line. */
function commandOptions(o: CliOptions): CommandOptions {
  return {
    root: o.root,
    cache: o.cache,
    budget: o.budget,
    limit: o.limit,
    ...(o.context !== undefined ? { context: o.context } : {}),
    format: o.format,
    noDaemon: o.noDaemon,
    ...(o.workspace !== undefined ? { workspace: o.workspace } : {}),
    noWorkspace: o.noWorkspace,
    ...(o.member !== undefined ? { member: o.member } : {}),
    ...(o.scopes !== undefined ? { scopes: o.scopes } : {}),
  };
}

export async function runFull(argv: readonly string[]): Promise<number> {
  const line = readCommandLine(argv, quoteInput);
  if (line.kind === 'usage') return usageError(line.message);
  if (line.kind === 'help') {
    // `search --help`: that verb's help; `--help` alone or with an unknown word: all of it.
    process.stdout.write(`${helpTextFor(line.split.verb)}\n`);
    return 0;
  }
  if (line.kind === 'version') {
    process.stdout.write(`${require('../package.json').version as string}\n`);
    return 0;
  }
  const opts = commandOptions(line.options);
  const verb = line.verb;
  if (verb === undefined) return usageError('missing verb');
  if (!isVerb(verb)) return usageError(unknownVerbMessage(verb, quoteInput, editDistance, line.words[0]));
  try {
    return await runVerb(verb, line.words, line, opts);
  } catch (err) {
    // An exception in a verb: one coded line within the budget, never a stack.
    return writeResult(
      linesError(
        internalErrorResult(err, responseBudget(opts, verb === 'show' ? DEFAULT_SHOW_BUDGET : DEFAULT_BUDGET)),
        opts,
      ),
    );
  }
}

/** Run a verb; a verb missing here is a compile error (every case returns). */
async function runVerb(
  verb: VerbName,
  words: readonly string[],
  line: { readonly options: CliOptions; readonly split: { readonly options: readonly string[] } },
  opts: CommandOptions,
): Promise<number> {
  // An error in lines format is its stderr line alone; --json also prints the JSON error.
  const write = (r: CommandResult) => writeResult(linesError(r, opts));
  // A read verb: start the root's daemon (or the workspace's coordinator) when none runs
  // and let it answer (an unpublished root then answers index_warming while its daemon
  // indexes); when it cannot start, answer here. A verb the table marks startsNoDaemon
  // (`status`) was answered on the fast path if a daemon runs, and is answered here if not.
  if (!opts.noDaemon && (DAEMON_STARTING_VERBS as ReadonlySet<string>).has(verb)) {
    const served = await serveThroughDaemons(verb, words, opts, forwardedWire(line.options));
    if (served) return write({ stdout: served.stdout, stderr: served.stderr, exitCode: served.exitCode === 0 ? 0 : 2 });
  }
  // Words that do not fit the verb (`search` with no query, `more` with two cursors).
  const misfit = wordsError(verb, words);
  if (misfit !== undefined) return usageError(misfit);
  switch (verb) {
    case 'help':
      process.stdout.write(`${helpTextFor(words[0])}\n`);
      return 0;
    case 'index':
      return write(await indexCommand({ ...opts, onProgress: process.stderr.isTTY ? progressReporter() : undefined }));
    case 'search':
      return write(await searchCommand(words, opts));
    case 'show': {
      // `show sym:NAME file:src/ kind:fn` takes filters; every other form is one word (and `--side` for a change).
      const show = parseShowWords(words);
      if ('usage' in show) return usageError(show.usage);
      return write(await showCommand(show.target, opts, show.side));
    }
    case 'more':
      return write(await moreCommand(words[0], opts));
    case 'refs':
      return write(await refsCommand(words, opts));
    case 'map':
      return write(await mapCommand(words, opts));
    case 'ctx':
      // One HANDLE, or `sym:NAME` and its filters (arity `target`, checked above).
      return write(await ctxCommand(words.join(' '), opts));
    case 'hist':
      return write(await histCommand(words, opts));
    case 'blame':
      return write(await blameCommand(words, opts));
    case 'since':
      return write(await sinceCommand(words, opts));
    case 'diff':
      return write(await diffCommand(words, opts));
    case 'status':
      return write(await statusCommand(opts));
    case 'serve': {
      const target = singleRootOf(opts);
      if (!target.ok) return write(errorResult(target.error, responseBudget(opts, DEFAULT_BUDGET)));
      const started = await serveRootDaemon(target.value.root, target.value.cacheDir, (line) =>
        process.stderr.write(`${line}\n`),
      );
      if (!started.ok) return write(errorResult(started, responseBudget(opts, DEFAULT_BUDGET)));
      process.stderr.write(
        `trufflepig: serving ${target.value.root} on ${started.daemon.socketPath} (pid ${started.daemon.pid}); stop with: trufflepig stop\n`,
      );
      await started.daemon.done;
      return 0;
    }
    case 'stop': {
      // In a workspace only the coordinator stops; member daemons keep their roots fresh.
      const stopped = await stopDaemons(opts);
      if (!stopped.ok) return write(errorResult(stopped.error, responseBudget(opts, DEFAULT_BUDGET)));
      const v = stopped.value;
      return write(
        objectResult(
          v.stopped !== null
            ? { stopped: v.stopped, what: v.what }
            : { stopped: null, what: v.what, reason: `no ${v.what} runs here` },
          responseBudget(opts, DEFAULT_BUDGET),
          opts.format,
        ),
      );
    }
    case 'mcp': {
      // Loaded only here: the SDK is not the CLI's cost for any other verb.
      const { serveProcessStdio } = require('@trufflepig/mcp') as typeof import('@trufflepig/mcp');
      const target = {
        cwd: process.cwd(),
        noDaemon: opts.noDaemon === true,
        ...(opts.root !== undefined ? { root: opts.root } : {}),
        ...(opts.cache !== undefined ? { cache: opts.cache } : {}),
        ...(opts.workspace !== undefined ? { workspace: opts.workspace } : {}),
        ...(opts.noWorkspace ? { noWorkspace: true } : {}),
      };
      // `--json` adds each answer's JSON view as structured content (off by default: clients
      // that see it hand the model the JSON instead of the lines; docs/mcp.md).
      await serveProcessStdio(target, require('../package.json').version as string, {
        structured: opts.format === 'json',
      });
      // Readers and timers of in-process calls must not keep a finished session alive.
      return process.exit(0);
    }
    case 'agent-setup': {
      const r = runAgentSetup(words, {
        root: opts.root,
        cache: opts.cache,
        cwd: process.cwd(),
        env: process.env,
        json: opts.format === 'json',
      });
      if (r.kind === 'usage') return usageError(r.message);
      if (r.kind === 'error') return write(errorResult(r.error, opts.budget ?? DEFAULT_BUDGET));
      // Not fitted to -b: --print shows whole files, and nothing here is a retrieval answer.
      return writeResult({ stdout: r.stdout, stderr: r.stderr, exitCode: 0 });
    }
    case 'ws': {
      const [sub, ...rest] = words;
      if (sub === undefined || !(WS_SUBCOMMANDS as readonly string[]).includes(sub))
        return usageError(`ws takes show, status or discover DIR...${sub ? ` (not '${quoteInput(sub)}')` : ''}`);
      if (sub !== 'discover' && rest.length > 0) return usageError(`ws ${sub} takes no arguments`);
      return write(await wsCommand(sub, rest, opts));
    }
    case 'hook':
      // main.ts runs the hook before anything else; this is the same call.
      return (require('./hook/entry') as typeof import('./hook/entry')).runHookVerb(words, line.split.options);
  }
}
