// The full path of the CLI: yargs, every verb, local execution (and daemon start-up).
import yargs from 'yargs';
import {
  serveRootDaemon, serveThroughDaemons, singleRootOf, stopDaemons, blameCommand, ctxCommand, diffCommand, histCommand, HISTORY_VERB_USAGE, sinceCommand, indexCommand, mapCommand, moreCommand, parseShowWords, refsCommand, searchCommand, showCommand, statusCommand, wsCommand, WS_SUBCOMMANDS,
  boundedMessage, DEFAULT_BUDGET, DEFAULT_SHOW_BUDGET, errorResult, escapeLineField, internalErrorResult, linesError, objectResult, quoteInput, responseBudget,
  type CommandOptions, type CommandResult,
} from '@trufflepig/workspace';
import { FAST_VERBS } from '@trufflepig/workspace/client';
import { runAgentSetup } from './agent-setup/run';
import { likelyVerb, missingValueMessage, splitArgv, VERBS } from './argv';
import { progressReporter } from './progress';

const USAGE = `Usage: trufflepig [--root DIR] [--cache DIR] [-b N] [-n N] [-C N] [--json] [--no-daemon]
                  [--workspace FILE | --no-workspace] [--member NAME] [--scopes shared|per_source] VERB ...

Verbs:
  index               index the root (foreground), or every member of the workspace
  search QUERY...     ranked, budgeted, file-first hits with handles (every word is the query)
  show HANDLE         read a hit's bytes, verified against its revision (also: show path:P[:A-B])
  show sym:NAME [file: lang: kind:]
                      the best definition of NAME, with its other definitions, imports, uses
  more CURSOR         the next page of a search (CURSOR is SET@OFFSET from "next")
  refs NAME [filters] every site of NAME (or Type::name): resolved, candidate or unresolved
  map PATH            a file's outline, or one row per file under a directory prefix
  ctx HANDLE          container, members or siblings, callers and callees of a hit
  hist TARGET         the commits that changed TARGET (a HANDLE, path:P[:A-B], sym:NAME), newest
                      first along first parents, following renames and moves; show SET:N prints
                      a commit's hunk of the target (--side before|after: either side's bytes)
  blame TARGET        for each run of TARGET's lines, the commit that last changed it
                      (whitespace-only and moved lines keep their older commit)
  since REV [TARGET]  definitions added, removed and changed between REV and the working tree,
                      by file, each with a handle to its diff (--uncommitted: against HEAD)
  diff REV [--target TARGET]
                      a budgeted diff of REV against the working tree: changed definitions first,
                      each with its hunk (whitespace-only ones marked), then the hunks outside
                      any definition; show SET:N reads a change back, verified (--uncommitted:
                      against HEAD; --target: one handle, path:P[:A-B] or sym:NAME)
  status              the index's generation, coverage and daemon (in a workspace: per member)
  serve               run the root's daemon in the foreground (watches, reconciles, answers)
  stop                stop the root's daemon
  mcp                 serve the read verbs as Model Context Protocol tools over stdio (docs/mcp.md)
  ws show             the workspace: configuration, home, member roots, availability
  ws status           ws show plus generation, coverage, history index and worktree seed per member
  ws discover DIR...  validate directories and print a proposed workspace TOML (applies nothing)
  agent-setup --claude|--codex|--agents-md [--hook [--block]] [--print] [--force]
                      write instructions for a coding agent: a Claude Code skill, an AGENTS.md
                      section; --hook adds Claude Code's grep/find hint hook (docs/agents.md)
  hook claude [--block]
                      the hint hook Claude Code runs before a Bash call (PreToolUse JSON on stdin)
  help                this text

Query language: free text, "literal phrase", sym:NAME, sym:Type::member, re:PATTERN,
  file:P, -file:P, lang:L, kind:K, source:S, -source:S; workspace selectors in:MEMBER,
  ws:home, ws:all (a search without one stays in the home member and widens to all
  members only when home has no hits)
Origins: every hit names its sources (code, test, docs, config, git-log for commit messages).
  source:code answers "what does the code do" from code alone (a filter: no extra cost).
  --scopes per_source keeps origins apart when docs, commits and code may disagree: the
  global ranking, then one group per source, each ranked on its own (one extra ranking
  pass per source present; the budget is shared, every group gets its top hit first).
  Commit messages are searched only with source:git-log or under per_source.
Daemons: reads go to the root's daemon (or a workspace's coordinator), started on first
  use; it reconciles edits within about a second; a root it has not indexed yet answers
  index_warming. --no-daemon starts nothing and indexes in the foreground.
Workspaces: --workspace FILE, else the nearest trufflepig.workspace.toml above the
  directory, else the registry ($XDG_CONFIG_HOME/trufflepig/workspaces.toml) when the
  directory lies in a member; --no-workspace searches the root alone.
Output: lines (default): a search hit is HANDLE  PATH:START-END  [NAME]  [origin], then its
  evidence lines "  LINE: TEXT" (-C N adds N context lines "  LINE- TEXT"), then coverage
  and next. --json (same as --format json): one JSON object with every field plus byte
  offsets, URIs and revisions. At most -b tokens (o200k_base, default 600 or the
  workspace's [output].budget, show 1200). Errors exit 2 with "trufflepig: CODE: message"
  on stderr (with --json also {"error":{"code","message"}} on stdout).`;

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
  process.stderr.write(`trufflepig: bad_arguments: ${escapeLineField(boundedMessage(message))}\n${USAGE}\n`);
  return 2;
}

