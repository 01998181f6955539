// The tools as data: each names the CLI verb it runs, its arguments (a JSON schema, the
// one the client sees), and how the arguments become the verb's words and options.
import {
  CONTEXT_LINES_MAX,
  DEFAULT_BUDGET,
  DEFAULT_LIMIT,
  DEFAULT_SHOW_BUDGET,
  REFS_ROW_SHOW_CONTEXT_LINES,
} from '@trufflepig/workspace';
import { MCP_BUDGET_MAX, MCP_LIMIT_MAX, MCP_STRING_MAX_CHARS } from '../limits';

/** The read verbs the server offers, each a tool of the same name. */
export type ToolName =
  'search' | 'show' | 'more' | 'refs' | 'map' | 'ctx' | 'status' | 'hist' | 'blame' | 'since' | 'diff';

/** One argument's schema: the subset of JSON Schema these tools use. */
export type ArgumentSchema =
  | { readonly type: 'string'; readonly description: string; readonly minLength: 1; readonly maxLength: number }
  | { readonly type: 'integer'; readonly description: string; readonly minimum: number; readonly maximum: number }
  | { readonly type: 'string'; readonly description: string; readonly enum: readonly string[] }
  | { readonly type: 'boolean'; readonly description: string };

/** An argument that becomes words of the verb after the subject: its value, or `flag` alone (a boolean), or `flag` and its value. */
export interface WordArgument {
  readonly arg: string;
  readonly flag?: string;
}

export interface ToolSpec {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  /** The argument holding the verb's words (the query, handle, cursor, name or path), if any. */
  readonly subject?: string;
  readonly properties: Readonly<Record<string, ArgumentSchema>>;
  readonly required: readonly string[];
  /** The verb's default budget (the CLI's: `show` reads more). */
  readonly defaultBudget: number;
  /** Arguments after the subject that are words of the verb, in the order the verb reads them. */
  readonly words?: readonly WordArgument[];
  /** Exactly one of these arguments must be given (a boolean counts when true). */
  readonly exactlyOne?: readonly string[];
}

const text = (description: string): ArgumentSchema => ({
  type: 'string',
  description,
  minLength: 1,
  maxLength: MCP_STRING_MAX_CHARS,
});
const budget = (byDefault: number): ArgumentSchema => ({
  type: 'integer',
  minimum: 1,
  maximum: MCP_BUDGET_MAX,
  description: `Token budget of the whole answer (o200k_base), default ${byDefault}. Raise it to read more at once; follow "next:" to page instead.`,
});
const limit: ArgumentSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MCP_LIMIT_MAX,
  description: `Files (or rows) per page, default ${DEFAULT_LIMIT}.`,
};
const context: ArgumentSchema = {
  type: 'integer',
  minimum: 0,
  maximum: CONTEXT_LINES_MAX,
  description: `Context lines around each evidence line of a hit (0-${CONTEXT_LINES_MAX}).`,
};
const member: ArgumentSchema = text(
  'In a workspace: the one member to address (by name). A search can also say in:MEMBER or ws:all in its query.',
);

/** What `hist` and `blame` take: one target, as the CLI's `hist TARGET` and `blame TARGET`. */
const HISTORY_TARGET = {
  subject: 'target',
  required: ['target'],
  defaultBudget: DEFAULT_BUDGET,
  properties: {
    target: text('sym:NAME, path:P[:A-B], or a handle from search.'),
    limit,
    budget: budget(DEFAULT_BUDGET),
    member,
  },
} as const;

