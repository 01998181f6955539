// Term handling shared by indexing and querying: identifiers are kept whole and also
// expanded into lowercase words so `refillTokens` is found by `refill tokens`.
import { PROSE_MIN_WORDS } from './limits';

/** Split an identifier into lowercase words: `refillTokens` → refill,tokens; `HTTPServer2` → http,server,2. */
export function splitIdentifier(name: string): string[] {
  // Paths and identifiers are nearly always ASCII, where a loop over char codes gives the
  // regular expressions' answer 5–10 times faster (test/terms.test.ts compares the two).
  return ASCII_ONLY.test(name) ? splitAscii(name) : splitUnicode(name);
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * splitUnicode for ASCII text: runs of letters and digits, cut into an uppercase run not
 * followed by a lowercase letter, an optional capital with the lowercase run after it, or
 * a digit run (`\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+`), each lowercased.
 */
export function splitAscii(name: string): string[] {
  const words: string[] = [];
  const n = name.length;
  let i = 0;
  while (i < n) {
    const c = name.charCodeAt(i);
    let end: number;
    if (isDigit(c)) {
      end = i + 1;
      while (end < n && isDigit(name.charCodeAt(end))) end++;
    } else if (isLower(c)) {
      end = i + 1;
      while (end < n && isLower(name.charCodeAt(end))) end++;
    } else if (isUpper(c)) {
      let run = i + 1;
      while (run < n && isUpper(name.charCodeAt(run))) run++;
      if (run < n && isLower(name.charCodeAt(run))) {
        // The last capital starts the lowercase word after it.
        if (run - 1 > i) end = run - 1;
        else {
          end = run + 1;
          while (end < n && isLower(name.charCodeAt(end))) end++;
        }
      } else end = run;
    } else {
      i++;
      continue;
    }
    words.push(name.slice(i, end).toLowerCase());
    i = end;
  }
  return words;
}

/** The general split: separators are what is neither letter, digit nor mark. */
export function splitUnicode(name: string): string[] {
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
 * Identifier-shaped (docs/spec/retrieval.md §2): has `_`, `::`, a lower→upper case change, or both
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

/**
 * Words too common to search alone (docs/spec/retrieval.md §4, Queries): English function words and
 * the keywords every language repeats. A part of `if-none-match` or `x-forwarded-for`
 * that is one of these (or a single character) never makes a file a hit on its own. The
 * question words an agent opens a question with are here too: `where` is also Rust's and
 * SQL's keyword, and `search where is the cooperative budget decremented` gave 7 of 17
 * hits whose only evidence was a `where` clause (an agent trial on tokio).
 */
const STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'do',
  'else',
  'for',
  'from',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'let',
  'no',
  'not',
  'of',
  'on',
  'or',
  'so',
  'that',
  'the',
  'then',
  'this',
  'to',
  'var',
  'was',
  'with',
  'does',
  'how',
  'what',
  'when',
  'where',
  'which',
  'who',
  'why',
]);

export function isStopword(word: string): boolean {
  return [...word].length < 2 || STOPWORDS.has(word);
}

/**
 * A word whose digits sit between letters (`http2client`, `base64url`, `oauth2token`): one
 * name to whoever typed it, split into three words by splitIdentifier.
 */
const LETTERS_DIGITS_LETTERS = /^[A-Za-z]+[0-9]+[A-Za-z][A-Za-z0-9]*$/;

/**
 * The words of a hyphenated or dotted token (`x-forwarded-for` → x,forwarded,for;
 * `os.path` → os,path), or null for any other token: such a token is searched as the
 * phrase it spells first, then as its parts.
 */
export function compoundWords(token: string): string[] | null {
  if (!/^[\p{L}\p{N}_$]+(?:[-.][\p{L}\p{N}_$]+)+$/u.test(token)) return null;
  const words = splitIdentifier(token);
  return words.length >= 2 ? words : null;
}

/**
 * The words of a compound identifier (`select_related` → select,related; `refillTokens` →
 * refill,tokens), or null for a plain word. Among other words of a free query, the files
 * spelling it rank higher (Django: `search select_related join` ranked first a file with
 * `related` and `select` apart and no `select_related`, an agent trial); alone it is an
 * identifier query, which has lanes of its own.
 */
export function identifierCompoundWords(token: string): string[] | null {
  if (!/^[A-Za-z_$][\w$]*$/.test(token) || !/[A-Za-z0-9]_[A-Za-z0-9]|[a-z][A-Z]/.test(token)) return null;
  const words = splitIdentifier(token);
  return words.length >= 2 ? words : null;
}

/**
 * The words of a token of a free query that is searched as the phrase it spells first
 * (phrase and spelled lanes), then as its parts: a hyphenated or dotted token, and among
 * other words one whose digits sit between letters (`http2client` → http,2,client). An
 * agent trial's `search GODEBUG http2client` showed `package http` as
 * net/http/transport.go's line: the parts `http`, `2`, `client` met in the file's first
 * region, and `godebug.Get("http2client")` was not on the page. Alone, such a word is an
 * identifier query with lanes of its own (a spelled lane there let substrings
 * `http2clientConnPool` outrank the file spelling it whole).
 *
 * In a sentence (isProse), a word joined by hyphens (`case-insensitive`, `single-character`)
 * is English, not a name: it is searched as its words. Spelled first, it outranked the
 * file the sentence's other words describe (docs/ranking.md, "hyphenated words of a
 * sentence").
 */
export function phraseWords(token: string, tokens: readonly string[]): string[] | null {
  const compound = compoundWords(token);
  if (compound) return HYPHENATED_WORD.test(token) && isProse(tokens) ? null : compound;
  if (tokens.length < 2 || !LETTERS_DIGITS_LETTERS.test(token)) return null;
  const words = splitIdentifier(token);
  return words.length >= 2 ? words : null;
}

/** Letters joined by hyphens: `case-insensitive`, `in-browser`, `x-forwarded-for`. */
const HYPHENATED_WORD = /^\p{L}+(?:-\p{L}+)+$/u;

/**
 * Whether a query's tokens are a sentence: besides its compound tokens (hyphenated or
 * dotted, `http2client`), at least PROSE_MIN_WORDS that hold a word other than a stopword.
 * `user-agent default` and `fetch-retries` are names asked for; `case-insensitive
 * matching using the simple case mappings of a codepoint` describes code.
 */
export function isProse(tokens: readonly string[]): boolean {
  let plain = 0;
  for (const token of tokens) {
    if (compoundWords(token) || LETTERS_DIGITS_LETTERS.test(token)) continue;
    if (splitIdentifier(token).some((w) => !isStopword(w))) plain++;
  }
  return plain >= PROSE_MIN_WORDS;
}

/**
 * Words of free text that may match on their own (the any-term lane): every word of a
 * plain token, but of a compound token only the parts that are not stopwords.
 */
export function standaloneWords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const tokens = text.split(/\s+/);
  for (const raw of tokens) {
    const compound = phraseWords(raw, tokens) !== null;
    for (const w of splitIdentifier(raw)) {
      if ((compound && isStopword(w)) || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}
