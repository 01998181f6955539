import { randomBytes } from 'node:crypto';

// A set id is 32 lowercase hex chars: 12 hex of creation time in ms (good until the year
// 10889) followed by 20 hex (80 bits) from crypto. Encoding the time lets a set that is
// already gone be classified as expired without any record of it, and makes ids sort
// by age, which eviction uses.

const TIME_HEX = 12;
const RANDOM_BYTES = 10;
const SET_ID_PATTERN = /^[0-9a-f]{32}$/;

export function newSetId(createdAtMs: number): string {
  const ms = Math.max(0, Math.floor(createdAtMs));
  const time = ms.toString(16).padStart(TIME_HEX, '0').slice(-TIME_HEX);
  return time + randomBytes(RANDOM_BYTES).toString('hex');
}

/** Lowercases a candidate id; null when it is not 32 hex chars. Uppercase is accepted. */
export function normalizeSetId(candidate: string): string | null {
  const lower = candidate.toLowerCase();
  return SET_ID_PATTERN.test(lower) ? lower : null;
}

/** Creation time in ms encoded in a (normalized) set id. */
export function setIdCreatedAt(setId: string): number {
  return parseInt(setId.slice(0, TIME_HEX), 16);
}
