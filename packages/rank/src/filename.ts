import { FILENAME_ALL_TERMS, FILENAME_EXACT_STEM, FILENAME_PARTIAL } from './limits';
import { basename, stem } from './paths';
import { identifierKey, splitIdentifier } from './terms';

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
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
