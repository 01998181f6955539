// find, fd and `rg --files` command lines read as a file listing (names, directories),
// or, with `-exec grep`/`-x rg`, as the search the listing feeds.
import {
  addExclude,
  addIncludeGlob,
  langOfExtension,
  langOfType,
  looksLikeFile,
  noFilters,
  type Filters,
} from './filters';
import { longSet, parseArgs, type OptionTable } from './options';
import { readGrep, readRg, type CommandClass, type SearchPlan } from './searchers';
import type { Word } from './shell-words';

export interface ListPlan {
  readonly class: CommandClass;
  /** What the names select: languages, `file:` names, words of a name, exclusions. */
  readonly filters: Filters;
  /** Where to list, as written; empty: the working directory. */
  readonly paths: readonly Word[];
  /** A directory the tool changes to first (`fd --base-directory`). */
  readonly chdir?: string;
}

export type Finding =
  { readonly kind: 'list'; readonly plan: ListPlan } | { readonly kind: 'search'; readonly plan: SearchPlan };

const GREPS = new Set(['grep', 'egrep', 'fgrep']);

/** The search a listing feeds (`-exec grep -n foo {} +`, `xargs rg foo`), given the command's words. */
export function searchOfFiles(words: readonly Word[]): SearchPlan | undefined {
  const program = words[0];
  if (program === undefined || program.dynamic) return undefined;
  const rest = words.slice(1).filter((w) => w.text !== '{}');
  if (GREPS.has(program.text)) return readGrep(program.text, rest, { fromFind: true });
  if (program.text === 'rg') return readRg(rest, { fromFind: true });
  return undefined;
}

/** The search over the listed files: the listing's languages, names and directories narrow it; a name's words cannot. */
export function feed(list: ListPlan, search: SearchPlan): SearchPlan | undefined {
  if (list.filters.words.length > 0) return undefined;
  const f = search.filters;
  const merged: Filters = {
    langs: [...new Set([...f.langs, ...list.filters.langs])],
    files: [...new Set([...f.files, ...list.filters.files])],
    excludes: [...new Set([...f.excludes, ...list.filters.excludes])],
    words: [],
  };
  return { ...search, filters: merged, paths: list.paths, ...(list.chdir !== undefined ? { chdir: list.chdir } : {}) };
}

const plainWord = (w: Word | undefined): w is Word => w !== undefined && !w.dynamic;

/** `find [-H|-L|-P] [PATH...] [EXPRESSION]`: name and path tests, `-type f`, pruning, `-exec grep`. */
export function readFind(args: readonly Word[]): Finding | undefined {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]|O\d)$/.test(args[i].text)) i++;
  const paths: Word[] = [];
  while (i < args.length && !/^[-(!),]/.test(args[i].text)) paths.push(args[i++]);
  const filters = noFilters();
  let negate = false;
  let exec: SearchPlan | undefined;
  for (; i < args.length; i++) {
    const w = args[i];
    if (w.dynamic) return undefined;
    const t = w.text;
    if (['(', ')', '-o', '-or', '-a', '-and', ','].includes(t)) {
      negate = false;
      continue;
    }
    if (t === '!' || t === '-not') {
      negate = true;
      continue;
    }
    if (['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename'].includes(t)) {
      const v = args[++i];
      if (!plainWord(v)) return undefined;
      const byName = t.endsWith('name') && !t.endsWith('wholename');
      const glob = byName ? v.text : v.text.replace(/^\.\//, '').replace(/^\*\//, '**/');
      const prune = args[i + 1]?.text === '-prune';
      if (prune || negate) {
        addExclude(filters, glob, prune);
        if (prune) i++;
      } else if (!addIncludeGlob(filters, glob, byName)) return undefined;
    } else if (t === '-type') {
      if (args[++i]?.text !== 'f') return undefined;
    } else if (t === '-maxdepth' || t === '-mindepth' || t === '-printf') {
      if (!plainWord(args[++i])) return undefined;
    } else if (t === '-exec' || t === '-execdir') {
      const end = args.findIndex((x, j) => j > i && (x.text === ';' || x.text === '+'));
      if (end < 0 || exec !== undefined) return undefined;
      exec = searchOfFiles(args.slice(i + 1, end));
      if (!exec) return undefined;
      i = end;
    } else if (
      ![
        '-depth',
        '-xdev',
        '-mount',
        '-follow',
        '-noleaf',
        '-daystart',
        '-print',
        '-print0',
        '-ls',
        '-prune',
        '-nowarn',
        '-warn',
        '-ignore_readdir_race',
      ].includes(t)
    ) {
      // -newer, -mtime, -size, -regex, -delete, -empty…: a question about more than names.
      return undefined;
    }
    negate = false;
  }
  const list: ListPlan = { class: 'find', filters, paths };
  if (exec) {
    const fed = feed(list, exec);
    return fed ? { kind: 'search', plan: fed } : undefined;
  }
  return { kind: 'list', plan: list };
}

const FD: OptionTable = {
  flags: 'HIusigFalL0pq1V',
  valued: 'dteEcjSo',
  longFlags: longSet(`hidden no-ignore no-ignore-vcs no-ignore-parent unrestricted case-sensitive ignore-case glob regex
    fixed-strings absolute-path list-details follow full-path print0 quiet show-errors one-file-system prune
    strip-cwd-prefix version help`),
  longValued: longSet(`max-depth min-depth exact-depth type extension exclude color threads size changed-within
    changed-before owner max-results base-directory search-path ignore-file path-separator format`),
};

