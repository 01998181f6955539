// Splits argv into global options and the verb's words. Every word after the verb belongs
// to the query (`search -file:tests sym:X` needs no quoting), so only the tool's own
// options are taken out wherever they appear; everything else stays in order.
// The main entry loads this module on every call: it requires only the index's one-file
// edit-distance subpath, never the index itself.
import { editDistance } from '@trufflepig/index/edit-distance';

/** The options that take a value, each with the example value a usage error shows when it is missing. */
const WITH_VALUE: ReadonlyMap<string, string> = new Map([
  ['--root', 'VALUE'], ['--cache', 'VALUE'], ['-b', '5'], ['--budget', '5'], ['-n', '5'], ['--limit', '5'], ['-C', '2'], ['--context', '2'],
  ['--format', 'VALUE'], ['--workspace', 'VALUE'], ['--member', 'VALUE'], ['--scopes', 'VALUE'],
]);

/** `-n needs a value, e.g. -n 5`: the usage error for a value option given last. */
export function missingValueMessage(option: string): string {
  return `${option} needs a value, e.g. ${option} ${WITH_VALUE.get(option) ?? 'VALUE'}`;
}
const FLAGS = new Set(['--json', '--no-daemon', '--daemon', '--no-workspace', '--help', '-h', '--version']);

/** Flags a verb owns: after that verb they stay in its words (the verb parses them), never unknown options. */
export const VERB_FLAGS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['agent-setup', new Set(['--claude', '--codex', '--agents-md', '--print', '--force', '--hook', '--block'])],
  ['hook', new Set(['--block'])],
  // `show HANDLE --side before|after`: one side of a change handle (hist, blame).
  ['show', new Set(['--side'])],
  ['since', new Set(['--uncommitted'])],
  // `diff REV [--target T...]`: every word after --target is the target's.
  ['diff', new Set(['--uncommitted', '--target'])],
]);

export interface SplitArgv {
  readonly options: string[];
  readonly verb: string | undefined;
  readonly words: string[];
  /**
   * Words spelled like a long option (`--limt`) that are none of the tool's: never query
   * syntax (filters take one dash), so a typo is reported instead of being searched as text.
   * Text that starts with `--` goes after `--` or inside quotes.
   */
  readonly unknownOptions: string[];
  /** An option that takes a value given last, with none (`search foo -n`). */
  readonly missingValue?: string;
}

export function splitArgv(argv: readonly string[]): SplitArgv {
  const options: string[] = [];
  const rest: string[] = [];
  const unknownOptions: string[] = [];
  let missingValue: string | undefined;
  let passthrough = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (passthrough) {
      rest.push(a);
      continue;
    }
    if (a === '--') {
      passthrough = true;
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (WITH_VALUE.has(name)) {
      if (name !== a) options.push(name, a.slice(eq + 1));
      else {
        options.push(a);
        if (i + 1 < argv.length) options.push(argv[++i]);
        else missingValue = a;
      }
    } else if (FLAGS.has(a)) options.push(a);
    else if (rest.length > 0 && VERB_FLAGS.get(rest[0])?.has(name)) rest.push(a);
    else {
      if (/^--[^-]/.test(a)) unknownOptions.push(a);
      rest.push(a);
    }
  }
  return { options, verb: rest[0], words: rest.slice(1), unknownOptions, ...(missingValue !== undefined ? { missingValue } : {}) };
}

export const VERBS = ['index', 'search', 'show', 'more', 'refs', 'map', 'ctx', 'hist', 'blame', 'since', 'diff', 'status', 'ws', 'serve', 'stop', 'mcp', 'agent-setup', 'hook', 'help'] as const;

const HINTS: Readonly<Record<string, string>> = {
  next: 'more CURSOR', page: 'more CURSOR', continue: 'more CURSOR',
  find: 'search QUERY', grep: 'search QUERY', query: 'search QUERY', s: 'search QUERY',
  open: 'show HANDLE', cat: 'show HANDLE', read: 'show HANDLE', view: 'show HANDLE',
  reindex: 'index', build: 'index', update: 'index', refresh: 'index', info: 'status', stat: 'status',
  daemon: 'serve', start: 'serve', kill: 'stop', shutdown: 'stop',
  workspace: 'ws show', discover: 'ws discover PATH...', members: 'ws show',
  references: 'refs NAME', usages: 'refs NAME', callers: 'refs NAME', outline: 'map PATH', symbols: 'map PATH', ls: 'map PATH',
  context: 'ctx HANDLE', def: 'show sym:NAME', definition: 'show sym:NAME', goto: 'show sym:NAME',
  log: 'hist TARGET', history: 'hist TARGET', commits: 'hist TARGET', annotate: 'blame TARGET', praise: 'blame TARGET', who: 'blame TARGET', changes: 'since REV', changed: 'since REV', uncommitted: 'since --uncommitted', patch: 'diff REV', delta: 'diff REV',
  setup: 'agent-setup --claude|--codex|--agents-md', skill: 'agent-setup --claude', agents: 'agent-setup --agents-md',
};

