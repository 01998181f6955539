import { randomInt } from 'node:crypto';
import { SET_ID_MAX_CHARS, SET_ID_MIN_CHARS } from './limits';

// A set id is SET_ID_MIN_CHARS or more random base-36 characters ([0-9a-z]): short, so a
// handle costs an agent few tokens, and unique because every id is reserved in its store
// directory before use (directory.ts); only a run of collisions makes ids longer. The id
// carries no time: a set's age is kept in its file and in its reservation.

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const SET_ID_PATTERN = new RegExp(`^[0-9a-z]{${SET_ID_MIN_CHARS},${SET_ID_MAX_CHARS}}$`);
/** Ids issued before short handles: 32 hex characters (time + random). */
const LEGACY_SET_ID_PATTERN = /^[0-9a-f]{32}$/i;

/** A uniformly random candidate id of `length` characters (not yet reserved). */
export function randomSetId(length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
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
