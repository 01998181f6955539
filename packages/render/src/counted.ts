// Counts in output text read as English: `1 hit`, `2 hits`.

/** `n noun`, with an `s` unless n is 1 (regular nouns only: hit, file, site, line, change). */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
