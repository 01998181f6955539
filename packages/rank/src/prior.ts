import { PATH_PRIOR_DEMOTION } from './limits';
import {
  basename,
  isDocPath,
  isExamplePath,
  isGeneratedPath,
  isSecondaryDocument,
  isTestDirectoryComponent,
  isTestPath,
  looksMinified,
} from './paths';

const TEST_WORDS = new Set(['test', 'tests', 'testing', 'spec', 'fixture']);
const DOC_WORDS = new Set(['doc', 'docs', 'documentation', 'readme', 'markdown', 'md', 'agents', 'claude', 'guide']);
const EXAMPLE_WORDS = new Set(['example', 'examples', 'demo', 'demos', 'sample', 'samples', 'usage']);
const GENERATED_WORDS = new Set([
  'dist',
  'min',
  'minified',
  'bundle',
  'bundled',
  'map',
  'sourcemap',
  'generated',
  'build',
]);

export interface PriorQuery {
  /** Lowercase query words. */
  readonly words: readonly string[];
  /** `file:` values (percent-encoded). */
  readonly fileFilters: readonly string[];
  /** `lang:` values, canonical names. */
  readonly languages: readonly string[];
  /** `kind:file` was requested. */
  readonly kindFile: boolean;
  /** The query is a single identifier-shaped token. */
  readonly identifier: boolean;
}

export interface PriorContext {
  readonly demoteTests: boolean;
  readonly demoteDocs: boolean;
  readonly demoteGenerated: boolean;
  readonly demoteExamples: boolean;
  readonly kindFile: boolean;
  readonly identifier: boolean;
  readonly words: readonly string[];
}

/** Decide once per query which path classes the prior demotes (docs/spec/retrieval.md §2). */
export function priorContext(q: PriorQuery): PriorContext {
  const namesTests =
    q.words.some((w) => TEST_WORDS.has(w)) ||
    q.fileFilters.some((f) => f.split('/').some((c) => c !== '' && isTestDirectoryComponent(c)));
  const namesDocs =
    q.words.some((w) => DOC_WORDS.has(w)) ||
    q.languages.includes('text') ||
    q.fileFilters.some((f) => isDocPath(f) || f.split('/').includes('docs') || f === 'docs');
  const namesGenerated =
    q.words.some((w) => GENERATED_WORDS.has(w)) ||
    q.fileFilters.some((f) => isGeneratedPath(`${f.replace(/\/+$/, '')}/x`) || isGeneratedPath(f));
  const namesExamples =
    q.words.some((w) => EXAMPLE_WORDS.has(w)) || q.fileFilters.some((f) => isExamplePath(`${f.replace(/\/+$/, '')}/x`));
  return {
    demoteTests: !namesTests && !q.kindFile,
    demoteDocs: !namesDocs && !q.kindFile,
    demoteGenerated: !namesGenerated && !q.kindFile,
    demoteExamples: !namesExamples && !q.kindFile,
    kindFile: q.kindFile,
    identifier: q.identifier,
    words: q.words,
  };
}

/** What a path is, whatever the query: the classes the prior may demote. */
interface PathClasses {
  /** Build output: a generated path, or (for an indexed file) one that looks minified. */
  readonly generated: boolean;
  readonly test: boolean;
  readonly example: boolean;
  readonly secondaryDocument: boolean;
}

function pathClasses(path: string, minified: boolean): PathClasses {
  return {
    generated: minified || isGeneratedPath(path),
    test: isTestPath(path),
    example: isExamplePath(path),
    secondaryDocument: isSecondaryDocument(path),
  };
}

/**
 * Classes by file row: a search asks for the prior of every file its lanes hold (thousands
 * on the kernel, a tenth of a served identifier search), and a reader's rows live as long
 * as it does.
 */
const classesByFile = new WeakMap<object, PathClasses>();

/**
 * pathPrior of an indexed file: one that looks minified is build output whatever its name
 * (as fileStanding has it), demoted unless the query asks for build output.
 */
export function filePrior(
  file: { readonly path: string; readonly size: number; readonly lines: number },
  ctx: PriorContext,
): number {
  let classes = classesByFile.get(file);
  if (classes === undefined) {
    classes = pathClasses(file.path, looksMinified(file.size, file.lines));
    classesByFile.set(file, classes);
  }
  return priorOf(file.path, classes, ctx);
}

/** Multiplier for every lane contribution of `path`. */
export function pathPrior(path: string, ctx: PriorContext): number {
  return priorOf(path, pathClasses(path, false), ctx);
}

function priorOf(path: string, classes: PathClasses, ctx: PriorContext): number {
  // Build output repeats its sources: demoted even when its name holds every query word.
  if (ctx.demoteGenerated && classes.generated) return PATH_PRIOR_DEMOTION;
  // An example program shows a library in use, not the library: it stands with tests.
  const test = (ctx.demoteTests && classes.test) || (ctx.demoteExamples && classes.example);
  // Markdown and its renderings, the project documents (a ChangeLog answers no question about
  // the code).
  const doc = ctx.demoteDocs && classes.secondaryDocument;
  if (!test && !doc) return 1;
  if (!ctx.identifier && ctx.words.length > 0) {
    const base = basename(path).toLowerCase();
    if (ctx.words.every((w) => base.includes(w))) return 1;
  }
  return PATH_PRIOR_DEMOTION;
}
