// The one declaration of the `trufflepig` command's surface: every verb and every option,
// as data. Everything else in this package is derived from these tables; nothing else in
// the repository lists verbs or options (a new option is one row here).

/** How a verb takes the words after it. */
export type Arity =
  /** Words are ignored (`index`, `status`, `serve`, `stop`, `help`). */
  | 'any'
  /** At least one word; `usage` when there is none. */
  | 'some'
  /** Exactly one word; `usage` otherwise. */
  | 'one'
  /** One word (a HANDLE), or `sym:NAME` and its filters; `usage` otherwise. */
  | 'target'
  /** No word; `usage` otherwise. */
  | 'none'
  /** The verb parses its own words and answers its own usage errors (`show`, `ws`, `agent-setup`, `hook`). */
  | 'own';

/** One way to call a verb: the words after it, and what it does. */
export interface VerbForm {
  /** The words after the verb as help shows them (`QUERY...`, `sym:NAME [file: lang: kind:]`); '' for none. */
  readonly args: string;
  /** What it does, in one line of help (the help renderer wraps it at 80 columns). */
  readonly summary: string;
  /** docs/cli.md's description (Markdown), when it says more than `summary`. */
  readonly doc?: string;
}

export interface VerbSpec {
  readonly name: string;
  /** The verb's forms, the main one first (help and docs show one row each). */
  readonly forms: readonly VerbForm[];
  /** A root daemon (or a workspace's coordinator) answers it: the fast path may serve it. */
  readonly served: boolean;
  /**
   * A served verb that asks a running daemon and starts none when none runs (`status`:
   * asking whether a daemon runs must not start one). Served verbs start one by default.
   */
  readonly startsNoDaemon?: true;
  readonly arity: Arity;
  /** The usage error of words that do not fit `arity` ('some', 'one', 'none'). */
  readonly usage?: string;
  /** Flags the verb owns: after the verb they stay its words, anywhere else they are unknown options. */
  readonly flags?: readonly string[];
  /** What a did-you-mean names when an unknown word is nearest this verb (`search QUERY`). */
  readonly shape: string;
  /** Words people type for this verb (`grep`, `next`), each with the call it suggests. */
  readonly hints?: Readonly<Record<string, readonly string[]>>;
  /** Its words take the query language's filters (`file:`, `lang:`, ...): its help lists them. */
  readonly filters?: boolean;
}

/**
 * The verbs, in the order a did-you-mean breaks ties in (an unknown word as near to two
 * verbs gets the earlier) and help lists them.
 */