export async function runFull(argv: readonly string[]): Promise<number> {
  const split = splitArgv(argv);
  if (split.missingValue !== undefined) return usageError(missingValueMessage(split.missingValue));
  const asksHelp = argv.includes('--help') || argv.includes('-h');
  const unknown = split.unknownOptions[0];
  if (unknown !== undefined && !asksHelp) {
    return usageError(`unknown option ${quoteInput(unknown)}; to search for it as text, put it after -- (trufflepig search -- ${quoteInput(unknown)}) or quote it`);
  }
  let failed: string | undefined;
  const parsed = yargs(split.options)
    .scriptName('trufflepig')
    .usage(USAGE)
    // USAGE is wrapped by hand; yargs would wrap it again at 80 columns when stdout is not a
    // terminal (an agent's shell), breaking every list in it.
    .wrap(null)
    .option('root', { type: 'string', describe: 'repository root (default: the Git top level of the current directory)' })
    .option('cache', { type: 'string', describe: 'cache base: each root uses DIR/<root-hash> (default base: $XDG_CACHE_HOME/trufflepig)' })
    .option('budget', { alias: 'b', type: 'number', describe: 'token budget of the whole response (o200k_base)' })
    .option('limit', { alias: 'n', type: 'number', describe: 'files per page (default 20)' })
    .option('context', { alias: 'C', type: 'number', describe: 'context lines around each evidence line of a search hit (0-10)' })
    .option('format', { choices: ['json', 'lines'] as const, describe: 'output format (default lines)' })
    .option('json', { type: 'boolean', describe: 'same as --format json' })
    .option('daemon', { type: 'boolean', default: true, describe: 'use a background daemon (--no-daemon: foreground only)' })
    .option('workspace', { type: 'string', describe: 'workspace configuration file (--no-workspace: no discovery)' })
    .option('member', { type: 'string', describe: 'select one workspace member' })
    .option('scopes', { choices: ['shared', 'per_source'] as const, describe: 'rank origins together (shared) or also per source (per_source)' })
    .version(require('../package.json').version)
    .help('help')
    .alias('help', 'h')
    .strict()
    .exitProcess(false)
    .fail((msg) => {
      failed = msg;
    })
    .parseSync();
  // yargs spreads some messages over lines ("Invalid values:\n  Argument: ..."); the first
  // stderr line must carry the whole reason.
  if (failed) return usageError(failed.replace(/\s*\n\s*/g, ' '));
  if (asksHelp || argv.includes('--version')) return 0;
  const budget = parsed.budget;
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 0)) return usageError('-b/--budget takes a whole number of tokens ≥ 0');
  if (parsed.limit !== undefined && (!Number.isInteger(parsed.limit) || parsed.limit < 1)) return usageError('-n/--limit takes a whole number ≥ 1');
  const noWorkspace = split.options.includes('--no-workspace');
  if (noWorkspace && split.options.some((a) => a === '--workspace')) return usageError('--no-workspace conflicts with --workspace; pass only one of them');
  const workspaceFlag = parsed.workspace as unknown;
  if (Array.isArray(workspaceFlag)) return usageError('--workspace was given more than once; pass one FILE');
  if (!noWorkspace && workspaceFlag !== undefined && (typeof workspaceFlag !== 'string' || workspaceFlag === '')) return usageError('--workspace takes a FILE (or a directory holding trufflepig.workspace.toml)');
  const opts: CommandOptions = {
    root: parsed.root, cache: parsed.cache, budget, limit: parsed.limit,
    ...(parsed.context !== undefined ? { context: parsed.context } : {}),
    format: parsed.json ? 'json' : parsed.format ?? 'lines', noDaemon: parsed.daemon === false,
    ...(typeof workspaceFlag === 'string' ? { workspace: workspaceFlag } : {}), noWorkspace,
    ...(parsed.member !== undefined ? { member: parsed.member } : {}),
    ...(parsed.scopes !== undefined ? { scopes: parsed.scopes } : {}),
  };
  const verb = split.verb;
  if (verb === undefined) return usageError('missing verb');
  if (!(VERBS as readonly string[]).includes(verb)) return usageError(`unknown verb '${quoteInput(verb)}'; did you mean: trufflepig ${likelyVerb(verb)}`);
  try {
    return await runVerb(verb, split.words, opts);
  } catch (err) {
    // An exception in a verb: one coded line within the budget, never a stack.
    return writeResult(linesError(internalErrorResult(err, responseBudget(opts, verb === 'show' ? DEFAULT_SHOW_BUDGET : DEFAULT_BUDGET)), opts));
  }
}

