// Text made from the tables: help (at most 80 columns, lists never broken), the usage
// that follows a usage error, the did-you-mean of an unknown verb, and the Markdown of
// docs/cli.md's generated blocks.
import {
  OPTION_TABLE,
  QUERY_FORMS,
  VERB_TABLE,
  type OptionSpec,
  type QueryForm,
  type VerbName,
  type VerbSpec,
} from './table';

const VERBS: readonly VerbSpec[] = VERB_TABLE;
const OPTIONS: readonly OptionSpec[] = OPTION_TABLE;

/** The widest line help and usage print. */
export const HELP_COLUMNS = 80;

/** Where a row's description starts in help (a longer first column puts it on the next line). */
const DESCRIPTION_COLUMN = 22;

/** The verbs' names, in table order. */
export const VERB_NAMES: readonly VerbName[] = VERB_TABLE.map((v) => v.name);

/** Whether `word` is a verb of the tool. */
export function isVerb(word: string): word is VerbName {
  return (VERB_NAMES as readonly string[]).includes(word);
}

/** The row of a verb. */
export function verbSpec(name: VerbName): VerbSpec {
  return VERBS.find((v) => v.name === name) as VerbSpec;
}

/** `word` split into lines of at most `width` characters at spaces (a longer word stands alone). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A two-column row: `term` at `indent`, `text` wrapped from `column` (on the next line when `term` reaches it). */
function row(term: string, text: string, indent = 2, column = DESCRIPTION_COLUMN): string[] {
  const body = wrapWords(text, HELP_COLUMNS - column);
  const head = ' '.repeat(indent) + term;
  const pad = ' '.repeat(column);
  if (head.length + 1 <= column)
    return [head.padEnd(column) + (body[0] ?? ''), ...body.slice(1).map((l) => pad + l)].map((l) => l.trimEnd());
  return [head, ...body.map((l) => pad + l)];
}

/** A paragraph wrapped at 80 columns, every line at `indent`. */
function paragraph(text: string, indent = 2): string[] {
  return wrapWords(text, HELP_COLUMNS - indent).map((l) => ' '.repeat(indent) + l);
}

/** A heading and its text on the same line, continued at 2 spaces. */
function note(heading: string, text: string): string[] {
  const [first, ...rest] = wrapWords(`${heading} ${text}`, HELP_COLUMNS);
  return [first, ...wrapWords(rest.join(' '), HELP_COLUMNS - 2).map((l) => `  ${l}`)];
}

/** `-b, --budget N`: an option as help's first column shows it. */
function optionTerm(o: OptionSpec): string {
  const names = o.short !== undefined ? `${o.short}, ${o.long}` : o.long;
  return o.valueName !== undefined ? `${names} ${o.valueName}` : names;
}

/** `[-b N]`, `[--json | --format json|lines]`: the synopsis brackets. */
function synopsisItems(): string[] {
  const items: string[] = [];
  const seen = new Set<string>();
  for (const o of OPTIONS) {
    if ('unlisted' in o && o.unlisted) continue;
    const spell = (x: OptionSpec) => `${x.short ?? x.long}${x.valueName !== undefined ? ` ${x.valueName}` : ''}`;
    if (o.group === undefined) items.push(`[${spell(o)}]`);
    else if (!seen.has(o.group)) {
      seen.add(o.group);
      items.push(
        `[${OPTIONS.filter((x) => x.group === o.group)
          .map(spell)
          .join(' | ')}]`,
      );
    }
  }
  return items;
}

/** `trufflepig [--root DIR] ... VERB ...`, wrapped under its own start. */
function synopsis(prefix: string): string[] {
  const items = [...synopsisItems(), 'VERB ...'];
  const lines: string[] = [];
  const indent = ' '.repeat(prefix.length + 1);
  let line = prefix.trimEnd();
  for (const item of items) {
    if (line.length + 1 + item.length <= HELP_COLUMNS) line += ` ${item}`;
    else {
      lines.push(line);
      line = indent + item;
    }
  }
  lines.push(line);
  return lines;
}

