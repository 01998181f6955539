/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
