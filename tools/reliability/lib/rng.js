'use strict';
// A seeded pseudo-random generator (mulberry32): the same --seed replays the same attempts.

function makeRng(seed) {
  let state = Number(seed) >>> 0 || 1;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (items) => items[int(items.length)];
  const chance = (p) => next() < p;
  const between = (lo, hi) => lo + next() * (hi - lo);
  const letters = (n, alphabet = 'abcdefghijklmnopqrstuvwxyz') => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[int(alphabet.length)];
    return s;
  };
  const shuffle = (items) => {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  /** An independent generator for one experiment, so adding attempts to one leaves the others unchanged. */
  const fork = (label) => {
    let h = state ^ 0x9e3779b9;
    for (const ch of String(label)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    return makeRng(h);
  };
  return { next, int, pick, chance, between, letters, shuffle, fork };
}

module.exports = { makeRng };
