// The hint hook's classifier: a shell command line in, the Trufflepig command that does
// the same lookup out (or nothing). Pure: no file system, no environment; where the
// command runs and which root is indexed come in as values.
import * as path from 'node:path';
import { feed, readFd, readFind, readRgFiles, searchOfFiles, type Finding, type ListPlan } from './finders';
import { looksLikeFile, type Filters } from './filters';
import { queryWordOf } from './patterns';
import { readGitGrep, readGrep, readRg, type CommandClass } from './searchers';
import { shellQuote } from '../shell-quote';
import { parseCommandLine, type SimpleCommand, type Word } from './shell-words';

export type { CommandClass } from './searchers';

export interface Suggestion {
  /** The kind of command it replaces; hints are rate-limited per class. */
  readonly class: CommandClass;
  /** The Trufflepig command line, quoted for a POSIX shell. */
  readonly command: string;
  /** Absolute paths the original command searches (directories or files). */
  readonly targets: readonly string[];
}

export interface Where {
  /** The directory the command runs in (absolute). Default `/`. */
  readonly cwd?: string;
  /** The indexed root the suggestion addresses (absolute). Default: the cwd. Paths outside it get no suggestion. */
  readonly root?: string;
  /** `~` in the command; without it a word starting with `~` gets no suggestion. */
  readonly home?: string;
  /** How to call Trufflepig. Default `trufflepig`. */
  readonly program?: string;
  /** A `--root` the suggested command needs (the root is not the one of the directory it runs in). */
  readonly rootOption?: string;
  /** The `--cache` base the hook runs with: the suggested command must open the same index. */
  readonly cacheOption?: string;
}

const posix = path.posix;

const PREFIXES = new Set(['command', 'builtin', 'exec', 'nohup', 'time', 'nice', 'stdbuf', 'timeout', 'env', 'sudo']);
/** Wrapper options that take a value (`nice -n 5`, `sudo -u x`, `timeout -s KILL`, `env -u VAR`). */
const WRAPPER_VALUED = new Set(['-n', '-u', '-g', '-s', '-k', '-C']);

/** The command's own words, without `VAR=x` assignments and wrappers such as `env`, `time`, `timeout 10`. */
function unwrap(words: readonly Word[]): readonly Word[] | undefined {
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].text)) i++;
    const w = words[i];
    if (w === undefined) return undefined;
    if (!PREFIXES.has(w.text)) return words.slice(i);
    i++;
    // Options of the wrapper, and the duration of `timeout`.
    while (i < words.length && words[i].text.startsWith('-')) i += WRAPPER_VALUED.has(words[i].text) ? 2 : 1;
    if (w.text === 'timeout' && i < words.length) i++;
  }
}

const base = (w: Word | undefined) => (w === undefined || w.dynamic ? '' : posix.basename(w.text));

/** The file names a later stage of a listing narrows to (`find . | grep bucket`); false when it does something else. */
function foldConsumer(list: ListPlan, words: readonly Word[]): ListPlan | false {
  const program = base(words[0]);
  if (['head', 'tail', 'sort', 'less', 'more', 'cat'].includes(program)) return list;
  if (!['grep', 'egrep', 'fgrep'].includes(program)) return false;
  const rest = words.slice(1).filter((w) => !['-i', '-F', '-E', '--color', '--color=auto'].includes(w.text));
  if (rest.length !== 1 || rest[0].dynamic || !/^[A-Za-z0-9_.-]+$/.test(rest[0].text)) return false;
  const name = rest[0].text;
  const filters: Filters = { ...list.filters, files: [...list.filters.files], words: [...list.filters.words] };
  (looksLikeFile(name) ? filters.files : filters.words).push(name.replace(/^\.+|\.+$/g, ''));
  return { ...list, filters };
}

/** Stages after a search that make it something else: counting, feeding other commands. */
const NOT_AFTER_SEARCH = new Set(['wc', 'xargs', 'while', 'read', 'sh', 'bash']);

/** One pipeline stage (and the stages after it) as a plan, or undefined. */
function planOf(cmd: SimpleCommand, later: readonly SimpleCommand[], piped: boolean): Finding | undefined {
  const words = unwrap(cmd.words);
  if (!words) return undefined;
  const program = base(words[0]);
  const args = words.slice(1);
  let finding: Finding | undefined;
  if (['grep', 'egrep', 'fgrep', 'rgrep'].includes(program)) {
    const plan = readGrep(program, args);
    finding = plan && { kind: 'search', plan };
  } else if (program === 'rg') {
    if (args.some((w) => w.text === '--files')) finding = readRgFiles(args);
    else {
      const plan = readRg(args);
      finding = plan && { kind: 'search', plan };
    }
  } else if (program === 'git') {
    const plan = readGitGrep(args);
    finding = plan && { kind: 'search', plan };
  } else if (program === 'find') finding = readFind(args);
  else if (program === 'fd' || program === 'fdfind') finding = readFd(args);
  if (!finding) return undefined;
  if (finding.kind === 'search') {
    // A search reading a pipe or a redirected stdin filters that text, not the files.
    if ((piped || cmd.stdinRedirected) && finding.plan.paths.length === 0 && finding.plan.class !== 'git-grep')
      return undefined;
    if (later.some((c) => NOT_AFTER_SEARCH.has(base(unwrap(c.words)?.[0])))) return undefined;
    return finding;
  }
  let list = finding.plan;
  for (const [k, next] of later.entries()) {
    const words2 = unwrap(next.words);
    if (!words2) return undefined;
    if (base(words2[0]) === 'xargs') {
      // `| xargs [opts] grep …`: the listing feeds the search (and nothing may follow it).
      let j = 1;
      while (j < words2.length && words2[j].text.startsWith('-'))
        j += ['-n', '-P', '-L', '-s', '-d', '-E', '-I'].includes(words2[j].text) ? 2 : 1;
      const search = k === later.length - 1 ? searchOfFiles(words2.slice(j)) : undefined;
      const fed = search && feed(list, search);
      return fed ? { kind: 'search', plan: fed } : undefined;
    }
    const folded = foldConsumer(list, words2);
    if (folded === false) return undefined;
    list = folded;
  }
  return { kind: 'list', plan: list };
}

