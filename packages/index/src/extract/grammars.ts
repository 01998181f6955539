// The extractor of each language: a tree-sitter spec (grammar + query + hooks) or, for
// DreamMaker, a dedicated scanner. Each has its own version, so changing one extractor
// invalidates exactly the facts it produced.
import type Parser from 'tree-sitter';
import type { ExtractionLanguage, Language } from '../classify';
import { C, CPP } from './lang/c-family';
import { CSHARP } from './lang/csharp';
import { GO } from './lang/go';
import { JAVA } from './lang/java';
import { LUAU } from './lang/lua';
import { PHP } from './lang/php';
import { PYTHON } from './lang/python';
import { RUBY } from './lang/ruby';
import { RUST } from './lang/rust';
import { JAVASCRIPT, TSX, TYPESCRIPT } from './lang/typescript';
import type { LanguageSpec, NodeIdentity } from './spec';

export type CodeLanguage = Exclude<Language, 'text'>;
export type TreeSitterLanguage = Exclude<CodeLanguage, 'dreammaker'>;

export const SPECS: Readonly<Record<TreeSitterLanguage, LanguageSpec>> = {
  rust: RUST,
  typescript: TYPESCRIPT,
  tsx: TSX,
  javascript: JAVASCRIPT,
  csharp: CSHARP,
  php: PHP,
  python: PYTHON,
  go: GO,
  java: JAVA,
  luau: LUAU,
  c: C,
  cpp: CPP,
  ruby: RUBY,
};

/**
 * Languages whose files may be extracted as another one, chosen by content: a `.h` file is
 * C unless its syntax is C++. Their extractor id names both, so either change re-extracts them.
 */
const ALSO_EXTRACTED_AS: Partial<Record<TreeSitterLanguage, TreeSitterLanguage>> = { c: 'cpp' };

/** Version of the dedicated DreamMaker extractor (src/extract/dreammaker.ts). */
export const DREAMMAKER_EXTRACTOR_VERSION = 1;

/** tree-sitter is loaded on first parse only: searches never pay for the native module. */
function treeSitter(): typeof Parser {
  return require('tree-sitter') as typeof Parser;
}

interface Loaded {
  parser: Parser;
  query: Parser.Query;
  spec: LanguageSpec;
  /** `spec.identifiers` by node type id, filled as the walk meets each type (null: not an identifier). */
  identifierKinds: Map<number, NodeIdentity>;
}
const loaded = new Map<TreeSitterLanguage, Loaded>();

export function parserFor(lang: TreeSitterLanguage): Loaded {
  let entry = loaded.get(lang);
  if (!entry) {
    const spec = SPECS[lang];
    const language = spec.load() as Parser.Language;
    const parser = new (treeSitter())();
    parser.setLanguage(language);
    entry = { parser, query: new (treeSitter().Query)(language, spec.query), spec, identifierKinds: new Map() };
    loaded.set(lang, entry);
  }
  return entry;
}

const ids = new Map<string, string>();

/**
 * Identifies the extractor that produced a file's facts: the common extraction version,
 * the language's own extractor version and its grammar's version. A change to any of them
 * invalidates exactly the facts that extractor produced.
 */
export function extractorId(lang: ExtractionLanguage, extractionVersion: number): string {
  const key = `${lang}/${extractionVersion}`;
  let id = ids.get(key);
  if (id === undefined) {
    const one = (l: TreeSitterLanguage) => {
      const spec = SPECS[l];
      const version = (require(`${spec.grammar}/package.json`) as { version: string }).version;
      return `${l}:${spec.grammar}@${version}/${extractionVersion}.${spec.version}`;
    };
    if (lang === 'text') id = `text/${extractionVersion}`;
    // A file without extension may be read by either C grammar: both name it, and its id
    // differs from text's, so indexes made before the rule re-extract exactly these files.
    else if (lang === 'extensionless') id = `text/${extractionVersion}+${one('c')}+${one('cpp')}`;
    else if (lang === 'dreammaker') id = `dreammaker:scanner/${extractionVersion}.${DREAMMAKER_EXTRACTOR_VERSION}`;
    else {
      const also = ALSO_EXTRACTED_AS[lang];
      id = also ? `${one(lang)}+${one(also)}` : one(lang);
    }
    ids.set(key, id);
  }
  return id;
}
