import { extension, basename, hasProseExtension, isDocPath, isTestPath } from '@trufflepig/rank';

/**
 * The one table of languages: the extractor language a path gets, the `lang:` value it
 * answers to, and that value's aliases (docs/spec/retrieval.md §1). `text` has no extractor.
 */
const LANGUAGE_TABLE = [
  { lang: 'rust', query: 'rust', extensions: ['rs'], aliases: ['rs'] },
  { lang: 'typescript', query: 'typescript', extensions: ['ts', 'mts', 'cts'], aliases: ['ts'] },
  { lang: 'tsx', query: 'typescript', extensions: ['tsx'], aliases: ['tsx'] },
  { lang: 'javascript', query: 'javascript', extensions: ['js', 'mjs', 'cjs', 'jsx'], aliases: ['js', 'jsx'] },
  { lang: 'csharp', query: 'csharp', extensions: ['cs'], aliases: ['cs', 'c#'] },
  { lang: 'php', query: 'php', extensions: ['php', 'phtml'], aliases: [] },
  // Lua and Luau share one extractor: Roblox code is Luau whatever its extension.
  { lang: 'luau', query: 'luau', extensions: ['lua', 'luau'], aliases: ['lua'] },
  { lang: 'dreammaker', query: 'dreammaker', extensions: ['dm', 'dme'], aliases: ['dm'] },
  { lang: 'python', query: 'python', extensions: ['py'], aliases: ['py'] },
  { lang: 'go', query: 'go', extensions: ['go'], aliases: ['golang'] },
  { lang: 'java', query: 'java', extensions: ['java'], aliases: [] },
  { lang: 'ruby', query: 'ruby', extensions: ['rb', 'rake', 'gemspec', 'ru'], aliases: ['rb'] },
  // A `.h` file is C unless its syntax is C++ (extract/lang/c-family.ts looksLikeCpp): then it is stored as cpp.
  { lang: 'c', query: 'c', extensions: ['c', 'h'], aliases: ['h'] },
  {
    lang: 'cpp',
    query: 'cpp',
    extensions: ['cc', 'cpp', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h++', 'ipp', 'tpp', 'inl'],
    aliases: ['cc', 'cxx', 'hpp', 'c++'],
  },
  { lang: 'text', query: 'text', extensions: [], aliases: ['md', 'markdown', 'toml', 'json'] },
] as const;

export type Language = (typeof LANGUAGE_TABLE)[number]['lang'];

/** Languages the query language accepts with `lang:` (docs/spec/retrieval.md §1). */
export const QUERY_LANGUAGES = [
  'rust',
  'typescript',
  'javascript',
  'csharp',
  'php',
  'luau',
  'dreammaker',
  'python',
  'go',
  'java',
  'ruby',
  'c',
  'cpp',
  'text',
] as const;
export type QueryLanguage = (typeof QUERY_LANGUAGES)[number];

const LANGUAGE_ALIASES: Readonly<Record<string, QueryLanguage>> = Object.fromEntries(
  LANGUAGE_TABLE.flatMap((row) => row.aliases.map((alias): [string, QueryLanguage] => [alias, row.query])),
);

/** Canonical `lang:` value, or undefined for an unknown language. */
export function canonicalQueryLanguage(value: string): QueryLanguage | undefined {
  const v = value.toLowerCase();
  if ((QUERY_LANGUAGES as readonly string[]).includes(v)) return v as QueryLanguage;
  // Own keys only: `lang:constructor` named Object's constructor.
  return Object.hasOwn(LANGUAGE_ALIASES, v) ? LANGUAGE_ALIASES[v] : undefined;
}

const BY_EXTENSION: Readonly<Record<string, Language>> = Object.fromEntries(
  LANGUAGE_TABLE.flatMap((row) => row.extensions.map((ext): [string, Language] => [ext, row.lang])),
);
const QUERY_OF: Readonly<Record<string, QueryLanguage>> = Object.fromEntries(
  LANGUAGE_TABLE.map((row) => [row.lang, row.query]),
);

/** The extractor language of a path (`text` when no extractor applies). */
export function languageOf(path: string): Language {
  return BY_EXTENSION[extension(path)] ?? 'text';
}

/**
 * What extraction starts from: the path's language, or `extensionless` for a file whose
 * bytes decide between C, C++ and text: one without extension (a C++ header named like the
 * standard's: Eigen's `Eigen/Core`, libstdc++'s `vector`) or of SNIFFED_EXTENSIONS
 * (extract/lang/c-family.ts looksLikeCSource). The extraction reports the language it
 * chose, which is the one stored.
 */
export type ExtractionLanguage = Language | 'extensionless';

// Files without extension that are never C whatever their bytes: build files, scripts and
// prose. The content rule already refuses them; naming them keeps a Makefile that opens
// with a commented-out `#include` from becoming C.
const NEVER_SOURCE_BASENAMES = new Set([
  'Makefile',
  'makefile',
  'GNUmakefile',
  'Kbuild',
  'Kconfig',
  'Dockerfile',
  'Containerfile',
  'Jenkinsfile',
  'Vagrantfile',
  'Gemfile',
  'Rakefile',
  'Podfile',
  'Brewfile',
  'justfile',
  'Justfile',
  'configure',
  'LICENSE',
  'LICENCE',
  'COPYING',
  'COPYRIGHT',
  'NOTICE',
  'README',
  'AUTHORS',
  'CONTRIBUTORS',
  'CREDITS',
  'MAINTAINERS',
  'CHANGELOG',
  'ChangeLog',
  'CHANGES',
  'NEWS',
  'HISTORY',
  'INSTALL',
  'TODO',
  'VERSION',
  'OWNERS',
  'CODEOWNERS',
]);

/**
 * Extensions several languages share, whose bytes decide as a file without extension's do:
 * `.inc` is C++ in abseil (`int128_have_intrinsic.inc`, `symbolize_elf.inc`: 24 files whose
 * definitions were text, an abseil trial), PHP, Pascal or assembly elsewhere, and those stay text.
 */
const SNIFFED_EXTENSIONS = new Set(['inc']);

/** The language extraction starts from for a path (ExtractionLanguage). */
export function extractionLanguageOf(path: string): ExtractionLanguage {
  const lang = languageOf(path);
  if (lang === 'text' && SNIFFED_EXTENSIONS.has(extension(path))) return 'extensionless';
  if (lang !== 'text' || extension(path) !== '') return lang;
  const base = basename(path);
  // A dotfile (`.clang-format`) is configuration, not a header.
  return base.startsWith('.') || NEVER_SOURCE_BASENAMES.has(base) ? 'text' : 'extensionless';
}

/** The language a file is stored as when its extraction chose none (it failed): the path's. */
export function storedLanguageOf(lang: ExtractionLanguage): Language {
  return lang === 'extensionless' ? 'text' : lang;
}

/**
 * Languages whose code can name each other's definitions: JavaScript and TypeScript import
 * each other, C and C++ include each other. A Python method is never called from a
 * JavaScript file, whatever its name (Django: `refs QuerySet::filter` listed the admin's
 * `.filter` calls in jQuery code as candidates, an agent trial).
 */
export function codeFamilyOf(language: Language): string {
  if (language === 'javascript' || language === 'typescript' || language === 'tsx') return 'javascript';
  if (language === 'cpp') return 'c';
  return language;
}

/** The `lang:` name a stored file answers to (TSX is TypeScript, Lua is Luau). */
export function queryLanguageOf(language: Language): QueryLanguage {
  return QUERY_OF[language] ?? 'text';
}

const CONFIG_EXTENSIONS = new Set([
  'toml',
  'json',
  'jsonc',
  'json5',
  'yaml',
  'yml',
  'ini',
  'cfg',
  'conf',
  'properties',
  'xml',
  'lock',
]);
const CONFIG_BASENAMES = new Set([
  '.env.example',
  'Makefile',
  'Dockerfile',
  'CMakeLists.txt',
  'build.gradle',
  'pom.xml',
  '.editorconfig',
  '.gitignore',
  '.gitattributes',
  '.npmrc',
  'Gemfile',
  'Rakefile',
  'justfile',
]);
/**
 * Extensions of code whatever reads it: every extractor language's (LANGUAGE_TABLE), and
 * the languages no extractor reads, which are code all the same.
 */
const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  ...LANGUAGE_TABLE.flatMap((row) => row.extensions),
  // Languages no extractor reads are code all the same: `source:code` must not leave out a
  // Neovim runtime's 1,351 Vim script files or the kernel's assembly (an agent trial).
  // Objective-C and Objective-C++.
  'm',
  'mm',
  'swift',
  'kt',
  'kts',
  'scala',
  'sh',
  'bash',
  'zsh',
  'ksh',
  'fish',
  'sql',
  'vim',
  'pl',
  'pm',
  's',
  'asm',
  'el',
  'lisp',
  'scm',
  'rkt',
  'clj',
  'cljs',
  'cljc',
  'erl',
  'hrl',
  'ex',
  'exs',
  'hs',
  'ml',
  'mli',
  'fs',
  'fsx',
  'r',
  'jl',
  'dart',
  'groovy',
  'tcl',
  'awk',
  'ps1',
  'psm1',
  'bat',
  'cmd',
  'f90',
  'f95',
  'pas',
  'vb',
  'zig',
  'nim',
  'sv',
  'vhd',
  'vhdl',
  'cu',
  'cuh',
  'elm',
  'coffee',
  'pyi',
  'pyx',
  'pxd',
  'vue',
  'svelte',
  'sol',
]);

