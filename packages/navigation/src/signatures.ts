// How many parameters a method's head declares and how many arguments a call passes, read
// from text: enough to tell overloads of one name apart by arity (`plus(TemporalAmount)` from
// `plus(long, TemporalUnit)`), which ctx's overrides and callers need. Pure.

/** How far past a name its parameter or argument list is read. */
const SIGNATURE_TEXT_MAX_CHARS = 2000;

/** The text of `bytes` from `from`, as far as a parameter or argument list is read. */
export function textAfter(bytes: Uint8Array, from: number): string {
  return Buffer.from(bytes.subarray(from, Math.min(bytes.length, from + SIGNATURE_TEXT_MAX_CHARS))).toString('utf8');
}

/**
 * The parameters of the list that opens `afterName` (type arguments first allowed), by
 * top-level commas; undefined when there is none, or when a default (`=`) or a variable list
 * (`...`, `*args`, `params`) makes the count flexible.
 */
export function parameterCount(afterName: string): number | undefined {
  const list = topLevelList(afterName, /^\s*(?:<[^()]*>\s*)?\(/, 'nest');
  // Python's `*args` and `**kw` open a parameter; C++'s `char *s` follows a type.
  return list === undefined || /=|\.\.\.|(?:^|,)\s*\*|\bparams\b/.test(list.text) ? undefined : list.count;
}

/**
 * The arguments of the call whose list opens `afterName`, by top-level commas (string and
 * character literals skipped); undefined when there is no list, when it does not close within
 * the text, or when it holds a `<` (a comparison or type arguments: a comma inside
 * `new HashMap<K, V>()` is no separator, one after `a < b` is).
 */
export function argumentCount(afterName: string): number | undefined {
  return topLevelList(afterName, /^\s*\(/, 'refuse')?.count;
}

/**
 * The parenthesised list `open` matches at the start of `text`: its top-level items and its
 * text. Angle brackets nest (`Map<K, V> m`: a parameter list, where `'` may be a Rust
 * lifetime) or make it unreadable (an argument list, whose string and character literals are
 * skipped whole).
 */
function topLevelList(
  text: string,
  open: RegExp,
  angles: 'nest' | 'refuse',
): { readonly count: number; readonly text: string } | undefined {
  const head = open.exec(text);
  if (!head) return undefined;
  let depth = 0;
  let commas = 0;
  let any = false;
  for (let i = head[0].length; i < text.length; i++) {
    const c = text[i];
    if (c === ')' && depth === 0) return { count: any ? commas + 1 : 0, text: text.slice(head[0].length, i) };
    if (angles === 'refuse' && (c === '"' || c === "'")) {
      const close = literalEnd(text, i);
      if (close === undefined) return undefined;
      i = close;
      any = true;
    } else if (c === '<' && angles === 'refuse') return undefined;
    else if (c === '(' || c === '<' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}' || (c === '>' && text[i - 1] !== '-' && text[i - 1] !== '='))
      depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) commas++;
    else if (!/\s/.test(c)) any = true;
  }
  return undefined;
}

/** Where the string or character literal opened at `at` closes, backslash escapes skipped. */
function literalEnd(text: string, at: number): number | undefined {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === text[at]) return i;
  }
  return undefined;
}