export const VERB_TABLE = [
  {
    name: 'index',
    served: false,
    arity: 'any',
    shape: 'index',
    forms: [
      {
        args: '',
        summary: 'index the root in the foreground (in a workspace: every member, or --member)',
        doc: 'reconcile the root in the foreground and publish a new generation when anything changed (in a workspace: every available member, or `--member NAME`)',
      },
    ],
    hints: { index: ['reindex', 'build', 'update', 'refresh'] },
  },
  {
    name: 'search',
    served: true,
    arity: 'some',
    shape: 'search QUERY',
    usage: 'search needs a query, e.g. trufflepig search refill tokens',
    forms: [
      {
        args: 'QUERY...',
        summary: 'ranked, budgeted, file-first hits with handles; every word is the query',
        doc: 'ranked, file-first, budgeted hits; every word after the verb is the query (the query language below)',
      },
    ],
    hints: { 'search QUERY': ['find', 'grep', 'query', 's'] },
  },
  {
    name: 'show',
    filters: true,
    served: true,
    arity: 'own',
    shape: 'show HANDLE',
    flags: ['--side'],
    forms: [
      {
        args: 'HANDLE',
        summary: "a hit's bytes, read once and verified against its revision",
        doc: "the hit's bytes, read once and verified against its revision",
      },
      {
        args: 'path:P[:A-B]',
        summary: "a file's current bytes, or lines A-B of it",
        doc: 'current bytes of a root-relative path (`verified: current file`); `show P:A-B` (a location pasted as a hit line prints it: not handle-shaped, with a `/` or `.` before its first `:`) is the same',
      },
      {
        args: 'sym:NAME [file: lang: kind:]',
        summary: 'the best definition of NAME, with its other definitions, imports and uses',
        doc: 'the best definition with other definitions, imports, uses ([navigation.md](navigation.md))',
      },
      {
        args: 'HANDLE --side before|after',
        summary: 'one side of a change handle (from hist or blame): its exact bytes',
        doc: 'one side of a change handle (from `hist` or `blame`): the exact bytes, verified against the blob',
      },
    ],
    hints: { 'show HANDLE': ['open', 'cat', 'read', 'view'], 'show sym:NAME': ['def', 'definition', 'goto'] },
  },
  {
    name: 'more',
    served: true,
    arity: 'one',
    shape: 'more CURSOR',
    usage: 'more takes one CURSOR (SET@OFFSET) as printed after "next"',
    forms: [
      {
        args: 'CURSOR',
        summary: 'the next page of a search, refs or map (CURSOR is SET@OFFSET, from "next")',
        doc: 'the next page of a stored result set (also of `refs` and `map`)',
      },
    ],
    hints: { 'more CURSOR': ['next', 'page', 'continue'] },
  },
  {
    name: 'refs',
    filters: true,
    served: true,
    arity: 'some',
    shape: 'refs NAME',
    usage: 'refs needs a NAME, e.g. trufflepig refs TokenBucket file:src/',
    forms: [
      {
        args: 'NAME [filters]',
        summary: 'every site of NAME (or Type::name): resolved, candidate or unresolved',
        doc: 'every site of a name: resolved, candidate or unresolved',
      },
    ],
    hints: { 'refs NAME': ['references', 'usages', 'callers'] },
  },
  {
    name: 'map',
    served: true,
    arity: 'some',
    shape: 'map PATH',
    usage: 'map needs a PATH, e.g. trufflepig map src/lib.rs or trufflepig map src/',
    forms: [
      {
        args: 'PATH',
        summary: "a file's outline, or one row per file under a directory prefix",
        doc: "a file's outline, or one row per file under a prefix",
      },
    ],
    hints: { 'map PATH': ['outline', 'symbols', 'ls'] },
  },
  {
    name: 'ctx',
    served: true,
    arity: 'target',
    shape: 'ctx HANDLE',
    usage:
      'ctx takes one HANDLE (SET:ORDINAL) from search, refs, map or show sym:, or sym:NAME [file: lang: kind:], e.g. trufflepig ctx sym:TokenBucket::refill',
    forms: [
      {
        args: 'HANDLE',
        summary:
          "container, members or siblings, callers and callees of a hit; a class's bases and subclasses, a method's overrides",
        doc: "container, members or siblings, callers and callees of a handle; an interface's implementations, a class's bases and subclasses, a method's overrides and the base method it overrides",
      },
      {
        args: 'sym:NAME [file: lang: kind:]',
        summary: 'the same for the definition show sym:NAME reads',
        doc: 'the same for the definition `show sym:NAME` reads (its choice and its errors), without a search first',
      },
    ],
    hints: { 'ctx HANDLE': ['context'] },
  },
  {
    name: 'hist',
    filters: true,
    served: true,
    arity: 'some',
    shape: 'hist TARGET',
    usage:
      'hist needs a TARGET: a HANDLE, path:P[:A-B] or sym:NAME [filters], e.g. trufflepig hist sym:TokenBucket::refill',
    forms: [
      {
        args: 'TARGET',
        summary:
          "the commits that changed TARGET (a HANDLE, path:P[:A-B] or sym:NAME), newest first, following renames; show SET:N prints a commit's hunk",
        doc: "the first-parent commits that changed a handle's span, `path:P[:A-B]` or `sym:NAME`, newest first, following renames and moves; each row's handle `show`s that commit's hunk of the target, verified against the Git objects ([history.md](history.md))",
      },
    ],
    hints: { 'hist TARGET': ['log', 'history', 'commits'] },
  },
  {
    name: 'blame',
    filters: true,
    served: true,
    arity: 'some',
    shape: 'blame TARGET',
    usage:
      'blame needs a TARGET: a HANDLE, path:P[:A-B] or sym:NAME [filters], e.g. trufflepig blame sym:TokenBucket::refill',
    forms: [
      {
        args: 'TARGET',
        summary:
          "for each run of TARGET's lines, the commit that last changed it (moved and whitespace-only lines keep the older one)",
        doc: "for each run of the target's lines, the commit that last changed it (whitespace-only and moved lines keep their older commit) ([history.md](history.md))",
      },
    ],
    hints: { 'blame TARGET': ['annotate', 'praise', 'who'] },
  },
  {
    name: 'since',
    served: true,
    arity: 'some',
    shape: 'since REV [TARGET]',
    flags: ['--uncommitted'],
    usage:
      'since needs a REV (HEAD~3, main, a hash) or --uncommitted, e.g. trufflepig since HEAD~5 [path:P | sym:NAME]',
    forms: [
      {
        args: 'REV [TARGET]',
        summary:
          'definitions added, removed and changed between REV and the working tree, by file, each with a handle to its diff',
        doc: 'definitions added, removed and changed between REV and the working tree, by file, each with a handle to its diff ([history.md](history.md))',
      },
      {
        args: '--uncommitted [TARGET]',
        summary: 'the same against HEAD, marking staged and unstaged files',
        doc: 'the same between HEAD and the working tree, marking staged and unstaged files',
      },
    ],
    hints: { 'since REV': ['changes', 'changed'], 'since --uncommitted': ['uncommitted'] },
  },
  {
    name: 'diff',
    served: true,
    arity: 'some',
    shape: 'diff REV [--target TARGET]',
    flags: ['--uncommitted', '--target'],
    usage:
      'diff needs a REV (HEAD~3, main, a hash) or --uncommitted, e.g. trufflepig diff HEAD~2 [--target path:P | sym:NAME]',
    forms: [
      {
        args: 'REV [--target TARGET]',
        summary:
          'a budgeted diff of REV against the working tree: changed definitions first, each with its hunk, then the other hunks; show SET:N reads a change back',
        doc: 'a budgeted, definition-aware diff: changed definitions first with their hunks, then the hunks outside every definition, whitespace-only changes marked, each with a change handle; `--target` (a handle, `path:P[:A-B]` or `sym:NAME`) narrows it ([history.md](history.md))',
      },
      { args: '--uncommitted [--target TARGET]', summary: 'the same against HEAD' },
    ],
    hints: { 'diff REV': ['patch', 'delta'] },
  },
  {
    name: 'status',
    served: true,
    startsNoDaemon: true,
    arity: 'any',
    shape: 'status',
    forms: [
      {
        args: '',
        summary: "the index's generation, coverage and daemon (in a workspace: per member)",
        doc: 'generation and coverage of the published index (in a workspace: `ws status`)',
      },
    ],
    hints: { status: ['info', 'stat'] },
  },
  {
    name: 'ws',
    served: false,
    arity: 'own',
    shape: 'ws show|status|discover',
    forms: [
      {
        args: 'show',
        summary: 'the workspace: configuration, home, member roots, availability',
        doc: 'the selected workspace: configuration, home, member roots, availability',
      },
      {
        args: 'status',
        summary: 'ws show plus generation, coverage, history index and worktree seed per member',
        doc: "`ws show` plus each member's generation, coverage, history index and a worktree's seed outcome",
      },
      {
        args: 'discover DIR...',
        summary: 'validate directories and print a proposed workspace TOML (applies nothing)',
      },
    ],
    hints: { 'ws show': ['workspace', 'members'], 'ws discover PATH...': ['discover'] },
  },
  {
    name: 'serve',
    served: false,
    arity: 'any',
    shape: 'serve',
    forms: [{ args: '', summary: "run the root's daemon in the foreground (watches, reconciles, answers)" }],
    hints: { serve: ['daemon', 'start'] },
  },
  {
    name: 'stop',
    served: false,
    arity: 'any',
    shape: 'stop',
    forms: [{ args: '', summary: "stop the root's daemon (in a workspace: only its coordinator)" }],
    hints: { stop: ['kill', 'shutdown'] },
  },
  {
    name: 'mcp',
    served: false,
    arity: 'none',
    shape: 'mcp',
    usage: 'mcp takes no arguments (it serves the root or workspace of its directory, or --root/--workspace)',
    forms: [
      {
        args: '',
        summary: 'serve the read verbs as Model Context Protocol tools over stdio (docs/mcp.md)',
        doc: 'serve the read verbs as Model Context Protocol tools over stdio, for the root or workspace of the directory (or `--root`/`--workspace`; `--no-daemon` keeps calls in its process) ([mcp.md](mcp.md))',
      },
    ],
  },
  {
    name: 'agent-setup',
    served: false,
    arity: 'own',
    shape: 'agent-setup --claude|--codex|--agents-md',
    flags: ['--claude', '--codex', '--agents-md', '--print', '--force', '--hook', '--block'],
    forms: [
      {
        args: '--claude|--codex|--agents-md [--hook [--block]]',
        summary:
          "write instructions for a coding agent: a Claude Code skill or an AGENTS.md section; --hook adds Claude Code's grep/find hint hook; --print shows them, --force replaces a file that differs (docs/agents.md)",
        doc: "write instructions for a coding agent: a Claude Code skill (`.claude/skills/trufflepig/SKILL.md`), a marked section of `AGENTS.md`; `--hook` adds Claude Code's hint hook to `.claude/settings.json`; `--print` shows the text and writes nothing, `--force` replaces a file that differs; not fitted to `-b` (`--print` shows whole files) ([agents.md](agents.md))",
      },
    ],
    hints: {
      'agent-setup --claude|--codex|--agents-md': ['setup'],
      'agent-setup --claude': ['skill'],
      'agent-setup --agents-md': ['agents'],
    },
  },
  {
    name: 'hook',
    served: false,
    arity: 'own',
    shape: 'hook claude',
    flags: ['--block'],
    forms: [
      {
        args: 'claude [--block]',
        summary: 'the hint hook Claude Code runs before a Bash call (PreToolUse JSON on stdin)',
        doc: 'the hint hook Claude Code runs before a Bash call: PreToolUse JSON on stdin, a suggested Trufflepig command as JSON on stdout ([agents.md](agents.md))',
      },
    ],
  },
  {
    name: 'help',
    served: false,
    arity: 'any',
    shape: 'help',
    forms: [
      {
        args: '[VERB]',
        summary: "this text (also -h, --help); help VERB or VERB --help: that verb's alone",
        doc: "the help text (also `-h`, `--help`); `help VERB` or `VERB --help`: that verb's forms, the options' synopsis and the query forms it takes",
      },
    ],
  },
] as const satisfies readonly VerbSpec[];

