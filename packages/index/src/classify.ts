import { extension, basename, isDocPath, isTestPath } from '@trufflepig/rank';

export type Language = 'rust' | 'typescript' | 'tsx' | 'javascript' | 'text';

/** Languages the query language accepts with `lang:` (retrieval.md §1). */
export const QUERY_LANGUAGES = ['rust', 'typescript', 'javascript', 'csharp', 'php', 'luau', 'dreammaker', 'python', 'go', 'java', 'text'] as const;
export type QueryLanguage = (typeof QUERY_LANGUAGES)[number];

const LANGUAGE_ALIASES: Readonly<Record<string, QueryLanguage>> = {
  rs: 'rust', ts: 'typescript', tsx: 'typescript', js: 'javascript', jsx: 'javascript', cs: 'csharp', 'c#': 'csharp',
  lua: 'luau', dm: 'dreammaker', py: 'python', md: 'text', markdown: 'text', toml: 'text', json: 'text',
};

/** Canonical `lang:` value, or undefined for an unknown language. */
export function canonicalQueryLanguage(value: string): QueryLanguage | undefined {
  const v = value.toLowerCase();
  if ((QUERY_LANGUAGES as readonly string[]).includes(v)) return v as QueryLanguage;
  return LANGUAGE_ALIASES[v];
}

const BY_EXTENSION: Readonly<Record<string, Language>> = {
  rs: 'rust', ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
};

/** The extractor language of a path (`text` when no grammar applies). */
export function languageOf(path: string): Language {
  return BY_EXTENSION[extension(path)] ?? 'text';
}

/** The `lang:` name a stored file answers to (TSX is TypeScript). */
export function queryLanguageOf(language: Language): QueryLanguage {
  return language === 'tsx' ? 'typescript' : language;
}

const CONFIG_EXTENSIONS = new Set(['toml', 'json', 'jsonc', 'json5', 'yaml', 'yml', 'ini', 'cfg', 'conf', 'properties', 'xml', 'lock']);
const CONFIG_BASENAMES = new Set(['.env.example', 'Makefile', 'Dockerfile', 'CMakeLists.txt', 'build.gradle', 'pom.xml', '.editorconfig', '.gitignore', '.gitattributes', '.npmrc', 'Gemfile', 'Rakefile', 'justfile']);
const DOC_EXTENSIONS = new Set(['md', 'markdown', 'mdx', 'rst', 'adoc', 'asciidoc', 'txt', 'org']);
const CODE_EXTENSIONS = new Set([
  'rs', 'ts', 'mts', 'cts', 'tsx', 'js', 'mjs', 'cjs', 'jsx', 'cs', 'php', 'phtml', 'lua', 'luau', 'dm', 'dme',
  'py', 'go', 'java', 'c', 'h', 'cc', 'cpp', 'hpp', 'rb', 'swift', 'kt', 'scala', 'sh', 'bash', 'zsh', 'sql',
]);

/** Source tags (per-source.md), derived from the path alone, sorted. */
export function sourceTags(path: string): string[] {
  const tags = new Set<string>();
  const ext = extension(path);
  const base = basename(path);
  const test = isTestPath(path);
  if (test) tags.add('source:test');
  if (CODE_EXTENSIONS.has(ext) && !test) tags.add('source:code');
  if (DOC_EXTENSIONS.has(ext) || (isDocPath(path) && !CODE_EXTENSIONS.has(ext) && !CONFIG_EXTENSIONS.has(ext))) tags.add('source:docs');
  if (CONFIG_EXTENSIONS.has(ext) || CONFIG_BASENAMES.has(base) || base === 'Cargo.toml' || base === 'package.json') tags.add('source:config');
  return [...tags].sort();
}

export type PathClass = 'code' | 'test' | 'docs' | 'other';

export function pathClass(path: string): PathClass {
  if (isTestPath(path)) return 'test';
  if (isDocPath(path)) return 'docs';
  return CODE_EXTENSIONS.has(extension(path)) ? 'code' : 'other';
}