/** What `since` and `diff` take: a revision or `uncommitted` (HEAD), and optionally a target. */
const REVISION_COMPARE = {
  required: [],
  defaultBudget: DEFAULT_BUDGET,
  exactlyOne: ['rev', 'uncommitted'],
  properties: {
    rev: text('The revision compared with the working tree: HEAD~3, main, a tag or a hash.'),
    uncommitted: {
      type: 'boolean',
      description:
        'Compare HEAD with the working tree instead of rev (staged and unstaged edits, untracked files); each file marked staged and/or unstaged.',
    },
    target: text('Only this: sym:NAME, path:P[:A-B], or a handle from search.'),
    limit,
    budget: budget(DEFAULT_BUDGET),
    member,
  },
} as const;

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'search',
    title: 'Search code',
    subject: 'query',
    required: ['query'],
    defaultBudget: DEFAULT_BUDGET,
    description:
      'Ranked, file-first hits that fit a token budget, each with a short handle (SET:N) for show/ctx and a "next: more CURSOR" when more exist. ' +
      'Query: free words (retry backoff), "exact phrase", sym:NAME or sym:Type::member (definitions), re:PATTERN (regex), filters file:DIR/ -file:P lang:rust kind:fn source:code|test|docs|config|git-log.',
    properties: {
      query: text(
        'The query, e.g. `token bucket refill lang:go`, `sym:RateLimiter`, `re:fn \\w+_init file:src/`, `"x-forwarded-for"`.',
      ),
      limit,
      context,
      budget: budget(DEFAULT_BUDGET),
      member,
      scopes: {
        type: 'string',
        enum: ['shared', 'per_source'],
        description:
          'per_source also ranks each origin (code, test, docs, config, git-log) on its own, so a doc never hides the code.',
      },
    },
  },
  {
    name: 'show',
    title: 'Read evidence',
    subject: 'target',
    required: ['target'],
    defaultBudget: DEFAULT_SHOW_BUDGET,
    description:
      'Read the bytes behind a handle, verified against the file on disk (stale_source when it changed), or a file range (path:P[:A-B]), or the best definition of a name (sym:NAME [file: lang: kind:]). A long read ends with "next: show ..." to continue.',
    properties: {
      target: text('A handle (k3x9q2:1), a continuation from "next:", path:src/lib.rs:10-40, or sym:NAME.'),
      context: {
        type: 'integer',
        minimum: 0,
        maximum: CONTEXT_LINES_MAX,
        description: `Lines around a handle's span (0-${CONTEXT_LINES_MAX}); a refs row is read with ${REFS_ROW_SHOW_CONTEXT_LINES} around it unless this is given.`,
      },
      budget: budget(DEFAULT_SHOW_BUDGET),
      member,
      side: {
        type: 'string',
        enum: ['before', 'after'],
        description: 'For a change handle from hist: the exact bytes of that side of the change instead of its hunk.',
      },
    },
  },
  {
    name: 'more',
    title: 'Next page',
    subject: 'cursor',
    required: ['cursor'],
    defaultBudget: DEFAULT_BUDGET,
    description:
      'The next page of a search, refs or map answer, in the original order: pass the CURSOR (SET@OFFSET) printed after "next: more".',
    properties: { cursor: text('The cursor, e.g. k3x9q2@5.'), limit, context, budget: budget(DEFAULT_BUDGET), member },
  },
  {
    name: 'refs',
    title: 'Find references',
    subject: 'name',
    required: ['name'],
    defaultBudget: DEFAULT_BUDGET,
    description:
      'Every site of a name (or Type::name), call and use sites in code first, each with its line and enclosing definition, marked resolved, candidate or unresolved.',
    properties: {
      name: text('The name and optional filters, e.g. `checkEngine file:lib/`.'),
      limit,
      budget: budget(DEFAULT_BUDGET),
      member,
    },
  },
  {
    name: 'map',
    title: 'Outline',
    subject: 'path',
    required: ['path'],
    defaultBudget: DEFAULT_BUDGET,
    description:
      "A file's outline (types, functions, methods with modifiers, one line each), or with a directory prefix one row per indexed file naming its top-level items.",
    properties: {
      path: text('A file (src/lib.rs) or a directory prefix (src/).'),
      limit,
      budget: budget(DEFAULT_BUDGET),
      member,
    },
  },
  {
    name: 'ctx',
    title: 'Structural context',
    subject: 'handle',
    required: ['handle'],
    defaultBudget: DEFAULT_BUDGET,
    description:
      'Container, members or siblings, callers, callees, implementations, subclasses, bases, overrides of a handle from search, refs, map or show sym:, or sym:NAME.',
    properties: {
      handle: text('A handle, e.g. k3x9q2:1, or sym:NAME [file: lang: kind:], e.g. sym:TokenBucket::refill.'),
      limit: { ...limit, description: 'Rows per list, default 10.' },
      budget: budget(DEFAULT_BUDGET),
      member,
    },
  },
  {
    name: 'hist',
    title: 'History of a definition',
    ...HISTORY_TARGET,
    description:
      'The commits that changed a definition or range, newest first (first-parent), following edits, renames and moves; each row a change handle for show (the hunk, verified against Git objects).',
  },
  {
    name: 'blame',
    title: 'Who last changed each line',
    ...HISTORY_TARGET,
    description:
      'For each run of lines of a target, the commit that last changed it (moved and whitespace-only changes do not count), with subject and date.',
  },
  {
    name: 'since',
    title: 'Definitions changed since a revision',
    ...REVISION_COMPARE,
    words: [{ arg: 'rev' }, { arg: 'uncommitted', flag: '--uncommitted' }, { arg: 'target' }],
    description:
      'The definitions added, removed and changed between a revision (or HEAD with uncommitted) and the working tree, by file, one line each with its size; each row a change handle for show (its diff, verified).',
  },
  {
    name: 'diff',
    title: 'Definition-aware diff',
    ...REVISION_COMPARE,
    words: [{ arg: 'rev' }, { arg: 'uncommitted', flag: '--uncommitted' }, { arg: 'target', flag: '--target' }],
    description:
      'A budgeted diff of a revision (or HEAD with uncommitted) against the working tree: changed definitions first, each with its hunk (whitespace-only changes marked), then the hunks outside any definition; each a change handle for show.',
  },
  {
    name: 'status',
    title: 'Index status',
    required: [],
    defaultBudget: DEFAULT_BUDGET,
    description:
      'The index: generation, files, what was left out and why (coverage), and the daemon; in a workspace, per member.',
    properties: { budget: budget(DEFAULT_BUDGET) },
  },
];

/**
 * The tools as a single root is served: without `member`, which only a workspace has. Each
 * of the ten tools that take it listed its 50-token description, 500 of the 3,224 tokens
 * tools/list cost in an agent trial on one root, where passing it is only an error.
 */
export const SINGLE_ROOT_TOOLS: readonly ToolSpec[] = TOOLS.map((t) => {
  if (!Object.hasOwn(t.properties, 'member')) return t;
  const properties = Object.fromEntries(Object.entries(t.properties).filter(([key]) => key !== 'member'));
  return { ...t, properties };
});

export function toolNamed(name: string, tools: readonly ToolSpec[] = TOOLS): ToolSpec | undefined {
  return tools.find((t) => t.name === name);
}

/** The schema a client lists for a tool (MCP `inputSchema`). */
export function inputSchema(tool: ToolSpec): {
  type: 'object';
  properties: Record<string, ArgumentSchema>;
  required: string[];
  additionalProperties: false;
} {
  return {
    type: 'object',
    properties: { ...tool.properties },
    required: [...tool.required],
    additionalProperties: false,
  };
}