export type VerbName = (typeof VERB_TABLE)[number]['name'];

/** A verb a daemon serves. */
export type ServedVerbName = Extract<(typeof VERB_TABLE)[number], { readonly served: true }>['name'];

/** The parsed options of one command line: the fields `OptionSpec.key` names. */
export interface CliOptions {
  readonly root?: string;
  readonly cache?: string;
  readonly budget?: number;
  readonly limit?: number;
  /** `-C N`; its range is checked where the verb runs (bad_arguments). */
  readonly context?: number;
  readonly format: 'json' | 'lines';
  readonly noDaemon: boolean;
  readonly workspace?: string;
  readonly noWorkspace: boolean;
  readonly member?: string;
  readonly scopes?: 'shared' | 'per_source';
  readonly help: boolean;
  readonly version: boolean;
}

export type OptionKey = keyof CliOptions;

/** Where a request to a daemon carries an option, and whether a CLI call forwards it. */
export interface WireField {
  /** The key in the request's option map. */
  readonly key: string;
  /**
   * A CLI call sends it to the daemon it asks. `workspace` is not sent as typed (the
   * client adds the configuration file it resolved), nor is `noDaemon` (a daemon's own
   * requests never say it; an in-process caller may).
   */
  readonly forwarded: boolean;
}

export interface OptionSpec {
  /** `--budget`. */
  readonly long: string;
  /** `-b`. */
  readonly short?: string;
  /** `string` and `number` options take a value (the next word, or `--long=VALUE`); `boolean` ones do not. */
  readonly type: 'string' | 'number' | 'boolean';
  /** The `CliOptions` field it sets. Several options may set one field (`--json`, `--format`). */
  readonly key: OptionKey;
  /** A boolean's value for its field (true when absent). A flag wins over a value option of the same field; among flags the last wins. */
  readonly sets?: string | boolean;
  /** The value's placeholder in help and docs (`DIR`, `N`). */
  readonly valueName?: string;
  /** The values a string option accepts; anything else is a usage error. */
  readonly choices?: readonly string[];
  /** The field's value when no option sets it (and when a request carries no valid one). */
  readonly default?: string | boolean;
  /** The example a missing-value error shows (`-n needs a value, e.g. -n 5`); VALUE when absent. */
  readonly example?: string;
  /** A number's least value: the full path reports less (when `checked`), the fast path never serves it. */
  readonly min?: number;
  /** What the number counts, for its usage error (`takes a whole number of tokens ≥ 0`). */
  readonly unit?: string;
  /** The full path checks the number here (whole, ≥ min); otherwise the verb does (`-C`'s range). */
  readonly checked?: boolean;
  /** The usage error of an empty value, where one is an error. */
  readonly empty?: string;
  /** An option that may not be given with this one. */
  readonly conflicts?: string;
  /** Options with the same group share one bracket of the usage synopsis (`[--json | --format json|lines]`). */
  readonly group?: string;
  /** Left out of the usage synopsis (help still lists it). */
  readonly unlisted?: boolean;
  readonly summary: string;
  /** The verbs it changes anything for; `all` for every verb. Informational: every option is accepted anywhere. */
  readonly verbs: 'all' | readonly VerbName[];
  /** How a daemon request carries it, if it does. */
  readonly wire?: WireField;
}