function verbRows(): string[] {
  return VERBS.flatMap((v) => v.forms.flatMap((f) => row(f.args === '' ? v.name : `${v.name} ${f.args}`, f.summary)));
}

/** `items` joined by `sep` into lines of at most 80 columns, never splitting an item; lines after the first at `indent`. */
function list(head: string, items: readonly string[], sep: string, indent: number): string[] {
  const lines: string[] = [];
  let line = head;
  for (const [i, item] of items.entries()) {
    const piece = i < items.length - 1 ? `${item}${sep.trimEnd()}` : item;
    if (line.length + 1 + piece.length <= HELP_COLUMNS || line.trim() === '')
      line = line === '' ? piece : `${line} ${piece}`;
    else {
      lines.push(line);
      line = ' '.repeat(indent) + piece;
    }
  }
  lines.push(line);
  return lines;
}

/** What follows a usage error: the synopsis, every verb form (no summaries), and where the rest is. */
export function usageText(): string {
  const forms = VERBS.flatMap((v) => v.forms.map((f) => (f.args === '' ? v.name : `${v.name} ${f.args}`)));
  return [
    ...synopsis('Usage: trufflepig'),
    ...list('Verbs:', forms, ',', 2),
    'What each does, the options and the query language: trufflepig help',
  ].join('\n');
}

/** The help text (`trufflepig help`, `-h`, `--help`): every verb and option, the query language by example, then how the tool behaves. */
export function helpText(): string {
  return keepSpaces(
    [
      ...synopsis('Usage: trufflepig'),
      ...paragraph(
        'Options go anywhere on the line; every other word after the verb is its argument, so search -file:tests sym:Foo -n 5 needs no quoting. Text that starts with -- goes after --.',
        0,
      ),
      '',
      'Verbs:',
      ...verbRows(),
      '',
      'Options:',
      ...OPTIONS.flatMap((o) => row(optionTerm(o), o.summary)),
      '',
      'Query language (search; refs, show sym:, hist and blame take the filters):',
      ...queryRowsOf(QUERY_FORMS),
      ...paragraph(
        'A search without in: or ws: stays in the home member and widens to all members only when home has no hits.',
      ),
      '',
      ...note(
        'Origins:',
        'every hit names its sources (code, test, docs, config, git-log for commit messages). source:code answers from code alone (a filter: no extra cost). --scopes per_source keeps origins apart when docs, commits and code may disagree: the global ranking, then one group per source, each ranked on its own (one extra ranking pass per source; the budget is shared). Commit messages are searched only with source:git-log or under per_source.',
      ),
      ...note(
        'Daemons:',
        "reads go to the root's daemon (or a workspace's coordinator), started on first use; it reconciles edits within about a second; a read on a root it has not indexed yet waits up to 15 s for its first index, then answers index_warming. --no-daemon starts nothing and indexes in the foreground.",
      ),
      ...note(
        'Workspaces:',
        '--workspace FILE, else the nearest trufflepig.workspace.toml above the directory, else the registry ($XDG_CONFIG_HOME/trufflepig/workspaces.toml) when the directory lies in a member; --no-workspace searches the root alone.',
      ),
      ...note(
        'Output:',
        'lines (default): a search hit is HANDLE\u00a0\u00a0PATH:START-END\u00a0\u00a0[NAME]\u00a0\u00a0[origin], then its evidence lines "\u00a0\u00a0LINE:\u00a0TEXT" (-C N adds context lines "\u00a0\u00a0LINE-\u00a0TEXT"), then coverage and next. --json: one JSON object with every field plus byte offsets, URIs and revisions. At most -b tokens (o200k_base). Errors exit 2 with "trufflepig: CODE: message" on stderr (with --json also {"error":{"code","message"}} on stdout).',
      ),
    ].join('\n'),
  );
}