/** The origin tag of documents (Markdown, text, docs/ pages): their lines are prose, never comments. */
export const DOCS_TAG = 'source:docs';
/** The origin tags of a language's source files: hand-written code, and tests. */
export const CODE_TAG = 'source:code';
export const TEST_TAG = 'source:test';

/**
 * Source tags (docs/spec/per-source.md), sorted: derived from the path, and from the
 * language the file is stored as, which an extractor gave a file its path does not name
 * (Eigen's header `Eigen/Core` is cpp, so code). Pass the stored language wherever a file
 * has one: a reconcile compares stored tags with these, and a tag read from the bytes
 * again would make every reconcile read them.
 */
export function sourceTags(path: string, storedLang?: Language): string[] {
  const tags = new Set<string>();
  const ext = extension(path);
  const base = basename(path);
  const test = isTestPath(path);
  const code = CODE_EXTENSIONS.has(ext) || (storedLang !== undefined && storedLang !== 'text');
  if (test) tags.add(TEST_TAG);
  if (code && !test) tags.add(CODE_TAG);
  if (hasProseExtension(path) || (isDocPath(path) && !code && !CONFIG_EXTENSIONS.has(ext))) tags.add(DOCS_TAG);
  if (CONFIG_EXTENSIONS.has(ext) || CONFIG_BASENAMES.has(base) || base === 'Cargo.toml' || base === 'package.json')
    tags.add('source:config');
  return [...tags].sort();
}

/**
 * Whether a path's extension is a programming language's, whether or not an extractor
 * reads it (a test's `.sh` too; a test's `.txt` or `.golden` data never).
 */
export function hasCodeExtension(path: string): boolean {
  return CODE_EXTENSIONS.has(extension(path));
}

export type PathClass = 'code' | 'test' | 'docs' | 'other';

export function pathClass(path: string): PathClass {
  if (isTestPath(path)) return 'test';
  if (isDocPath(path)) return 'docs';
  return CODE_EXTENSIONS.has(extension(path)) ? 'code' : 'other';
}