const READS = ['search', 'show', 'more', 'refs', 'map', 'ctx', 'hist', 'blame', 'since', 'diff'] as const;
const PAGED = ['search', 'more', 'refs', 'map', 'ctx', 'hist', 'blame', 'since', 'diff'] as const;

/** The tool's own options, in the order help lists them. Each may appear anywhere on the line. */
export const OPTION_TABLE = [
  {
    long: '--root',
    type: 'string',
    key: 'root',
    valueName: 'DIR',
    verbs: 'all',
    wire: { key: 'root', forwarded: true },
    summary: 'repository root (default: the Git top level of the current directory)',
  },
  {
    long: '--cache',
    type: 'string',
    key: 'cache',
    valueName: 'DIR',
    verbs: 'all',
    wire: { key: 'cache', forwarded: true },
    summary: 'cache base: each root uses DIR/<root-hash> (default: $XDG_CACHE_HOME/trufflepig)',
  },
  {
    long: '--budget',
    short: '-b',
    type: 'number',
    key: 'budget',
    valueName: 'N',
    example: '5',
    min: 0,
    unit: 'tokens',
    checked: true,
    verbs: [...READS, 'index', 'status', 'ws', 'stop'],
    wire: { key: 'budget', forwarded: true },
    summary:
      "token budget of the whole answer (o200k_base; default 600, show 1200, or the workspace's [output].budget)",
  },
  {
    long: '--limit',
    short: '-n',
    type: 'number',
    key: 'limit',
    valueName: 'N',
    example: '5',
    min: 1,
    checked: true,
    verbs: PAGED,
    wire: { key: 'limit', forwarded: true },
    summary: 'files (or rows) per page (default 20); ctx: rows per list (default 10)',
  },
  {
    long: '--context',
    short: '-C',
    type: 'number',
    key: 'context',
    valueName: 'N',
    example: '2',
    min: 0,
    checked: false,
    verbs: ['search', 'more', 'show'],
    wire: { key: 'context', forwarded: true },
    summary:
      "context lines around each evidence line of a search hit, or around a handle's span for show (0-10); a refs row's show reads 5 without it",
  },
  {
    long: '--json',
    type: 'boolean',
    key: 'format',
    sets: 'json',
    group: 'format',
    verbs: 'all',
    summary: 'same as --format json',
  },
  {
    long: '--format',
    type: 'string',
    key: 'format',
    valueName: 'json|lines',
    choices: ['json', 'lines'],
    default: 'lines',
    group: 'format',
    verbs: 'all',
    wire: { key: 'format', forwarded: true },
    summary: 'output format (default lines)',
  },
  {
    long: '--no-daemon',
    type: 'boolean',
    key: 'noDaemon',
    sets: true,
    default: false,
    verbs: 'all',
    wire: { key: 'noDaemon', forwarded: false },
    summary: 'start and ask no daemon: index and answer in this process',
  },
  {
    long: '--daemon',
    type: 'boolean',
    key: 'noDaemon',
    sets: false,
    unlisted: true,
    verbs: 'all',
    summary: "use the root's daemon, started on first use (the default)",
  },
  {
    long: '--workspace',
    type: 'string',
    key: 'workspace',
    valueName: 'FILE',
    group: 'workspace',
    verbs: 'all',
    empty: '--workspace takes a FILE (or a directory holding trufflepig.workspace.toml)',
    wire: { key: 'workspace', forwarded: false },
    summary: 'workspace configuration file, or a directory holding trufflepig.workspace.toml',
  },
  {
    long: '--no-workspace',
    type: 'boolean',
    key: 'noWorkspace',
    sets: true,
    default: false,
    conflicts: '--workspace',
    group: 'workspace',
    verbs: 'all',
    wire: { key: 'noWorkspace', forwarded: true },
    summary: 'the root alone: no workspace discovery',
  },
  {
    long: '--member',
    type: 'string',
    key: 'member',
    valueName: 'NAME',
    verbs: [...READS, 'index', 'status', 'ws'],
    wire: { key: 'member', forwarded: true },
    summary: 'in a workspace: address one member',
  },
  {
    long: '--scopes',
    type: 'string',
    key: 'scopes',
    valueName: 'shared|per_source',
    choices: ['shared', 'per_source'],
    verbs: ['search'],
    wire: { key: 'scopes', forwarded: true },
    summary: 'rank origins together (shared), or also each source on its own (per_source)',
  },
  {
    long: '--help',
    short: '-h',
    type: 'boolean',
    key: 'help',
    sets: true,
    default: false,
    unlisted: true,
    verbs: 'all',
    summary: 'print the help text',
  },
  {
    long: '--version',
    type: 'boolean',
    key: 'version',
    sets: true,
    default: false,
    unlisted: true,
    verbs: 'all',
    summary: "the tool's version",
  },
] as const satisfies readonly OptionSpec[];