/** The verb an unknown word most likely meant, with its argument shape. */
export function likelyVerb(word: string): string {
  // Own keys only: `constructor` or `__proto__` must not find Object.prototype's members.
  const key = word.toLowerCase();
  if (Object.hasOwn(HINTS, key)) return HINTS[key];
  const shapes: Readonly<Record<string, string>> = { index: 'index', search: 'search QUERY', show: 'show HANDLE', more: 'more CURSOR', refs: 'refs NAME', map: 'map PATH', ctx: 'ctx HANDLE', hist: 'hist TARGET', blame: 'blame TARGET', since: 'since REV [TARGET]', diff: 'diff REV [--target TARGET]', status: 'status', ws: 'ws show|status|discover', serve: 'serve', stop: 'stop', mcp: 'mcp', 'agent-setup': 'agent-setup --claude|--codex|--agents-md', hook: 'hook claude', help: 'help' };
  const best = [...VERBS].sort((x, y) => editDistance(word, x) - editDistance(word, y))[0];
  return shapes[best];
}

/**
 * The last valid -b/--budget of split options (a whole number), else undefined: the budget
 * an error raised before the options were validated must still respect.
 */
export function budgetOption(options: readonly string[]): number | undefined {
  let budget: number | undefined;
  for (let i = 0; i < options.length - 1; i++) {
    if ((options[i] === '-b' || options[i] === '--budget') && /^\d+$/.test(options[i + 1])) budget = Number(options[i + 1]);
  }
  return budget;
}

/** Options the fast path understands; anything else sends the call down the full path. */
export interface FastCallOptions {
  root?: string;
  cache?: string;
  workspace?: string;
  member?: string;
  budget?: number;
  limit?: number;
  /** `-C N`; its range is checked where the verb runs (bad_arguments). */
  context?: number;
  /** Lines when not given (spec 4); `--json` or `--format json` for JSON. */
  format?: 'json' | 'lines';
  noWorkspace?: boolean;
  scopes?: 'shared' | 'per_source';
}

/** Whole-number options of a daemon-served call: the field each sets and its least value (`-C`'s range is the verb's to check). */
const WHOLE_NUMBER_OPTIONS: ReadonlyMap<string, { readonly key: 'budget' | 'limit' | 'context'; readonly min: number }> = new Map([
  ['-b', { key: 'budget', min: 0 }], ['--budget', { key: 'budget', min: 0 }],
  ['-n', { key: 'limit', min: 1 }], ['--limit', { key: 'limit', min: 1 }],
  ['-C', { key: 'context', min: 0 }], ['--context', { key: 'context', min: 0 }],
] as const);

/**
 * The tool's options for a daemon-served call, or undefined when the call must take the
 * full path: --no-daemon, help or version, or any value the full path would have to
 * validate and report. (--workspace with --no-workspace is such a case: the full path
 * reports the conflict.)
 */
export function fastOptions(options: readonly string[]): FastCallOptions | undefined {
  const out: FastCallOptions = {};
  for (let i = 0; i < options.length; i++) {
    const name = options[i];
    const value = options[i + 1];
    const wholeNumber = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);
    const numeric = WHOLE_NUMBER_OPTIONS.get(name);
    if (numeric !== undefined) {
      const n = wholeNumber(value);
      if (n === undefined || n < numeric.min) return undefined;
      out[numeric.key] = n;
      i++;
      continue;
    }
    switch (name) {
      case '--root':
      case '--cache':
      case '--workspace':
      case '--member':
        if (value === undefined || value === '' || value.startsWith('-')) return undefined;
        out[name.slice(2) as 'root' | 'cache' | 'workspace' | 'member'] = value;
        i++;
        break;
      case '--format':
        if (value !== 'json' && value !== 'lines') return undefined;
        out.format = value;
        i++;
        break;
      case '--scopes':
        if (value !== 'shared' && value !== 'per_source') return undefined;
        out.scopes = value;
        i++;
        break;
      case '--json':
        out.format = 'json';
        break;
      case '--no-workspace':
        out.noWorkspace = true;
        break;
      case '--daemon':
        break;
      default:
        return undefined;
    }
  }
  if (out.noWorkspace && (out.workspace !== undefined || out.member !== undefined)) return undefined;
  out.format ??= 'lines';
  return out;
}
