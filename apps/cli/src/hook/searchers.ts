// grep, rg and git grep command lines read as a search plan: the patterns, the files
// chosen, where. Undefined when the command is not a lookup Trufflepig answers (it
// counts, inverts, reads patterns from a file, searches ignored files or a revision).
import { addExclude, addIncludeGlob, langOfType, noFilters, type Filters } from './filters';
import { longSet, parseArgs, type OptionTable, type ParsedArgs } from './options';
import type { PatternQuery, Syntax } from './patterns';
import type { Word } from './shell-words';
import { SUGGESTED_CONTEXT_MAX } from '../limits';

export type CommandClass = 'grep' | 'rg' | 'git-grep' | 'find' | 'fd';

export interface SearchPlan {
  readonly class: CommandClass;
  readonly pattern: PatternQuery;
  readonly filters: Filters;
  /** Where to search, as written; empty: the working directory. */
  readonly paths: readonly Word[];
  /** Context lines asked for (-A/-B/-C), 0 when none. */
  readonly context: number;
  /** A directory the tool itself changes to first (`git -C DIR`). */
  readonly chdir?: string;
}

/** Files come from find or xargs rather than from the operands: recursion is not asked for, the operands are those files. */
export interface FileSource {
  readonly fromFind: boolean;
}

const GREP: OptionTable = {
  flags: 'abcEFGHhiIlLnoPqRrsTUuvVwxyzZ',
  valued: 'ABCDdefm',
  longFlags: longSet(`recursive dereference-recursive ignore-case no-ignore-case word-regexp line-regexp fixed-strings
    extended-regexp basic-regexp perl-regexp line-number with-filename no-filename files-with-matches files-without-match
    count only-matching quiet silent no-messages invert-match color colour null null-data text byte-offset initial-tab
    line-buffered help version`),
  longValued: longSet(
    'include exclude exclude-dir exclude-from regexp file max-count after-context before-context context binary-files label devices directories',
  ),
  numericContext: true,
};

const RG: OptionTable = {
  flags: 'abcFHiIlLnNopqsSuUvVwxz0P.',
  valued: 'ABCdeEfgjmMrtT',
  longFlags: longSet(`files type-list ignore-case smart-case case-sensitive word-regexp line-regexp fixed-strings hidden
    no-ignore no-ignore-vcs no-ignore-dot no-ignore-parent no-ignore-global follow line-number no-line-number heading
    no-heading with-filename no-filename count count-matches files-with-matches files-without-match only-matching json
    vimgrep pretty multiline multiline-dotall pcre2 invert-match quiet stats trim column no-column null passthru
    unrestricted search-zip no-messages binary text crlf version help debug no-config byte-offset`),
  longValued: longSet(`type type-not glob iglob regexp file replace context after-context before-context max-count
    max-depth max-columns max-filesize color colors sort sortr threads encoding engine type-add path-separator
    context-separator field-match-separator`),
};

const GIT_GREP: OptionTable = {
  flags: 'nihHEFGPlLcovwWpzIqr',
  valued: 'ABCefm',
  longFlags: longSet(`cached untracked no-index no-exclude-standard exclude-standard recurse-submodules text ignore-case
    word-regexp invert-match full-name line-number column files-with-matches name-only files-without-match count color
    no-color break heading show-function function-context extended-regexp basic-regexp perl-regexp fixed-strings
    all-match and or not null only-matching quiet textconv no-textconv recursive no-recursive help`),
  longValued: longSet('max-depth threads context after-context before-context regexp file max-count'),
  numericContext: true,
};

/** Options after which no suggestion fits: inverted, counted, quiet, patterns from a file, boolean pattern algebra. */
const NOT_A_LOOKUP = new Set([
  '-v',
  '--invert-match',
  '-L',
  '--files-without-match',
  '-c',
  '--count',
  '--count-matches',
  '-q',
  '--quiet',
  '--silent',
  '-f',
  '--file',
  '--exclude-from',
  '-z',
  '--null-data',
  '-V',
  '--version',
  '--help',
  '--type-list',
  '--passthru',
  '--and',
  '--or',
  '--not',
  '--all-match',
  '-U',
  '--multiline',
  '--multiline-dotall',
  '--search-zip',
  '--debug',
  '--type-add',
]);

function contextOf(name: string, value: string | undefined): number | undefined {
  if (!['-A', '-B', '-C', '--context', '--after-context', '--before-context'].includes(name)) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, SUGGESTED_CONTEXT_MAX) : undefined;
}