/** A field of a daemon request that no command-line option sets. */
export interface WireOnlyField {
  readonly key: string;
  readonly type: 'boolean';
  readonly summary: string;
}

/** Request fields beside the options' own (`OPTION_TABLE[].wire`). */
export const WIRE_ONLY_FIELDS = [
  {
    key: 'alsoJson',
    type: 'boolean',
    summary: "the MCP front end's structured content: the JSON view of the same answer, beside the lines",
  },
] as const satisfies readonly WireOnlyField[];

/** One form of the query language, with the example help teaches it by. */
export interface QueryForm {
  readonly form: string;
  readonly example: string;
  readonly meaning: string;
  /** A filter: the verbs after search take it too (VerbSpec.filters). */
  readonly filter?: boolean;
}

/** The query language, one example per form (help's "Query language"). */
export const QUERY_FORMS: readonly QueryForm[] = [
  { form: 'plain words', example: 'retry backoff', meaning: 'ranked over definitions, text and paths' },
  { form: 'identifier', example: 'TokenBucket', meaning: 'its definitions first, then its uses' },
  { form: '"literal"', example: '"x-forwarded-for"', meaning: "the exact text (smart case, as rg -S); 'literal' too" },
  // Quoted as a shell needs it: unquoted, `\s` reaches the tool as `s` and the search
  // answers 0 hits (a PHP trial copied the example and lost its backslashes).
  { form: 're:PATTERN', example: "'re:fn\\s+\\w+_init'", meaning: 'RE2 over live bytes, ≤5 lines per file' },
  { form: 'sym:NAME', example: 'sym:TokenBucket::refill', meaning: 'exact name; Type::member: owned by Type' },
  { form: 'kind:K', example: 'kind:fn refill', meaning: 'definitions of a kind (fn, struct, ...)', filter: true },
  { form: 'lang:L', example: 'lang:rust', meaning: 'files of language L', filter: true },
  { form: 'file:P', example: 'file:src/', meaning: 'paths under or matching P', filter: true },
  { form: '-file:P', example: '-file:tests', meaning: 'leave out paths under or matching P', filter: true },
  { form: 'source:S', example: 'source:code', meaning: 'origin: code test docs config git-log', filter: true },
  { form: 'in:M ws:W', example: 'in:api refill', meaning: 'workspace members: in:M, ws:home, ws:all', filter: true },
];
