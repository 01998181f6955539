// @trufflepig/cli-surface: the `trufflepig` command's verbs and options as one table, and
// everything that used to repeat it, derived from it.
//
// A guided tour, in the order a call meets it:
//
// 1. table.ts holds the data. VERB_TABLE: each verb's forms (arguments and a one-line
//    summary), whether a daemon serves it, how it takes its words and the usage error
//    when they do not fit, the flags it owns, and the words people type for it.
//    OPTION_TABLE: each option's spellings, type, value name, summary, the verbs it
//    matters to, and the field a daemon request carries it in. QUERY_FORMS: the query
//    language, one example per form.
// 2. argv.ts reads a command line. splitArgv takes the tool's options out of argv
//    wherever they stand and leaves every other word to the verb; readCommandLine parses
//    the options with the usage errors they raise; fastOptions says whether a running
//    daemon may answer the call directly (the CLI's fast path) and with what.
//    `@trufflepig/cli-surface/argv` is this step alone: the CLI's main entry loads it
//    on every call.
// 3. wire.ts carries options to a daemon: forwardedWire (what a CLI call sends),
//    encodeWire (any caller's request), decodeWire (the daemon's side), SERVED_VERBS.
//    `@trufflepig/cli-surface/wire` is this step alone, for the fast path's client.
// 4. text.ts prints: helpText, verbHelpText (one verb's), helpTextFor (which of them a call asks for), usageText (after a usage error), likelyVerb and
//    unknownVerbMessage (did-you-mean), wordsError (a verb's arity), and docs/cli.md's
//    generated blocks (markdownVerbs, markdownOptions, markdownSynopsis, fillGenerated;
//    scripts/write-docs.js writes them).
//
// The package has no dependencies: what a message quotes of the user's input and how
// near two words are come from the caller (the index's quoteInput, base's editDistance), so
// the fast path can load the table without the index.
export {
  VERB_TABLE,
  OPTION_TABLE,
  WIRE_ONLY_FIELDS,
  QUERY_FORMS,
  type Arity,
  type CliOptions,
  type OptionKey,
  type OptionSpec,
  type QueryForm,
  type ServedVerbName,
  type VerbForm,
  type VerbName,
  type VerbSpec,
  type WireField,
  type WireOnlyField,
} from './table';
export {
  splitArgv,
  readCommandLine,
  fastOptions,
  budgetOption,
  missingValueMessage,
  optionSpec,
  optionLabel,
  VERB_FLAGS,
  type CommandLine,
  type FastCallOptions,
  type Quote,
  type SplitArgv,
} from './argv';
export {
  encodeWire,
  decodeWire,
  forwardedWire,
  SERVED_VERBS,
  DAEMON_STARTING_VERBS,
  WIRE_KEYS,
  type WireInput,
  type WireMap,
  type WireOptions,
  type WireValue,
} from './wire';
export {
  helpText,
  helpTextFor,
  verbHelpText,
  usageText,
  likelyVerb,
  unknownVerbMessage,
  wordsError,
  isVerb,
  verbSpec,
  VERB_NAMES,
  HELP_COLUMNS,
  wrapWords,
  markdownSynopsis,
  markdownVerbs,
  markdownOptions,
  generatedBlocks,
  fillGenerated,
  type Distance,
} from './text';
