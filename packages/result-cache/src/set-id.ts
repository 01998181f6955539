import { randomInt } from 'node:crypto';
import { SET_ID_MAX_CHARS, SET_ID_MIN_CHARS } from './limits';

// A set id is SET_ID_MIN_CHARS or more characters of [0-9a-z]: short, so a handle costs an
// agent few tokens, and unique because every id is reserved in its store directory before
// use (directory.ts); only a run of collisions makes ids longer. The id carries no time: a
// set's age is kept in its file and in its reservation.
//
// Ids are drawn as consonant-vowel-consonant syllables (`kotbil`), not uniform base 36:
// the o200k tokenizer splits a uniform 6-character id into about 4.0 tokens and a
// syllable id into about 2.7, and every handle, cursor and `next:` line prints one
// (measured over 300 draws each, README). Two syllables still give 2.1 million
// ids per length, and a collision only means another draw (directory.ts).

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const CONSONANTS = 'bcdfghjklmnprstvz';
const VOWELS = 'aeiou';
const SET_ID_PATTERN = new RegExp(`^[0-9a-z]{${SET_ID_MIN_CHARS},${SET_ID_MAX_CHARS}}$`);
/** Ids issued before short handles: 32 hex characters (time + random). */
const LEGACY_SET_ID_PATTERN = /^[0-9a-f]{32}$/i;

/**
 * A random candidate id of `length` characters (not yet reserved): whole
 * consonant-vowel-consonant syllables, then uniform [0-9a-z] characters for a length that
 * is not a multiple of 3.
 */
export function randomSetId(length: number): string {
  let id = '';
  const pick = (letters: string) => letters[randomInt(letters.length)];
  while (id.length + 3 <= length) id += pick(CONSONANTS) + pick(VOWELS) + pick(CONSONANTS);
  while (id.length < length) id += pick(ALPHABET);
  return id;
}

/**
 * A draw that keeps the cheapest of `candidates` draws by `cost` (the first on ties):
 * with the tokenizer as cost, a handle usually costs 2 tokens instead of 3.
 */
export function cheapestDraw(
  draw: (length: number) => string,
  cost: (id: string) => number,
  candidates: number,
): (length: number) => string {
  return (length) => {
    let best = draw(length);
    let bestCost = cost(best);
    for (let i = 1; i < candidates; i++) {
      const next = draw(length);
      const c = cost(next);
      if (c < bestCost) [best, bestCost] = [next, c];
    }
    return best;
  };
}

/** Lowercases a candidate id; null when it is not 6-16 characters of [0-9a-z]. */
export function normalizeSetId(candidate: string): string | null {
  const lower = candidate.toLowerCase();
  return SET_ID_PATTERN.test(lower) ? lower : null;
}

/** Whether a candidate is a set id of the old 32-hex form, which is no longer issued. */
export function isLegacySetId(candidate: string): boolean {
  return LEGACY_SET_ID_PATTERN.test(candidate);
}
