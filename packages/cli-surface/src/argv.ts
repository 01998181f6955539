// The command line, read by the tables: the split into the tool's options and the verb's
// words, then the options parsed (with the usage errors they can raise). The CLI's main
// entry loads this on every call, the fast path included: it loads table.ts and nothing else.
import { OPTION_TABLE, VERB_TABLE, type CliOptions, type OptionSpec } from './table';

const OPTIONS: readonly OptionSpec[] = OPTION_TABLE;

/** Every spelling of every option (`-b`, `--budget`) to its row. */
const BY_SPELLING: ReadonlyMap<string, OptionSpec> = new Map(
  OPTIONS.flatMap((o) => [[o.long, o] as const, ...(o.short !== undefined ? [[o.short, o] as const] : [])]),
);

/** The row of an option spelling, or undefined when it is none of the tool's. */
export function optionSpec(spelling: string): OptionSpec | undefined {
  return BY_SPELLING.get(spelling);
}

const takesValue = (o: OptionSpec | undefined): boolean => o !== undefined && o.type !== 'boolean';

/** `-n needs a value, e.g. -n 5`: the usage error for a value option given last. */
export function missingValueMessage(option: string): string {
  return `${option} needs a value, e.g. ${option} ${BY_SPELLING.get(option)?.example ?? 'VALUE'}`;
}

/** Flags a verb owns: after that verb they stay in its words (the verb parses them), never unknown options. */
export const VERB_FLAGS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  VERB_TABLE.flatMap((v): [string, ReadonlySet<string>][] =>
    'flags' in v ? [[v.name, new Set<string>(v.flags)]] : [],
  ),
);

export interface SplitArgv {
  /** The tool's options in order, each value option followed by its value (`--budget=5` becomes `--budget`, `5`). */
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

/**
 * Split argv into the tool's options and the verb's words. Every word after the verb
 * belongs to it (`search -file:tests sym:X` needs no quoting), so only the tool's own
 * options are taken out, wherever they appear; everything else stays in order. After
 * `--` every word is a word.
 */
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
    const spec = BY_SPELLING.get(name);
    if (takesValue(spec)) {
      if (name !== a) options.push(name, a.slice(eq + 1));
      else {
        options.push(a);
        if (i + 1 < argv.length) options.push(argv[++i]);
        else missingValue = a;
      }
    } else if (spec !== undefined && name === a) options.push(a);
    else if (rest.length > 0 && VERB_FLAGS.get(rest[0])?.has(name)) rest.push(a);
    else {
      if (/^--[^-]/.test(a)) unknownOptions.push(a);
      rest.push(a);
    }
  }
  return {
    options,
    verb: rest[0],
    words: rest.slice(1),
    unknownOptions,
    ...(missingValue !== undefined ? { missingValue } : {}),
  };
}

/** `-b/--budget`, `--root`: how messages name an option. */
export function optionLabel(o: OptionSpec): string {
  return o.short !== undefined ? `${o.short}/${o.long}` : o.long;
}

/** The verbs of the table: an option's verb list is checked against these only (an unknown verb has its own error). */
const KNOWN_VERBS: ReadonlySet<string> = new Set(VERB_TABLE.map((v) => v.name));

/** How messages echo what the user typed; the CLI passes the index's `quoteInput` (bounded, marked when cut). */
export type Quote = (input: string) => string;

/** What a command line asks for. */
export type CommandLine =
  /** A usage error (`trufflepig: bad_arguments: MESSAGE`). */
  | { readonly kind: 'usage'; readonly message: string; readonly split: SplitArgv }
  /** `-h`/`--help`: print help, exit 0. */
  | { readonly kind: 'help'; readonly split: SplitArgv }
  /** `--version`: print the version, exit 0. */
  | { readonly kind: 'version'; readonly split: SplitArgv }
  /** Run `verb` (possibly missing or unknown: the caller checks) with these options. */
  | {
      readonly kind: 'run';
      readonly options: CliOptions;
      readonly verb: string | undefined;
      readonly words: readonly string[];
      readonly split: SplitArgv;
    };

/**
 * Read a command line. The first trouble wins, in this order: a value option given last
 * without its value; an unknown long option (unless help was asked for); help; version;
 * values outside an option's choices (all of them, in one message); a number that is
 * not whole or below its least value; two options that conflict; a value option given
 * more than once; an empty value where that is an error.
 *
 * Numbers are read as JavaScript's `Number()` reads them (`1e3` is 1000, `''` is 0).
 * A flag wins over a value option of the same field (`--json` over `--format lines`);
 * among flags of one field the last wins (`--no-daemon --daemon`).
 */