async function runVerb(verb: string, words: readonly string[], opts: CommandOptions): Promise<number> {
  // An error in lines format is its stderr line alone; --json also prints the JSON error.
  const write = (r: CommandResult) => writeResult(linesError(r, opts));
  // A read verb: start the root's daemon (or the workspace's coordinator) when none runs
  // and let it answer (an unpublished root then answers index_warming while its daemon
  // indexes); when it cannot start, answer here.
  if (!opts.noDaemon && FAST_VERBS.has(verb)) {
    const options: Record<string, string | number | boolean> = {};
    for (const key of ['root', 'cache', 'member', 'budget', 'limit', 'context', 'format', 'scopes'] as const) {
      const value = opts[key];
      if (value !== undefined) options[key] = value;
    }
    if (opts.noWorkspace) options.noWorkspace = true;
    const served = await serveThroughDaemons(verb, words, opts, options);
    if (served) return write({ stdout: served.stdout, stderr: served.stderr, exitCode: served.exitCode === 0 ? 0 : 2 });
  }
  switch (verb) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'index':
      return write(await indexCommand({ ...opts, onProgress: process.stderr.isTTY ? progressReporter() : undefined }));
    case 'search':
      if (words.length === 0) return usageError('search needs a query, e.g. trufflepig search refill tokens');
      return write(await searchCommand(words, opts));
    case 'show': {
      // `show sym:NAME file:src/ kind:fn` takes filters; every other form is one word (and `--side` for a change).
      const show = parseShowWords(words);
      if ('usage' in show) return usageError(show.usage);
      return write(await showCommand(show.target, opts, show.side));
    }
    case 'more':
      if (words.length !== 1) return usageError('more takes one CURSOR (SET@OFFSET) as printed after "next"');
      return write(await moreCommand(words[0], opts));
    case 'refs':
      if (words.length === 0) return usageError('refs needs a NAME, e.g. trufflepig refs TokenBucket file:src/');
      return write(await refsCommand(words, opts));
    case 'map':
      if (words.length === 0) return usageError('map needs a PATH, e.g. trufflepig map src/lib.rs or trufflepig map src/');
      return write(await mapCommand(words, opts));
    case 'ctx':
      if (words.length !== 1) return usageError('ctx takes one HANDLE (SET:ORDINAL) from search, refs, map or show sym:');
      return write(await ctxCommand(words[0], opts));
    case 'hist':
    case 'blame':
      if (words.length === 0) return usageError(HISTORY_VERB_USAGE[verb]);
      return write(await (verb === 'hist' ? histCommand : blameCommand)(words, opts));
    case 'since':
      if (words.length === 0) return usageError(HISTORY_VERB_USAGE.since);
      return write(await sinceCommand(words, opts));
    case 'diff':
      if (words.length === 0) return usageError(HISTORY_VERB_USAGE.diff);
      return write(await diffCommand(words, opts));
    case 'status':
      return write(await statusCommand(opts));
    case 'serve': {
      const target = singleRootOf(opts);
      if (!target.ok) return write(errorResult(target.error, responseBudget(opts, DEFAULT_BUDGET)));
      const started = await serveRootDaemon(target.value.root, target.value.cacheDir, (line) => process.stderr.write(`${line}\n`));
      if (!started.ok) return write(errorResult(started, responseBudget(opts, DEFAULT_BUDGET)));
      process.stderr.write(`trufflepig: serving ${target.value.root} on ${started.daemon.socketPath} (pid ${started.daemon.pid}); stop with: trufflepig stop\n`);
      await started.daemon.done;
      return 0;
    }
    case 'stop': {
      // In a workspace only the coordinator stops; member daemons keep their roots fresh.
      const stopped = await stopDaemons(opts);
      if (!stopped.ok) return write(errorResult(stopped.error, responseBudget(opts, DEFAULT_BUDGET)));
      const v = stopped.value;
      return write(objectResult(v.stopped !== null ? { stopped: v.stopped, what: v.what } : { stopped: null, what: v.what, reason: `no ${v.what} runs here` }, responseBudget(opts, DEFAULT_BUDGET), opts.format));
    }
    case 'mcp': {
      if (words.length > 0) return usageError(`mcp takes no arguments (it serves the root or workspace of its directory, or --root/--workspace)`);
      // Loaded only here: the SDK is not the CLI's cost for any other verb.
      const { serveProcessStdio } = require('@trufflepig/mcp') as typeof import('@trufflepig/mcp');
      const target = {
        cwd: process.cwd(), noDaemon: opts.noDaemon === true,
        ...(opts.root !== undefined ? { root: opts.root } : {}), ...(opts.cache !== undefined ? { cache: opts.cache } : {}),
        ...(opts.workspace !== undefined ? { workspace: opts.workspace } : {}), ...(opts.noWorkspace ? { noWorkspace: true } : {}),
      };
      await serveProcessStdio(target, require('../package.json').version as string);
      // Readers and timers of in-process calls must not keep a finished session alive.
      process.exit(0);
    }
    case 'agent-setup': {
      const r = runAgentSetup(words, { root: opts.root, cache: opts.cache, cwd: process.cwd(), env: process.env, json: opts.format === 'json' });
      if (r.kind === 'usage') return usageError(r.message);
      if (r.kind === 'error') return write(errorResult(r.error, opts.budget ?? DEFAULT_BUDGET));
      // Not fitted to -b: --print shows whole files, and nothing here is a retrieval answer.
      return writeResult({ stdout: r.stdout, stderr: r.stderr, exitCode: 0 });
    }
    case 'ws': {
      const [sub, ...rest] = words;
      if (sub === undefined || !(WS_SUBCOMMANDS as readonly string[]).includes(sub)) return usageError(`ws takes show, status or discover DIR...${sub ? ` (not '${quoteInput(sub)}')` : ''}`);
      if (sub !== 'discover' && rest.length > 0) return usageError(`ws ${sub} takes no arguments`);
      return write(await wsCommand(sub, rest, opts));
    }
  }
  return 0;
}
