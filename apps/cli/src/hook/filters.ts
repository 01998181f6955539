// File selections of grep, rg, git grep, find and fd (globs, types, directories) as
// Trufflepig filters: `lang:`, `file:` and `-file:`. A selection with no faithful
// filter gets none, and the caller then suggests nothing rather than a wider search.

/** The index's own language table, through its light subpath (the hook must not load the index). */
const languages = (): typeof import('@trufflepig/index/classify') =>
  require('@trufflepig/index/classify') as typeof import('@trufflepig/index/classify');

/** ripgrep `-t` type names with a faithful `lang:`. */
const LANG_OF_RG_TYPE: Readonly<Record<string, string>> = {
  rust: 'rust',
  ts: 'typescript',
  typescript: 'typescript',
  js: 'javascript',
  javascript: 'javascript',
  cs: 'csharp',
  csharp: 'csharp',
  php: 'php',
  lua: 'luau',
  py: 'python',
  python: 'python',
  go: 'go',
  java: 'java',
  ruby: 'ruby',
  c: 'c',
  cpp: 'cpp',
};

/** Directories the index never holds untracked (docs/cli.md: untracked_vendor) or at all: excluding them changes nothing. */
const NEVER_INDEXED = new Set(['node_modules', '.git']);

export interface Filters {
  readonly langs: string[];
  /** `file:` values (any one may match). */
  readonly files: string[];
  /** `-file:` values. */
  readonly excludes: string[];
  /** Free-text words of a file-name search (`*bucket*`). */
  readonly words: string[];
}

export const noFilters = (): Filters => ({ langs: [], files: [], excludes: [], words: [] });

export function langOfType(type: string): string | undefined {
  return Object.hasOwn(LANG_OF_RG_TYPE, type) ? LANG_OF_RG_TYPE[type] : undefined;
}

/**
 * The `lang:` value files of an extension answer to, from the index's table; none for
 * `text` (md, toml, json…): `lang:text` is every file without an extractor, far wider.
 */
export function langOfExtension(ext: string): string | undefined {
  const { languageOf, queryLanguageOf } = languages();
  const lang = queryLanguageOf(languageOf(`x.${ext.toLowerCase()}`));
  return lang === 'text' ? undefined : lang;
}

const add = (list: string[], v: string) => {
  if (!list.includes(v)) list.push(v);
};

/** `*.{ts,tsx}` → ['ts', 'tsx']; `*.rs` → ['rs']; anything else undefined. */
function extensionsOf(glob: string): string[] | undefined {
  const m = /^\*\.(?:\{([A-Za-z0-9,]+)\}|([A-Za-z0-9]+))$/.exec(glob);
  if (!m) return undefined;
  return (m[1] ?? m[2]).split(',').filter((e) => e.length > 0);
}

const hasWildcard = (s: string) => /[*?[\]{}]/.test(s);

/**
 * Narrow `into` by an include glob (grep --include, rg -g, a git pathspec, find -name,
 * fd -g). Returns false when the glob has no faithful filter. `name` says the glob is
 * matched against file names only (find -name, --include), so `*x*` becomes a word.
 */
export function addIncludeGlob(into: Filters, glob: string, name: boolean): boolean {
  let g = glob.replace(/^(?:\.\/)+/, '').replace(/^(?:\*\*\/)+/, '');
  const exts = extensionsOf(g);
  if (exts) {
    const langs = exts.map(langOfExtension);
    if (langs.some((l) => l === undefined)) return false;
    for (const l of langs) add(into.langs, l as string);
    return true;
  }
  if (!name && g.includes('/')) {
    // `src/**`, `src/**/*.rs`, `src/*`, `src/`: a directory, then maybe extensions.
    const m = /^([^*?[\]{}]+?)\/(?:\*\*\/?)?(.*)$/.exec(g);
    if (!m) return false;
    if (m[2] !== '' && m[2] !== '*' && !addIncludeGlob(into, m[2], true)) return false;
    add(into.files, `${m[1]}/`);
    return true;
  }
  if (g.includes('/')) return false;
  const infix = /^\*([A-Za-z0-9_-]+)\*?$/.exec(g);
  if (infix && name) {
    add(into.words, infix[1]);
    return true;
  }
  // `bucket*.rs`: a name prefix and a language.
  const prefixExt = /^([^*?[\]{}]+)\*(\.[A-Za-z0-9]+)$/.exec(g);
  if (prefixExt) {
    const lang = langOfExtension(prefixExt[2].slice(1));
    if (lang === undefined) return false;
    add(into.langs, lang);
    add(into.files, prefixExt[1]);
    return true;
  }
  g = g.replace(/\*$/, '');
  if (g === '' || hasWildcard(g)) return false;
  add(into.files, g);
  return true;
}

/**
 * An exclusion (grep --exclude-dir, rg -g '!X', find -prune, fd -E): `-file:` when it
 * names a directory (`dir`, or no extension) or a file, else dropped: a wider search,
 * never a narrower one.
 */
export function addExclude(into: Filters, glob: string, dir: boolean): void {
  const g = glob
    .replace(/^(?:\.\/)+/, '')
    .replace(/^(?:\*\*\/)+/, '')
    .replace(/\/\*\*$|\/\*$|\/$/, '');
  if (g === '' || hasWildcard(g) || NEVER_INDEXED.has(g)) return;
  add(into.excludes, dir || !looksLikeFile(g) ? `${g}/` : g);
}

/** A path whose last component has an extension (`src/lib.rs`, `notes.txt`): taken for a file, not a directory. */
export function looksLikeFile(p: string): boolean {
  return /(?:^|\/)[^/.][^/]*\.[A-Za-z0-9]+$/.test(p);
}