function queryRowsOf(forms: readonly QueryForm[]): string[] {
  const formWidth = Math.max(...forms.map((q) => q.form.length)) + 2;
  const exampleWidth = Math.max(...forms.map((q) => q.example.length)) + 2;
  const column = 2 + formWidth + exampleWidth;
  return forms.flatMap((q) => row(`${q.form.padEnd(formWidth)}${q.example}`, q.meaning, 2, column));
}

/**
 * One verb's help (`trufflepig VERB --help`, `trufflepig help VERB`): its forms, the
 * synopsis of the options, and the part of the query language and output it takes, about a
 * third of the whole help's tokens; the whole help is one `trufflepig help` away.
 */
export function verbHelpText(name: VerbName): string {
  const v = verbSpec(name);
  const query =
    name === 'search'
      ? ['', 'Query language:', ...queryRowsOf(QUERY_FORMS)]
      : v.filters
        ? ['', 'Filters:', ...queryRowsOf(QUERY_FORMS.filter((q) => q.filter))]
        : [];
  const output =
    name === 'search'
      ? [
          '',
          ...note(
            'Output:',
            'a hit is HANDLE\u00a0\u00a0PATH:START-END\u00a0\u00a0[NAME]\u00a0\u00a0[origin], then its evidence lines "\u00a0\u00a0LINE:\u00a0TEXT" (-C N adds "\u00a0\u00a0LINE-\u00a0TEXT"), then coverage and next; show HANDLE reads a hit, more CURSOR the next page.',
          ),
        ]
      : [];
  // The page options of a read verb (served, taking words; -C only shapes search hits).
  const pageOptions =
    v.served && v.arity !== 'any'
      ? OPTIONS.filter((o) => o.key === 'budget' || o.key === 'limit' || (o.key === 'context' && name === 'search'))
      : [];
  return keepSpaces(
    [
      ...synopsis('Usage: trufflepig'),
      '',
      ...v.forms.flatMap((f) => row(f.args === '' ? v.name : `${v.name} ${f.args}`, f.summary)),
      ...(pageOptions.length > 0 ? ['', 'Options:', ...pageOptions.flatMap((o) => row(optionTerm(o), o.summary))] : []),
      ...query,
      ...output,
      '',
      'Every verb, option and behaviour: trufflepig help',
    ].join('\n'),
  );
}

/** The help `--help` or `help WORD` asks for: a verb's own (not help's), else the whole help. */
export function helpTextFor(word: string | undefined): string {
  return word !== undefined && isVerb(word) && word !== 'help' ? verbHelpText(word) : helpText();
}

