// How many parameters a method's head declares and how many arguments a call passes, read
// from text: enough to tell overloads of one name apart by arity (`plus(TemporalAmount)` from
// `plus(long, TemporalUnit)`), which ctx's overrides and callers need. Pure.

/**
 * The parameters of the list that opens `afterName` (type arguments first allowed), by
 * top-level commas; undefined when there is none, or when a default (`=`) or a variable list
 * (`...`, `*args`, `params`) makes the count flexible.
 */
export function parameterCount(afterName: string): number | undefined {
  const open = /^\s*(?:<[^()]*>\s*)?\(/.exec(afterName);
  if (!open) return undefined;
  let depth = 0;
  let commas = 0;
  let any = false;
  for (let i = open[0].length; i < afterName.length; i++) {
    const c = afterName[i];
    if (c === ')' && depth === 0) {
      const list = afterName.slice(open[0].length, i);
      // Python's `*args` and `**kw` open a parameter; C++'s `char *s` follows a type.
      if (/=|\.\.\.|(?:^|,)\s*\*|\bparams\b/.test(list)) return undefined;
      return any ? commas + 1 : 0;
    }
    if (c === '(' || c === '<' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}' || (c === '>' && afterName[i - 1] !== '-' && afterName[i - 1] !== '='))
      depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) commas++;
    else if (!/\s/.test(c)) any = true;
  }
  return undefined;
}

/**
 * The arguments of the call whose list opens `afterName`, by top-level commas (string and
 * character literals skipped); undefined when there is no list, when it does not close within
 * the text, or when it holds a `<` (a comparison or type arguments: a comma inside
 * `new HashMap<K, V>()` is no separator, one after `a < b` is).
 */
export function argumentCount(afterName: string): number | undefined {
  const open = /^\s*\(/.exec(afterName);
  if (!open) return undefined;
  let depth = 0;
  let commas = 0;
  let any = false;
  for (let i = open[0].length; i < afterName.length; i++) {
    const c = afterName[i];
    if (c === '"' || c === "'") {
      const close = literalEnd(afterName, i);
      if (close === undefined) return undefined;
      i = close;
      any = true;
    } else if (c === '<') return undefined;
    else if (c === ')' && depth === 0) return any ? commas + 1 : 0;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
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