interface Reading {
  patterns: string[];
  syntax: Syntax;
  ignoreCase: boolean;
  smartCase: boolean;
  word: boolean;
  line: boolean;
  context: number;
  filters: Filters;
}

/** The options every searcher shares; false when one makes the command no lookup. */
function readCommon(
  parsed: ParsedArgs,
  r: Reading,
  extra: (name: string, value: string | undefined) => boolean | undefined,
): boolean {
  for (const { name, value } of parsed.options) {
    // The tool's own reading first: one letter means different things to grep and rg (-L).
    const own = extra(name, value);
    if (own === false) return false;
    if (own === true) continue;
    if (NOT_A_LOOKUP.has(name)) return false;
    const ctx = contextOf(name, value);
    if (ctx !== undefined) r.context = Math.max(r.context, ctx);
    else if (name === '-e' || name === '--regexp') r.patterns.push(value ?? '');
    else if (name === '-i' || name === '--ignore-case') r.ignoreCase = true;
    else if (name === '-w' || name === '--word-regexp') r.word = true;
    else if (name === '-x' || name === '--line-regexp') r.line = true;
    else if (name === '-F' || name === '--fixed-strings') r.syntax = 'fixed';
    else if (name === '-P' || name === '--perl-regexp' || name === '--pcre2') r.syntax = 'perl';
  }
  return true;
}

const reading = (syntax: Syntax): Reading => ({
  patterns: [],
  syntax,
  ignoreCase: false,
  smartCase: false,
  word: false,
  line: false,
  context: 0,
  filters: noFilters(),
});

/** Take the pattern from the operands when no -e gave one; false when it is missing or dynamic. */
function takePattern(r: Reading, operands: Word[]): boolean {
  if (r.patterns.length > 0) return true;
  const first = operands.shift();
  if (first === undefined || first.dynamic) return false;
  r.patterns.push(first.text);
  return true;
}

function plan(cls: CommandClass, r: Reading, paths: readonly Word[], chdir?: string): SearchPlan {
  const ignoreCase = r.ignoreCase || (r.smartCase && !r.patterns.some((p) => /[A-Z]/.test(p)));
  return {
    class: cls,
    pattern: { patterns: r.patterns, syntax: r.syntax, ignoreCase, word: r.word, line: r.line },
    filters: r.filters,
    paths,
    context: r.context,
    ...(chdir !== undefined ? { chdir } : {}),
  };
}

/** grep, egrep, fgrep, rgrep. Without files from find or xargs, only a recursive grep is a repository search. */
export function readGrep(program: string, args: readonly Word[], source?: FileSource): SearchPlan | undefined {
  const parsed = parseArgs(args, GREP);
  if (!parsed) return undefined;
  const r = reading(program === 'egrep' ? 'extended' : program === 'fgrep' ? 'fixed' : 'basic');
  let recursive = program === 'rgrep';
  let includesOk = true;
  const ok = readCommon(parsed, r, (name, value) => {
    if (name === '-r' || name === '-R' || name === '--recursive' || name === '--dereference-recursive')
      recursive = true;
    else if ((name === '-d' || name === '--directories') && value === 'recurse') recursive = true;
    else if (name === '-E' || name === '--extended-regexp') r.syntax = 'extended';
    else if (name === '-G' || name === '--basic-regexp') r.syntax = 'basic';
    else if (name === '-y') r.ignoreCase = true;
    else if (name === '-U') return true;
    else if (name === '--no-ignore-case') r.ignoreCase = false;
    else if (name === '--include') includesOk &&= addIncludeGlob(r.filters, value ?? '', true);
    else if (name === '--exclude') addExclude(r.filters, value ?? '', false);
    else if (name === '--exclude-dir') addExclude(r.filters, value ?? '', true);
    else return undefined;
    return true;
  });
  if (!ok || !includesOk) return undefined;
  const operands = [...parsed.operands];
  if (!takePattern(r, operands)) return undefined;
  if (source) {
    // Files from find/xargs: the only operand allowed is the placeholder find fills in.
    if (operands.some((w) => w.text !== '{}')) return undefined;
    return plan('grep', r, []);
  }
  if (!recursive) return undefined;
  return plan('grep', r, operands);
}