/** Help's text keeps runs of spaces as no-break spaces (U+00A0) while it is wrapped; these become spaces. */
function keepSpaces(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

/** How near two strings are (base's `editDistance`: Levenshtein over code units). */
export type Distance = (a: string, b: string) => number;

/** Every hint word to the call it suggests. A Map, so `constructor` or `__proto__` find nothing inherited. */
const HINTS: ReadonlyMap<string, string> = new Map(
  VERBS.flatMap((v) => Object.entries(v.hints ?? {}).flatMap(([call, words]) => words.map((w) => [w, call] as const))),
);

/** The verb an unknown word most likely meant, with its argument shape (`more CURSOR` for `next`). */
export function likelyVerb(word: string, distance: Distance): string {
  const hinted = HINTS.get(word.toLowerCase());
  if (hinted !== undefined) return hinted;
  // A stable sort: of verbs equally near, the earlier in the table.
  const best = [...VERBS].sort((x, y) => distance(word, x.name) - distance(word, y.name))[0];
  return best.shape;
}

/**
 * The usage error of an unknown verb, with its did-you-mean. An unknown word followed by a
 * verb names that verb as its subject (`trufflepig daemon stop`, `trufflepig index status`
 * is a verb already): the call meant is the verb, not the nearest match of the first word
 * (which suggested `serve` for `daemon stop`, an agent trial).
 */
export function unknownVerbMessage(
  word: string,
  quote: (input: string) => string,
  distance: Distance,
  next?: string,
): string {
  const meant = next !== undefined && isVerb(next) ? verbSpec(next).shape : likelyVerb(word, distance);
  return `unknown verb '${quote(word)}'; did you mean: trufflepig ${meant}`;
}

/**
 * The usage error of words that do not fit the verb's arity, else undefined (verbs that
 * parse their own words, and those that ignore them, answer undefined).
 */
export function wordsError(verb: VerbName, words: readonly string[]): string | undefined {
  const v = verbSpec(verb);
  const fits =
    v.arity === 'some'
      ? words.length > 0
      : v.arity === 'one'
        ? words.length === 1
        : v.arity === 'target'
          ? words.length === 1 || (words.length > 1 && words[0].startsWith('sym:'))
          : v.arity === 'none'
            ? words.length === 0
            : true;
  return fits ? undefined : v.usage;
}

// ---- Markdown (docs/cli.md) ----

/** Text in a table cell: `|` escaped, `<` and `>` as entities (`DIR/<root-hash>` is no HTML tag). */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;

/** The synopsis as docs/cli.md shows it (a code block's body). */
export function markdownSynopsis(): string {
  return ['```', ...synopsis('trufflepig'), '```'].join('\n');
}

/** docs/cli.md's verb table: one row per form. */
export function markdownVerbs(): string {
  const rows = VERBS.flatMap((v) =>
    v.forms.map((f) => {
      const served = v.served ? 'yes' : '—';
      return `| ${code(f.args === '' ? v.name : `${v.name} ${f.args}`)} | ${f.doc ?? cell(f.summary)} | ${served} |`;
    }),
  );
  return ['| verb | does | daemon |', '| --- | --- | --- |', ...rows].join('\n');
}

/** docs/cli.md's option table. */
export function markdownOptions(): string {
  const rows = OPTIONS.map((o) => {
    const names = o.short !== undefined ? `${code(o.short)}, ${code(o.long)}` : code(o.long);
    const takes =
      o.type === 'boolean'
        ? '—'
        : o.choices !== undefined
          ? o.choices.map(code).join(' or ')
          : `${o.type} ${code(o.valueName ?? 'VALUE')}`;
    const verbs = o.verbs === 'all' ? 'every verb' : o.verbs.map(code).join(', ');
    const wire = o.wire === undefined ? '—' : `${code(o.wire.key)}${o.wire.forwarded ? '' : ' (not sent by the CLI)'}`;
    return `| ${names} | ${takes} | ${cell(o.summary)} | ${verbs} | ${wire} |`;
  });
  return ['| option | takes | does | verbs | daemon request field |', '| --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/** docs/cli.md's generated blocks, by marker name. */
export function generatedBlocks(): Readonly<Record<string, string>> {
  return { synopsis: markdownSynopsis(), verbs: markdownVerbs(), options: markdownOptions() };
}

/**
 * `doc` with each `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` block's body
 * replaced by `blocks[NAME]`. Throws on a block it has no text for, or on a marker
 * without its pair.
 */
export function fillGenerated(doc: string, blocks: Readonly<Record<string, string>> = generatedBlocks()): string {
  const open = /<!-- generated:([a-z-]+) -->\n/g;
  let out = '';
  let at = 0;
  for (let m = open.exec(doc); m !== null; m = open.exec(doc)) {
    const name = m[1];
    const close = `<!-- /generated:${name} -->`;
    const end = doc.indexOf(close, open.lastIndex);
    if (end < 0) throw new Error(`${m[0].trim()} has no ${close}`);
    if (!Object.hasOwn(blocks, name)) throw new Error(`no generated text named ${name}`);
    out += doc.slice(at, open.lastIndex) + blocks[name] + '\n';
    at = end;
    open.lastIndex = end + close.length;
  }
  return out + doc.slice(at);
}
