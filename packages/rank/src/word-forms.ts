// Word forms of query words: a plain-words question says `lookups`, `salts`, `nested`
// where the code says `lookup`, `gen_salt`, `nest_limit`. The Porter2 (Snowball English)
// stemmer of a maintained library gives each word's stem, and the stem is searched as a
// prefix of the index's terms, so `nest*` meets `nested`, `nesting` and `nest`, without
// stemming the index (docs/ranking.md: stems stored in the index were tried and not kept).
import porter2 from 'wink-porter2-stemmer';
import { STEM_PREFIX_MIN_CHARS, STEM_WORD_MAX_CHARS } from './limits';
import { isStopword } from './terms';

/** One term of an FTS expression: a word, or a stem searched as a prefix (`nest*`). */
export interface FtsTerm {
  readonly text: string;
  readonly prefix: boolean;
}

/**
 * The stem of a query word to search as a prefix, or null: only ASCII words of at most
 * STEM_WORD_MAX_CHARS letters (the stemmer's own alphabet; an overlong word or another
 * script is left as typed), never a stopword, and only a stem of at least
 * STEM_PREFIX_MIN_CHARS letters that differs from the word (a short prefix such as `use*`
 * would meet every `user` and `useful`).
 */
export function stemPrefix(word: string): string | null {
  if (word.length > STEM_WORD_MAX_CHARS || !/^[a-z]+$/.test(word) || isStopword(word)) return null;
  const stem = porter2(word);
  return stem !== word && stem.length >= STEM_PREFIX_MIN_CHARS && /^[a-z]+$/.test(stem) ? stem : null;
}

/**
 * The FTS terms that stand for one query word: the word as typed, and its stem as a prefix
 * when the stemmer gives one (`lookups` → `"lookups"`, `lookup*`). The word keeps its own
 * term although the prefix also matches it: a region that spells the word as asked then
 * scores above one holding only another of its forms. On the concept replay the prefix
 * alone lost 0.02 of MRR and 2 workspace pairs against the word and prefix together
 * (docs/ranking.md).
 */
export function wordFormTerms(word: string): FtsTerm[] {
  const stem = stemPrefix(word);
  const typed = { text: word, prefix: false };
  return stem === null ? [typed] : [typed, { text: stem, prefix: true }];
}
