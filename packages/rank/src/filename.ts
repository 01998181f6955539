import { FILENAME_ALL_TERMS, FILENAME_EXACT_STEM, FILENAME_PARTIAL } from './limits';
import { basename, stem } from './paths';
import { identifierKey, isStopword, splitIdentifier } from './terms';

/**
 * Filename evidence of a path for a query: 2 when the normalized stem equals the
 * normalized query, 1 when the basename holds every query word, 0.5 when some word
 * appears in the path, else 0.
 */
export function filenameEvidence(path: string, query: string, words: readonly string[]): number {
  if (words.length === 0) return 0;
  const normalizedQuery = identifierKey(query);
  if (normalizedQuery !== '' && identifierKey(stem(path)) === normalizedQuery) return FILENAME_EXACT_STEM;
  const baseWords = splitIdentifier(decodeSafe(basename(path)));
  const base = baseWords.join(' ');
  if (words.every((w) => baseWords.includes(w) || base.includes(w))) return FILENAME_ALL_TERMS;
  const pathWords = new Set(splitIdentifier(decodeSafe(path)));
  if (words.some((w) => pathWords.has(w))) return FILENAME_PARTIAL;
  return 0;
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
 * How strongly a path names a query's words, to order files of equal filename evidence:
 * the distinct non-stopword query words among the words of its basename, then among the
 * words of its whole path (`node_modules/semver/classes/range.js` names `range` in its
 * basename for "a version inside a range"). Without it, equal evidence sorts by path
 * alone, and an early letter ranks a file higher.
 */
export function pathNaming(path: string, words: readonly string[]): { readonly base: number; readonly path: number } {
  const content = [...new Set(words.filter((w) => !isStopword(w)))];
  const baseWords = new Set(splitIdentifier(decodeSafe(stem(path))));
  const pathWords = new Set(splitIdentifier(decodeSafe(path)));
  return {
    base: content.filter((w) => baseWords.has(w)).length,
    path: content.filter((w) => pathWords.has(w)).length,
  };
}
