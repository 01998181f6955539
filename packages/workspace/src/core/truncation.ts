// Why a search page's set is incomplete, in words an agent can act on: what stopped the
// search, how far it got, and how to narrow (docs/spec/retrieval.md §8: an incomplete
// search never claims that nothing more exists). One owner for the coverage line of a
// single root and for a workspace member's part of it.
import type { SearchOutcome, Truncation } from '@trufflepig/index';
import { MAX_HITS_PER_SET } from '@trufflepig/result-cache';

/** The search's own truncation, or the result set's cap on stored hits. */
export type SetTruncation = Truncation | { readonly by: 'set_cap' };

/** What made a saved search incomplete: the search first (it knows why), else the store's cap. */
export function setTruncation(
  outcome: Pick<SearchOutcome, 'truncation'>,
  savedTruncated: boolean,
): SetTruncation | undefined {
  return outcome.truncation ?? (savedTruncated ? { by: 'set_cap' } : undefined);
}

const NARROW = 'narrow with file: or lang:';

/** `truncated (...)`: the words after a coverage line's `;` (single root) or a member's name (workspace). */
export function truncationWords(t: SetTruncation): string {
  switch (t.by) {
    case 'regex_deadline':
    case 'regex_bytes':
    case 'regex_hits': {
      const why =
        t.by === 'regex_deadline' ? 'its time limit' : t.by === 'regex_bytes' ? 'its byte budget' : 'its hit cap';
      const every = t.prefiltered ? '' : '; the pattern fixes no three characters, so every file is a candidate';
      return `truncated (re: stopped at ${why} after ${t.scannedFiles} of ${t.candidateFiles} files, code first, in path order${every}; ${NARROW})`;
    }
    case 'lane_cap':
      // A ranked search keeps each lane's best files: what it left out ranks below them, so
      // there is nothing to act on and the word alone stays (a re: stop can hide any file).
      return 'truncated';
    case 'set_cap':
      return `truncated (the set keeps the first ${MAX_HITS_PER_SET} hits)`;
  }
}
