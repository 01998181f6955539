import { FILENAME_ALL_TERMS, FILENAME_EXACT_STEM, FILENAME_PARTIAL, FILENAME_RUN_MAX_WORDS } from './limits';
import { basename, stem } from './paths';
import { identifierKey, isStopword, splitIdentifier } from './terms';

/** How a path names a query: its filename evidence, and (when there is some) pathNaming. */
export interface FilenameMatch {
  readonly evidence: number;
  readonly naming: { readonly base: number; readonly path: number };
}

/**
 * Filename evidence of a path for a query: 2 when the normalized stem equals the
 * normalized query, 1 when the basename holds every query word, 2 again when the stem
 * spells a run of consecutive query words written together (`didyoumean`), 0.5 when some
 * word appears in the path (a content word, when the query has one: `an` naming a path is
 * no evidence for "handle an interrupt"), else 0 (the first of these that holds).
 */
export function filenameEvidence(path: string, query: string, words: readonly string[]): number {
  return filenameScorer(query, words)(pathWordsOf(path))?.evidence ?? 0;
}

/**
 * The words of a path that filename scoring reads. A pure function of the path
 * (pathWordsOf), so a reader may remember it across queries and generations.
 */
export interface PathWords {
  /** identifierKey of the stored stem. */
  readonly stemKey: string;
  /** The decoded basename's words, joined by spaces. */
  readonly base: string;
  /** The decoded stem's words. */
  readonly stem: readonly string[];
  /** The decoded path's words. */
  readonly all: readonly string[];
}

export function pathWordsOf(path: string): PathWords {
  return {
    stemKey: identifierKey(stem(path)),
    base: splitIdentifier(decodeSafe(basename(path))).join(' '),
    stem: splitIdentifier(decodeSafe(stem(path))),
    all: splitIdentifier(decodeSafe(path)),
  };
}

/**
 * filenameEvidence and pathNaming of many paths for one query, each given by its words
 * (pathWordsOf, or a reader's memory of them: the filename lane scores thousands of paths
 * per search); what depends on the query is computed once. Undefined for a path with no
 * evidence.
 */
export function filenameScorer(query: string, words: readonly string[]): (pw: PathWords) => FilenameMatch | undefined {
  if (words.length === 0) return () => undefined;
  const normalizedQuery = identifierKey(query);
  const content = contentWords(words);
  const partial = filenameScreenWords(words);
  const runs = joinedRuns(words);
  return (pw) => {
    let evidence: number;
    if (normalizedQuery !== '' && pw.stemKey === normalizedQuery) evidence = FILENAME_EXACT_STEM;
    // A query word is one word (no spaces): inside the joined basename words is inside one of them.
    else if (words.every((w) => pw.base.includes(w))) evidence = FILENAME_ALL_TERMS;
    // A stem spelling consecutive query words run together: `didyoumean.go` for "... did you mean ...".
    else if (runs.has(pw.stemKey)) evidence = FILENAME_EXACT_STEM;
    else if (partial.some((w) => pw.all.includes(w))) evidence = FILENAME_PARTIAL;
    else return undefined;
    return { evidence, naming: naming(pw, content) };
  };
}

/**
 * The joinings of 2 to FILENAME_RUN_MAX_WORDS consecutive query words, at least one of them
 * not a stopword (`didyoumean`, `readme`, `filesystem` for "file system"): a file named by
 * a phrase of the query without separators, which splitIdentifier cannot split.
 */
function joinedRuns(words: readonly string[]): ReadonlySet<string> {
  const runs = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 2; j <= Math.min(words.length, i + FILENAME_RUN_MAX_WORDS); j++) {
      const run = words.slice(i, j);
      if (run.some((w) => !isStopword(w))) runs.add(identifierKey(run.join('_')));
    }
  }
  return runs;
}

function decodeSafe(encoded: string): string {
  // Stored paths are percent-encoded: one without a '%' is its own decoding.
  if (!encoded.includes('%')) return encoded;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/**
 * Words one of which a path must spell (as a substring of its lowered text) to have any
 * filename evidence for a query of `words`: its content words, or all of them when it has
 * none. Every rule of filenameScorer needs one: an exact or run-together stem and a
 * basename holding every word spell each of them, and partial evidence is a content word.
 * A reader screens its paths with them: a stopword (`a`) is inside nearly every path.
 */
export function filenameScreenWords(words: readonly string[]): readonly string[] {
  const content = contentWords(words);
  return content.length > 0 ? content : words;
}

/** The distinct non-stopword query words. */
function contentWords(words: readonly string[]): string[] {
  return [...new Set(words.filter((w) => !isStopword(w)))];
}

function naming(pw: PathWords, content: readonly string[]): { readonly base: number; readonly path: number } {
  return {
    base: content.filter((w) => pw.stem.includes(w)).length,
    path: content.filter((w) => pw.all.includes(w)).length,
  };
}

/**
 * How strongly a path names a query's words, to order files of equal filename evidence:
 * the distinct non-stopword query words among the words of its basename, then among the
 * words of its whole path (`node_modules/semver/classes/range.js` names `range` in its
 * basename for "a version inside a range"). Without it, equal evidence sorts by path
 * alone, and an early letter ranks a file higher.
 */
export function pathNaming(path: string, words: readonly string[]): { readonly base: number; readonly path: number } {
  return naming(pathWordsOf(path), contentWords(words));
}
