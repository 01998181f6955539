// Field keys of Rust struct expressions and Go composite literals: the type a literal names
// owns the field its key spells. Pure text reading over a file's bytes (no parse): the
// scan stops at the brace that opens the literal, or gives up at anything else.

/** Bytes read backwards from a key to the brace that opens its literal, at most. */
const LITERAL_SCAN_MAX_BYTES = 4096;

/** Words before a `{` that open a block, a declaration or a type, not a literal. */
const NOT_A_LITERAL: Readonly<Record<'rust' | 'go', ReadonlySet<string>>> = {
  rust: new Set([
    'struct',
    'enum',
    'union',
    'impl',
    'trait',
    'mod',
    'for',
    'fn',
    'if',
    'else',
    'match',
    'loop',
    'while',
    'unsafe',
    'async',
    'move',
    'where',
    'in',
    'Self',
    'dyn',
    'extern',
  ]),
  go: new Set(['struct', 'interface', 'func', 'if', 'else', 'for', 'switch', 'select', 'go', 'defer', 'range']),
};

/**
 * The type a field key at `start` (`idle_timeout` in `pool::Config { idle_timeout: x, … }`,
 * `IdleTimeout` in `pool.Config{IdleTimeout: x}`) is a field of: the last segment of the
 * path before the brace that opens the literal (`Config`), or undefined when the name is no
 * key of a literal that names its type. `refs Config::idle_timeout` had dropped hyper's
 * `Builder::default`'s `idle_timeout: Some(Duration::from_secs(90))`, the default itself,
 * and still said it was complete (a Rust trial).
 */
export function literalKeyType(bytes: Uint8Array, start: number, end: number, lang: string): string | undefined {
  if (lang !== 'rust' && lang !== 'go') return undefined;
  if (!isKey(bytes, end, lang)) return undefined;
  let depth = 0;
  const floor = Math.max(0, start - LITERAL_SCAN_MAX_BYTES);
  for (let i = start - 1; i >= floor; i--) {
    const c = bytes[i];
    if (c === 0x29 || c === 0x5d || c === 0x7d)
      depth++; // ) ] }
    else if (c === 0x28 || c === 0x5b || c === 0x7b) {
      // ( [ {
      if (depth > 0) {
        depth--;
        continue;
      }
      return c === 0x7b ? literalType(bytes, i, lang) : undefined;
    } else if (c === 0x3b && depth === 0) return undefined; // `;`: a statement, no literal holds it
  }
  return undefined;
}

/** After the name: `:` (not `::`) or, Rust's shorthand `Config { idle_timeout }`, `,` or `}`. */
function isKey(bytes: Uint8Array, end: number, lang: string): boolean {
  let i = end;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09)) i++;
  if (bytes[i] === 0x3a) return bytes[i + 1] !== 0x3a && (lang === 'go' || bytes[i + 1] !== 0x3d);
  return lang === 'rust' && (bytes[i] === 0x2c || bytes[i] === 0x7d);
}

/** The type named before the literal's brace at `brace`: `pool::Config {`, `Config::<T> {`, `pool.Config{`. */
function literalType(bytes: Uint8Array, brace: number, lang: 'rust' | 'go'): string | undefined {
  const head = Buffer.from(bytes.subarray(Math.max(0, brace - 200), brace)).toString('utf8');
  const m = /(?:^|[^\w.:])((?:[A-Za-z_]\w*(?:::|\.))*([A-Za-z_]\w*))\s*(?:::)?\s*(?:<[^<>{};]*>)?\s*$/.exec(head);
  if (!m) return undefined;
  const type = m[2];
  if (NOT_A_LITERAL[lang].has(type)) return undefined;
  // The word before the path (`impl Config {`, `struct Config {`, `for x in items {`) opens no literal.
  const pathStart = head.length - m[0].length + m[0].indexOf(m[1]);
  const preceding = /([A-Za-z_]\w*)\s*$/.exec(head.slice(0, pathStart));
  if (preceding && NOT_A_LITERAL[lang].has(preceding[1])) return undefined;
  // Rust types are capitalized; a lowercase word before `{` is an expression's block (`x {`).
  if (lang === 'rust' && !/^[A-Z]/.test(type)) return undefined;
  return type;
}
