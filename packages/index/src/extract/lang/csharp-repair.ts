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
import { CSHARP_MASK, maskText } from '../mask';
import { CSHARP_DIRECTIVES, conditionals, lineStartsOf } from './conditionals';

/** Characters that may end a branch that holds whole members, statements or list items. */
const COMPLETE_ENDS = new Set([';', '}', ']', ',']);

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
  const masked = maskText(text, CSHARP_MASK);
  const { blocks, stray, unclosed } = conditionals(masked, lineStartsOf(masked), CSHARP_DIRECTIVES);
  const blanked = new Set([...stray, ...unclosed]);
  for (const b of blocks) for (const line of [...b.branches.map((br) => br.line), b.endif]) blanked.add(line);
  if (blanked.size === 0) return text;
  const lines = masked.split('\n');
  for (const b of blocks) {
    if (b.branches.length < 2 || !b.branches.some((br) => !isComplete(lines, br.line + 1, br.end))) continue;
    // Alternatives of one construct: the first branch stays, the others go.
    for (let k = b.branches[1].line; k < b.endif; k++) blanked.add(k);
  }
  const source = text.split('\n');
  return source.map((line, k) => (blanked.has(k) ? line.replace(/[^\r]/g, ' ') : line)).join('\n');
}