/** An fd regex (or fixed string) over file names as filters; false when none is faithful. */
function addFdPattern(filters: Filters, pattern: string, fixed: boolean): boolean {
  if (!fixed && ['', '.', '^', '.*'].includes(pattern)) return true;
  const ext = fixed ? null : /^\\\.(?:\(([A-Za-z0-9|]+)\)|([A-Za-z0-9]+))\$$/.exec(pattern);
  if (ext) {
    const langs = (ext[1] ?? ext[2]).split('|').map(langOfExtension);
    if (langs.some((l) => l === undefined)) return false;
    for (const l of langs) if (!filters.langs.includes(l as string)) filters.langs.push(l as string);
    return true;
  }
  const anchored = !fixed && pattern.startsWith('^');
  const text = fixed ? pattern : pattern.replace(/^\^/, '').replace(/\$$/, '').replace(/\\\./g, '.');
  if (!/^[A-Za-z0-9_.-]+$/.test(text)) return false;
  if (anchored || looksLikeFile(text)) filters.files.push(text);
  else filters.words.push(text);
  return true;
}

/** `fd [OPTIONS] [PATTERN] [PATH...]`, with `-x`/`-X CMD` feeding a search. */
export function readFd(args: readonly Word[]): Finding | undefined {
  const execAt = args.findIndex((w) => ['-x', '--exec', '-X', '--exec-batch'].includes(w.text));
  let execWords: Word[] | undefined;
  if (execAt >= 0) {
    const tail = args.slice(execAt + 1);
    const end = tail.findIndex((w) => w.text === ';');
    execWords = end >= 0 ? tail.slice(0, end) : tail;
    if (end >= 0 && end < tail.length - 1) return undefined;
  }
  const parsed = parseArgs(execAt >= 0 ? args.slice(0, execAt) : args, FD);
  if (!parsed) return undefined;
  const filters = noFilters();
  const searchPaths: Word[] = [];
  let glob = false;
  let fixed = false;
  let chdir: string | undefined;
  for (const { name, value } of parsed.options) {
    const v = value ?? '';
    if (
      [
        '-I',
        '--no-ignore',
        '--no-ignore-vcs',
        '-u',
        '--unrestricted',
        '-p',
        '--full-path',
        '-q',
        '--quiet',
        '-V',
        '--version',
        '--help',
        '-S',
        '--size',
        '--changed-within',
        '--changed-before',
        '-o',
        '--owner',
      ].includes(name)
    )
      return undefined;
    if (name === '-g' || name === '--glob') glob = true;
    else if (name === '--regex') glob = false;
    else if (name === '-F' || name === '--fixed-strings') fixed = true;
    else if ((name === '-t' || name === '--type') && v !== 'f' && v !== 'file') return undefined;
    else if (name === '-e' || name === '--extension') {
      const lang = langOfExtension(v.replace(/^\./, '')) ?? langOfType(v);
      if (lang === undefined) return undefined;
      if (!filters.langs.includes(lang)) filters.langs.push(lang);
    } else if (name === '-E' || name === '--exclude') addExclude(filters, v, false);
    else if (name === '--base-directory') chdir = v;
    else if (name === '--search-path') searchPaths.push({ text: v, dynamic: false, glob: false, tilde: false });
  }
  const operands = [...parsed.operands];
  const pattern = operands.shift();
  if (pattern !== undefined) {
    if (pattern.dynamic) return undefined;
    if (glob ? !addIncludeGlob(filters, pattern.text, true) : !addFdPattern(filters, pattern.text, fixed))
      return undefined;
  }
  const list: ListPlan = {
    class: 'fd',
    filters,
    paths: [...operands, ...searchPaths],
    ...(chdir !== undefined ? { chdir } : {}),
  };
  if (execWords) {
    const search = searchOfFiles(execWords);
    const fed = search && feed(list, search);
    return fed ? { kind: 'search', plan: fed } : undefined;
  }
  return { kind: 'list', plan: list };
}

const RG_FILES: OptionTable = {
  flags: 'HLL.',
  valued: 'gtTd',
  longFlags: longSet('files hidden follow null sort-files'),
  longValued: longSet('glob iglob type type-not max-depth sort sortr'),
};

/** `rg --files [-g GLOB] [-t TYPE] [PATH...]`: the files rg would search. */
export function readRgFiles(args: readonly Word[]): Finding | undefined {
  const parsed = parseArgs(args, RG_FILES);
  if (!parsed || !parsed.options.some((o) => o.name === '--files')) return undefined;
  const filters = noFilters();
  for (const { name, value } of parsed.options) {
    const v = value ?? '';
    if (name === '-t' || name === '--type') {
      const lang = langOfType(v);
      if (lang === undefined) return undefined;
      if (!filters.langs.includes(lang)) filters.langs.push(lang);
    } else if (name === '-g' || name === '--glob' || name === '--iglob') {
      if (v.startsWith('!')) addExclude(filters, v.slice(1), false);
      else if (!addIncludeGlob(filters, v, false)) return undefined;
    }
  }
  return { kind: 'list', plan: { class: 'rg', filters, paths: parsed.operands } };
}