interface Placed {
  /** Absolute targets. */
  readonly targets: string[];
  /** Root-relative `file:` values of the targets, [] when one of them is the whole root. */
  readonly files: string[];
}

/** The plan's paths made absolute and root-relative; undefined when one is unknown, outside the root, or every one is a single file. */
function place(
  paths: readonly Word[],
  cwd: string,
  where: Where,
  root: string,
  fileListing: boolean,
): Placed | undefined {
  const targets: string[] = [];
  const files: string[] = [];
  let wholeRoot = false;
  for (const w of paths.length > 0 ? paths : [{ text: '.', dynamic: false, glob: false, tilde: false }]) {
    if (w.dynamic || w.glob || w.text === '-') return undefined;
    let t = w.text;
    if (w.tilde) {
      if (where.home === undefined || !(t === '~' || t.startsWith('~/'))) return undefined;
      t = where.home + t.slice(1);
    }
    const abs = posix.resolve(cwd, t);
    const rel = posix.relative(root, abs);
    if (rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel)) return undefined;
    targets.push(abs);
    if (rel === '') wholeRoot = true;
    else files.push(looksLikeFile(rel) ? rel : `${rel}/`);
  }
  // grep on files you name is already the right tool.
  if (!fileListing && !wholeRoot && files.every(looksLikeFile)) return undefined;
  return { targets, files: wholeRoot ? [] : files };
}

function render(where: Where, verb: string, words: readonly string[]): string {
  const program = where.program ?? 'trufflepig';
  const root = where.rootOption !== undefined ? ` --root ${shellQuote(where.rootOption)}` : '';
  const cache = where.cacheOption !== undefined ? ` --cache ${shellQuote(where.cacheOption)}` : '';
  return `${program}${cache}${root} ${verb} ${words.map(shellQuote).join(' ')}`;
}

/** Filter words; path filters give way to name filters (several `file:` values match any one of them). */
function filterWords(f: Filters, placed: readonly string[]): string[] {
  const files = f.files.length > 0 ? f.files : placed;
  return [...f.langs.map((l) => `lang:${l}`), ...files.map((p) => `file:${p}`), ...f.excludes.map((p) => `-file:${p}`)];
}

function suggestionOf(plan: Finding, cwd: string, where: Where): Suggestion | undefined {
  const root = where.root ?? cwd;
  const dir = plan.plan.chdir !== undefined ? posix.resolve(cwd, plan.plan.chdir) : cwd;
  const placed = place(plan.plan.paths, dir, where, root, plan.kind === 'list');
  if (!placed) return undefined;
  if (plan.kind === 'search') {
    const p = plan.plan;
    const word = queryWordOf(p.pattern);
    if (word === undefined) return undefined;
    const words = [word, ...filterWords(p.filters, placed.files), ...(p.context > 0 ? ['-C', String(p.context)] : [])];
    return { class: p.class, command: render(where, 'search', words), targets: placed.targets };
  }
  const f = plan.plan.filters;
  if (f.langs.length + f.files.length + f.words.length === 0) {
    // Every file under one directory: its map.
    if (placed.files.length > 1 || placed.targets.length > 1) return undefined;
    return { class: plan.plan.class, command: render(where, 'map', [placed.files[0] ?? '.']), targets: placed.targets };
  }
  return {
    class: plan.plan.class,
    command: render(where, 'search', ['kind:file', ...f.words, ...filterWords(f, placed.files)]),
    targets: placed.targets,
  };
}

/**
 * The Trufflepig command equivalent to the first repository lookup in `command` (grep -r,
 * rg, git grep, find -name, fd), or undefined when it has none: a search of one named
 * file, of a pipe, of ignored files or a revision, anything counted, inverted or built
 * from expansions. `cd DIR &&` before it moves where it runs.
 */
export function classify(command: string, where: Where = {}): Suggestion | undefined {
  const pipelines = parseCommandLine(command);
  if (!pipelines) return undefined;
  let cwd: string | undefined = where.cwd ?? '/';
  for (const pipeline of pipelines) {
    const first = unwrap(pipeline[0].words);
    if (first && (first[0].text === 'cd' || first[0].text === 'pushd') && pipeline.length === 1) {
      const dir = first[1];
      // `cd`, `cd -` or `cd $X`: where later commands run is unknown from here.
      cwd =
        dir === undefined || dir.dynamic || dir.glob || dir.tilde || dir.text === '-' || cwd === undefined
          ? undefined
          : posix.resolve(cwd, dir.text);
      continue;
    }
    if (cwd === undefined) return undefined;
    for (let k = 0; k < pipeline.length; k++) {
      const plan = planOf(pipeline[k], pipeline.slice(k + 1), k > 0);
      if (plan) return suggestionOf(plan, cwd, where);
    }
  }
  return undefined;
}
