// Term handling shared by indexing and querying: identifiers are kept whole and also
// expanded into lowercase words so `refillTokens` is found by `refill tokens`.

/** Split an identifier into lowercase words: `refillTokens` → refill,tokens; `HTTPServer2` → http,server,2. */
export function splitIdentifier(name: string): string[] {
  const words: string[] = [];
  for (const chunk of name.split(/[^\p{L}\p{N}\p{M}]+/u)) {
    if (!chunk) continue;
    const pieces = chunk.match(/\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{N}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+/gu);
    if (!pieces) continue;
    for (const piece of pieces) words.push(piece.toLowerCase());
  }
  return words;
}

/**
 * Identifier-shaped (retrieval.md §2): has `_`, `::`, a lower→upper case change, or both
 * letters and digits.
 */
export function isIdentifierShaped(token: string): boolean {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*(::[A-Za-z_$][A-Za-z0-9_$]*)*$/.test(token)) return false;
  if (token.includes('_') || token.includes('::')) return true;
  if (/[a-z][A-Z]/.test(token)) return true;
  return /[A-Za-z]/.test(token) && /[0-9]/.test(token);
}

/** Lowercase search words of free text: identifiers expanded, punctuation dropped, deduplicated in order. */
export function queryWords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(/\s+/)) {
    for (const w of splitIdentifier(raw)) {
      if (!seen.has(w)) {
        seen.add(w);
        out.push(w);
      }
    }
  }
  return out;
}

/** The normalized key of an identifier: its words joined (`TokenBucket`, `token_bucket` → tokenbucket). */
export function identifierKey(name: string): string {
  return splitIdentifier(name).join('');
}