export function readCommandLine(argv: readonly string[], quote: Quote = (input) => input): CommandLine {
  const split = splitArgv(argv);
  const usage = (message: string): CommandLine => ({ kind: 'usage', message, split });
  if (split.missingValue !== undefined) return usage(missingValueMessage(split.missingValue));

  // Each option's given values (a flag's value is its `sets`), in order.
  const given = new Map<OptionSpec, string[]>();
  const flags: OptionSpec[] = [];
  for (let i = 0; i < split.options.length; i++) {
    const spec = BY_SPELLING.get(split.options[i]) as OptionSpec;
    const values = given.get(spec) ?? [];
    given.set(spec, values);
    if (takesValue(spec)) values.push(split.options[++i]);
    else flags.push(spec);
  }
  const has = (key: string) => [...given.keys()].some((o) => o.key === key);
  const unknown = split.unknownOptions[0];
  if (unknown !== undefined && !has('help')) {
    const quoted = quote(unknown);
    return usage(
      `unknown option ${quoted}; to search for it as text, put it after -- (trufflepig search -- ${quoted}) or quote it`,
    );
  }
  if (has('help')) return { kind: 'help', split };
  if (has('version')) return { kind: 'version', split };
  // An option the verb does not take is an error, not ignored: `map P -C 3` printed no
  // context and said nothing (an agent trial on binutils).
  const verb = split.verb;
  if (verb !== undefined && verb !== 'help' && KNOWN_VERBS.has(verb))
    for (const o of given.keys())
      if (o.verbs !== 'all' && !(o.verbs as readonly string[]).includes(verb))
        return usage(
          `${optionLabel(o)} does not apply to ${verb}; it applies to ${o.verbs.join(', ')} (trufflepig help ${verb} lists what ${verb} takes)`,
        );

  const invalid: string[] = [];
  for (const [o, values] of given) {
    if (o.choices === undefined) continue;
    const bad = values.filter((v) => !o.choices?.includes(v));
    if (bad.length > 0) {
      const list = (xs: readonly string[]) => xs.map((x) => JSON.stringify(x)).join(', ');
      invalid.push(`Argument: ${o.long.slice(2)}, Given: ${list(bad)}, Choices: ${list(o.choices)}`);
    }
  }
  if (invalid.length > 0) return usage(`Invalid values: ${invalid.join(' ')}`);

  const numbers = new Map<OptionSpec, number>();
  for (const o of OPTIONS) {
    const values = given.get(o);
    if (o.type !== 'number' || values === undefined) continue;
    const read = values.map(Number);
    if (o.checked && read.some((n) => !Number.isInteger(n) || n < (o.min ?? -Infinity))) {
      return usage(`${optionLabel(o)} takes a whole number${o.unit !== undefined ? ` of ${o.unit}` : ''} ≥ ${o.min}`);
    }
    numbers.set(o, read[read.length - 1]);
  }
  for (const o of OPTIONS) {
    const other = o.conflicts !== undefined ? BY_SPELLING.get(o.conflicts) : undefined;
    if (other !== undefined && given.has(o) && given.has(other))
      return usage(`${o.long} conflicts with ${other.long}; pass only one of them`);
  }
  for (const o of OPTIONS) {
    if (takesValue(o) && (given.get(o)?.length ?? 0) > 1)
      return usage(`${optionLabel(o)} was given more than once; pass one ${o.valueName}`);
  }

  const out: Record<string, unknown> = {};
  for (const o of OPTIONS) if (o.default !== undefined) out[o.key] = o.default;
  for (const o of OPTIONS) {
    const values = given.get(o);
    if (values === undefined || !takesValue(o)) continue;
    out[o.key] = o.type === 'number' ? numbers.get(o) : values[0];
  }
  for (const o of flags) out[o.key] = o.sets ?? true;
  for (const o of OPTIONS) {
    if (o.empty !== undefined && out[o.key] === '') return usage(o.empty);
  }
  return { kind: 'run', options: out as unknown as CliOptions, verb: split.verb, words: split.words, split };
}

/**
 * The last valid -b/--budget of split options (a whole number), else undefined: the budget
 * an error raised before the options were validated must still respect.
 */
export function budgetOption(options: readonly string[]): number | undefined {
  let budget: number | undefined;
  for (let i = 0; i < options.length - 1; i++) {
    if (BY_SPELLING.get(options[i])?.key === 'budget' && /^\d+$/.test(options[i + 1])) budget = Number(options[i + 1]);
  }
  return budget;
}

/** The options a daemon-served call carries: what the fast path hands to the daemon. */
export type FastCallOptions = Partial<
  Pick<CliOptions, 'root' | 'cache' | 'workspace' | 'member' | 'budget' | 'limit' | 'context' | 'scopes'>
> & {
  readonly format?: CliOptions['format'];
  readonly noWorkspace?: boolean;
};

/**
 * The options of a call the fast path may offer to a running daemon, or undefined when
 * it must take the full path: a usage error (which the full path reports), help or
 * version, --no-daemon, a number the daemon would have to refuse (not whole, or below
 * its least value), a string value that is empty or starts with `-`, or --no-workspace
 * with --member. The same values the full path would forward, field for field.
 */
export function fastOptions(line: CommandLine): FastCallOptions | undefined {
  if (line.kind !== 'run' || line.split.unknownOptions.length > 0) return undefined;
  const o = line.options;
  if (o.noDaemon || (o.noWorkspace && o.member !== undefined)) return undefined;
  const out: Record<string, unknown> = {};
  for (const spec of OPTIONS) {
    const value = o[spec.key];
    if (spec.wire === undefined || value === undefined) continue;
    if (spec.type === 'number' && (!Number.isSafeInteger(value) || (value as number) < (spec.min ?? 0)))
      return undefined;
    if (spec.type === 'string' && spec.choices === undefined && (value === '' || (value as string).startsWith('-')))
      return undefined;
    if (spec.type === 'boolean' && value !== true) continue;
    out[spec.key] = value;
  }
  return out as FastCallOptions;
}
