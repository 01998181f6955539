// tree-sitter-c-sharp 0.23.5 reads `#if` … `#endif` only where a whole statement or member
// may stand. Real C# puts conditionals anywhere a build-specific word goes: between the
// items of a base list (`class JToken : IJEnumerable<JToken>⏎#if !PORTABLE⏎ , ICloneable⏎
// #endif`), before the `else` of an if chain, between switch sections, and around one of
// two heads that share a body (`#if CORE⏎ protected Base()⏎#else⏎ [SetUp] protected void
// Setup()⏎#endif⏎ {`). On newtonsoft-json 6.0.8, 30 of 541 files were partial: `JToken`'s
// class ended at its base list, its methods lost their owner (`show sym:JToken::FromObject`
// found nothing) and statements became definitions (`function ParseString::if`).
// A file whose parse has errors is rewritten at the same length, as a preprocessor would
// read it with every condition open: the directive lines are blanked and each branch's code
// stays, except where the branches are alternatives of one construct (a branch that leaves
// a brace or parenthesis open, or ends in the middle of a head); there the first branch is
// kept and the others blanked. The caller keeps the rewrite only if it has fewer errors.
import type Parser from 'tree-sitter';

/** A conditional directive at the start of a line of code (strings and comments masked). */
const DIRECTIVE = /^[ \t]*#[ \t]*(if|elif|else|endif)\b/;

/** Characters that may end a branch that holds whole members, statements or list items. */
const COMPLETE_ENDS = new Set([';', '}', ']', ',']);

interface Conditional {
  /** Line index of each branch's directive (`#if`, `#elif`, `#else`), then of `#endif`. */
  readonly directives: number[];
  closed: boolean;
}

/**
 * The text with comments, string and character literals' contents replaced by spaces
 * (newlines kept), so that a brace or `#` inside them is no code.
 */
export function maskCsharpCode(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      let j = i;
      while (j < n && text[j] !== '\n') j++;
      blank(i, j);
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const j = close < 0 ? n : close + 2;
      blank(i, j);
      i = j;
    } else if (c === '"' && text.startsWith('"""', i)) {
      // A raw string literal: it ends at the same run of quotes it opened with.
      let q = i;
      while (text[q] === '"') q++;
      const quotes = text.slice(i, q);
      const close = text.indexOf(quotes, q);
      const j = close < 0 ? n : close + quotes.length;
      blank(i + 1, j - 1);
      i = j;
    } else if (c === '"') {
      // `@"…"` and `$@"…"` are verbatim: `""` escapes a quote and newlines belong to them.
      let p = i - 1;
      while (p >= 0 && (text[p] === '$' || text[p] === '@')) p--;
      const verbatim = text.slice(p + 1, i).includes('@');
      let j = i + 1;
      while (j < n) {
        if (verbatim && text[j] === '"' && text[j + 1] === '"') j += 2;
        else if (text[j] === '"') break;
        else if (!verbatim && text[j] === '\\') j += 2;
        else if (!verbatim && text[j] === '\n') break;
        else j++;
      }
      blank(i + 1, Math.min(j, n));
      i = j + 1;
    } else if (c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== "'" && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, Math.min(j, n));
      i = j + 1;
    } else i++;
  }
  return out.join('');
}

/** Whether the lines [from, to) of masked code hold balanced braces and parentheses and end where an item may. */
function isComplete(lines: readonly string[], from: number, to: number): boolean {
  let braces = 0;
  let parens = 0;
  let last = '';
  for (let k = from; k < to; k++) {
    for (const ch of lines[k]) {
      if (ch === '{') braces++;
      else if (ch === '}') braces--;
      else if (ch === '(') parens++;
      else if (ch === ')') parens--;
    }
    const code = lines[k].trim();
    // A nested directive line or a `#region` is no item's end.
    if (code !== '' && !code.startsWith('#')) last = code;
  }
  return braces === 0 && parens === 0 && (last === '' || COMPLETE_ENDS.has(last[last.length - 1]));
}

/**
 * Same-length rewrite of C# source whose preprocessor conditionals the grammar cannot
 * parse (see the head of this file). Returns `text` itself when it has no conditional.
 */
export function repairCsharp(text: string, _tree?: Parser.Tree): string {
  const masked = maskCsharpCode(text);
  const lines = masked.split('\n');
  const open: Conditional[] = [];
  const all: Conditional[] = [];
  const directiveLines = new Set<number>();
  for (let k = 0; k < lines.length; k++) {
    const m = DIRECTIVE.exec(lines[k]);
    if (!m) continue;
    directiveLines.add(k);
    if (m[1] === 'if') {
      const c: Conditional = { directives: [k], closed: false };
      open.push(c);
      all.push(c);
    } else if (m[1] === 'endif') {
      const c = open.pop();
      if (c) {
        c.directives.push(k);
        c.closed = true;
      }
    } else open[open.length - 1]?.directives.push(k);
  }
  if (directiveLines.size === 0) return text;
  const blanked = new Set(directiveLines);
  for (const c of all) {
    // Branches k = 0 … b-1 run from directives[k] + 1 to directives[k + 1].
    const branches = c.closed ? c.directives.length - 1 : c.directives.length;
    if (branches < 2 || !c.closed) continue;
    let alternatives = false;
    for (let b = 0; b < branches && !alternatives; b++)
      alternatives = !isComplete(lines, c.directives[b] + 1, c.directives[b + 1]);
    if (!alternatives) continue;
    for (let k = c.directives[1]; k < c.directives[branches]; k++) blanked.add(k);
  }
  const source = text.split('\n');
  return source.map((line, k) => (blanked.has(k) ? line.replace(/[^\r]/g, ' ') : line)).join('\n');
}