/** rg. `rg --files` lists files: the finders read it. */
export function readRg(args: readonly Word[], source?: FileSource): SearchPlan | undefined {
  const parsed = parseArgs(args, RG);
  if (!parsed) return undefined;
  const r = reading('extended');
  let unrestricted = 0;
  let typesOk = true;
  const ok = readCommon(parsed, r, (name, value) => {
    const v = value ?? '';
    if (name === '--files') return false;
    if (name === '-u' || name === '--unrestricted') unrestricted++;
    else if (
      name === '--no-ignore' ||
      name === '--no-ignore-vcs' ||
      name === '--binary' ||
      name === '-a' ||
      name === '--text'
    )
      return false;
    else if (name === '-S' || name === '--smart-case') r.smartCase = true;
    else if (name === '-L')
      return true; // --follow
    else if (name === '-s' || name === '--case-sensitive') {
      r.smartCase = false;
      r.ignoreCase = false;
    } else if (name === '-t' || name === '--type') {
      const lang = langOfType(v);
      if (lang === undefined) typesOk = false;
      else if (!r.filters.langs.includes(lang)) r.filters.langs.push(lang);
    } else if (name === '-g' || name === '--glob' || name === '--iglob') {
      if (v.startsWith('!')) addExclude(r.filters, v.slice(1), false);
      else typesOk &&= addIncludeGlob(r.filters, v, false);
    } else return undefined;
    return true;
  });
  // Each -u widens to what the index leaves out (ignored, then hidden and binary files).
  if (!ok || !typesOk || unrestricted > 0) return undefined;
  const operands = [...parsed.operands];
  if (!takePattern(r, operands)) return undefined;
  if (source) return operands.length === 0 ? plan('rg', r, []) : undefined;
  return plan('rg', r, operands);
}

/** A word git would take for a revision rather than a path. */
function looksLikeRevision(s: string): boolean {
  return (
    /^(?:HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|main|master|develop|trunk)(?:$|[~^@])/.test(s) ||
    /[~^]|\.\.|@\{/.test(s) ||
    /^[0-9a-f]{7,40}$/.test(s) ||
    /^(?:origin|upstream)\//.test(s)
  );
}

/**
 * `git [-C DIR] [-c k=v] [--no-pager] grep ...`: `args` are the words after `git`. Words
 * between the pattern and `--` are revisions or paths; a revision is not the working
 * tree the index holds.
 */
export function readGitGrep(args: readonly Word[]): SearchPlan | undefined {
  let i = 0;
  let chdir: string | undefined;
  for (; i < args.length && args[i].text !== 'grep'; i++) {
    const a = args[i];
    if (a.dynamic) return undefined;
    if (a.text === '-C') {
      const dir = args[++i];
      if (dir === undefined || dir.dynamic || dir.glob || dir.tilde) return undefined;
      chdir = chdir === undefined ? dir.text : `${chdir}/${dir.text}`;
    } else if (a.text === '-c') i++;
    else if (!['--no-pager', '-P', '--paginate', '--no-replace-objects', '--literal-pathspecs'].includes(a.text))
      return undefined;
  }
  if (i >= args.length) return undefined;
  const rest = args.slice(i + 1);
  const dash = rest.findIndex((w) => w.text === '--');
  const parsed = parseArgs(dash >= 0 ? rest.slice(0, dash) : rest, GIT_GREP);
  if (!parsed) return undefined;
  const r = reading('basic');
  const ok = readCommon(parsed, r, (name) => {
    if (name === '-E' || name === '--extended-regexp') r.syntax = 'extended';
    else if (name === '-G' || name === '--basic-regexp') r.syntax = 'basic';
    else if (name === '--recurse-submodules') return false;
    else return undefined;
    return true;
  });
  if (!ok) return undefined;
  const operands = [...parsed.operands];
  if (!takePattern(r, operands)) return undefined;
  if (operands.some((w) => looksLikeRevision(w.text))) return undefined;
  const specs = [...operands, ...(dash >= 0 ? rest.slice(dash + 1) : [])];
  const paths: Word[] = [];
  for (const w of specs) {
    if (w.dynamic || w.glob) return undefined;
    const t = w.text;
    const exclude = /^:(?:!|\^|\(exclude\))(.*)$/.exec(t);
    if (exclude) addExclude(r.filters, exclude[1], false);
    else if (t.startsWith(':')) return undefined;
    else if (/[*?[]/.test(t)) {
      if (!addIncludeGlob(r.filters, t, false)) return undefined;
    } else paths.push(w);
  }
  return plan('git-grep', r, paths, chdir);
}
