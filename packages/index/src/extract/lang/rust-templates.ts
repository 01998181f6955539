// Definitions inside `macro_rules!` templates. A rule's right-hand side is not Rust until
// it is expanded (`$name` stands where a name or a type will be), so the grammar leaves it
// a token tree and the query never sees a `struct_item` there. Crates still write real
// items in templates: regex 1.7.1 defines `pub struct RegexBuilder` and its `impl` inside
// `define_builder!`, and without this `sym:RegexBuilder` found no definition. Items are
// recognised from the token sequence; a name that is a metavariable is no definition.
import { MACRO_TEMPLATE_NESTING_MAX } from '../../limits';
import type { Node, TemplateFacts } from '../spec';

interface Leaf {
  readonly kind: 'leaf';
  readonly type: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}
/** A delimited group: `{…}`, `(…)`, `[…]`, or a repetition `$(…)*` (its contents only). */
interface Group {
  readonly kind: 'group';
  readonly open: string;
  readonly tokens: readonly Token[];
  readonly start: number;
  readonly end: number;
}
/** A template token in text units of its parse; comments are dropped. */
type Token = Leaf | Group;

const TRIVIA = new Set(['line_comment', 'block_comment']);

/** The template tokens of a token tree or repetition; groups past MACRO_TEMPLATE_NESTING_MAX are left empty. */
function groupOf(node: Node, depth: number): Group {
  const children = node.children;
  let from = 1;
  let to = children.length - 1;
  let open = children[0]?.type ?? '';
  if (node.type === 'token_repetition') {
    // `$` `(` contents `)` then an optional separator and the operator.
    open = '$(';
    from = 2;
    while (to > from && children[to].type !== ')') to--;
  }
  const tokens: Token[] = [];
  if (depth < MACRO_TEMPLATE_NESTING_MAX) {
    for (let i = from; i < to; i++) {
      const c = children[i];
      if (TRIVIA.has(c.type)) continue;
      if (c.type === 'token_tree' || c.type === 'token_repetition') tokens.push(groupOf(c, depth + 1));
      else tokens.push({ kind: 'leaf', type: c.type, text: c.text, start: c.startIndex, end: c.endIndex });
    }
  }
  return { kind: 'group', open, tokens, start: node.startIndex, end: node.endIndex };
}

/** Item keywords and the kind each records (`union` as the grammar's `union_item`: a struct). */
const ITEM_KINDS: ReadonlyMap<string, string> = new Map([
  ['struct', 'struct'],
  ['union', 'struct'],
  ['enum', 'enum'],
  ['trait', 'trait'],
  ['fn', 'function'],
  ['type', 'type'],
  ['const', 'constant'],
  ['static', 'variable'],
  ['mod', 'module'],
]);
/** Items whose value or type may hold brace groups (`const D: P = P { x: 1 };`): they end at `;` only. */
const SEMICOLON_ENDED = new Set(['const', 'static', 'type']);
/** Words between an item's start and its keyword: `pub(crate) const unsafe extern "C" fn`, `auto trait`. */
const QUALIFIERS = new Set(['pub', 'unsafe', 'async', 'const', 'default', 'extern', 'auto', 'safe']);
/** Contextual keywords the grammar tokenizes as keywords that are still valid names (`fn default()`). */
const CONTEXTUAL_NAMES = new Set(['default', 'union', 'gen', 'auto', 'safe', 'raw', 'macro_rules']);

function leafIs(t: Token | undefined, text: string): boolean {
  return t?.kind === 'leaf' && t.text === text;
}

/** A keyword or plain word (never a metavariable, literal or punctuation). */
function wordOf(t: Token | undefined): string | undefined {
  return t?.kind === 'leaf' && (t.type === 'identifier' || t.type === t.text) ? t.text : undefined;
}

function isName(t: Token | undefined): t is Leaf {
  return t?.kind === 'leaf' && (t.type === 'identifier' || (t.type === t.text && CONTEXTUAL_NAMES.has(t.text)));
}

/** `#[…]` or `#![…]` at index i. */
function isAttribute(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i];
  if (t.kind !== 'group' || t.open !== '[') return false;
  return leafIs(tokens[i - 1], '#') || (leafIs(tokens[i - 1], '!') && leafIs(tokens[i - 2], '#'));
}

/**
 * Whether an item may start at index j: first in its group, or after `;`, a brace group,
 * an attribute or a repetition. This keeps type positions out (`-> impl Iterator {`,
 * `x: fn(u8)`, `<const N: usize>`), where the same keywords appear.
 */
function atItemBoundary(tokens: readonly Token[], j: number): boolean {
  if (j === 0) return true;
  const prev = tokens[j - 1];
  if (prev.kind === 'leaf') return prev.text === ';';
  return prev.open === '{' || prev.open === '$(' || isAttribute(tokens, j - 1);
}

/** The index where the item whose keyword is at i starts (its visibility and qualifiers), or undefined when i is no item position. */
function itemStart(tokens: readonly Token[], i: number): number | undefined {
  let j = i;
  for (;;) {
    const prev = tokens[j - 1];
    if (prev === undefined) break;
    if (prev.kind === 'group') {
      if (prev.open === '(' && leafIs(tokens[j - 2], 'pub')) {
        j -= 2;
        continue;
      }
      break;
    }
    // `$vis struct Name`: a visibility passed in as a fragment.
    if (prev.type === 'metavariable') {
      j--;
      continue;
    }
    if (prev.type === 'string_literal' && leafIs(tokens[j - 2], 'extern')) {
      j -= 2;
      continue;
    }
    const word = wordOf(prev);
    if (word !== undefined && QUALIFIERS.has(word)) {
      j--;
      continue;
    }
    break;
  }
  return atItemBoundary(tokens, j) ? j : undefined;
}

/**
 * The last token of an item: its body `{…}` or its `;`, whichever comes first. Without
 * either (a body spliced in as `$body`), the item runs to the end of its group, which is
 * all the tokens can tell.
 */
function itemEnd(tokens: readonly Token[], from: number, semicolonOnly: boolean): number {
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'leaf' ? t.text === ';' : !semicolonOnly && t.open === '{') return k;
  }
  return tokens.length - 1;
}

/**
 * Whether the function whose signature runs from index `from` takes `self`. A template may
 * hold only the members of an impl that its invocation splices in (compiler_builtins'
 * `int_impl_common!` inside `impl Int for $ty`): such a function is a method of a type the
 * tokens do not name, not a free function.
 */
function takesSelf(tokens: readonly Token[], from: number, last: number): boolean {
  let angles = 0;
  for (let k = from; k <= last; k++) {
    const t = tokens[k];
    angles += angleDelta(t);
    // The parameters are the first parenthesised group outside generics (`<F: Fn(u8)>(self)`).
    if (t.kind !== 'group' || t.open !== '(' || angles > 0) continue;
    // `self`, `mut self`, `&self`, `&'a mut self`, `self: Box<Self>`.
    let i = 0;
    while (
      i < t.tokens.length &&
      (leafIs(t.tokens[i], '&') ||
        leafIs(t.tokens[i], 'mut') ||
        leafIs(t.tokens[i], "'") ||
        (i > 0 && leafIs(t.tokens[i - 1], "'")))
    )
      i++;
    return leafIs(t.tokens[i], 'self');
  }
  return false;
}

/** Angle-bracket depth change of one token (`>>` closes two: `Vec<Vec<u8>>`). */
function angleDelta(t: Token): number {
  if (t.kind !== 'leaf') return 0;
  return t.text === '<' ? 1 : t.text === '<<' ? 2 : t.text === '>' ? -1 : t.text === '>>' ? -2 : 0;
}

/**
 * The type an impl header names, as `implTypeName` reads a parsed one: the last path
 * segment of the target (after `for` when it implements a trait), generics dropped.
 * Undefined when the target is a metavariable (`impl Trait for $t`) or no path (`[T; N]`).
 */
function implTarget(header: readonly Token[]): string | undefined {
  let k = 0;
  if (leafIs(header[0], '<')) {
    let depth = 0;
    do depth += angleDelta(header[k++]);
    while (k < header.length && depth > 0);
  }
  let target = k;
  let depth = 0;
  for (let i = k; i < header.length; i++) {
    const t = header[i];
    depth += angleDelta(t);
    if (depth !== 0) continue;
    if (leafIs(t, 'where')) break;
    if (leafIs(t, 'for')) target = i + 1;
  }
  let i = target;
  // `&'a mut dyn Trait`: references, lifetimes and `dyn` before the path.
  while (i < header.length) {
    const t = header[i];
    if (
      leafIs(t, '&') ||
      leafIs(t, '&&') ||
      leafIs(t, '*') ||
      leafIs(t, 'mut') ||
      leafIs(t, 'const') ||
      leafIs(t, 'dyn')
    )
      i++;
    else if (leafIs(t, "'") && isName(header[i + 1])) i += 2;
    else break;
  }
  if (leafIs(header[i], '::')) i++;
  let last: Token | undefined;
  while (header[i]?.kind === 'leaf') {
    last = header[i++];
    if (!leafIs(header[i], '::')) break;
    i++;
  }
  if (last?.kind !== 'leaf') return undefined;
  return last.type === 'identifier' || last.type === 'primitive_type' ? last.text : undefined;
}

/** Definitions and impl blocks of one group and, recursively, of the groups inside it. */
function scan(tokens: readonly Token[], out: TemplateFacts): void {
  /** Bodies of impls for a type the tokens do not name: their functions would be claimed as free functions. */
  const unowned = new Set<Token>();
  for (let i = 0; i < tokens.length; i++) {
    const keyword = wordOf(tokens[i]);
    if (keyword === undefined || (keyword !== 'impl' && !ITEM_KINDS.has(keyword))) continue;
    const start = itemStart(tokens, i);
    if (start === undefined) continue;
    if (keyword === 'impl') {
      let body = i + 1;
      while (
        body < tokens.length &&
        !(tokens[body].kind === 'group' && (tokens[body] as Group).open === '{') &&
        !leafIs(tokens[body], ';')
      )
        body++;
      const group = tokens[body];
      if (group?.kind !== 'group') continue;
      const name = implTarget(tokens.slice(i + 1, body));
      if (name === undefined) unowned.add(group);
      else out.containers.push({ start: tokens[start].start, end: group.end, name, kind: 'impl' });
      continue;
    }
    // `static mut COUNT`: the name follows `mut`.
    const nameAt =
      keyword === 'static' && tokens[i + 1]?.kind === 'leaf' && (tokens[i + 1] as Leaf).type === 'mutable_specifier'
        ? i + 2
        : i + 1;
    const name = tokens[nameAt];
    if (!isName(name)) continue; // `struct $name`, `fn(u8)`, `const _`, `const fn`
    const last = itemEnd(tokens, nameAt + 1, SEMICOLON_ENDED.has(keyword));
    const kind = keyword === 'fn' && takesSelf(tokens, nameAt + 1, last) ? 'method' : ITEM_KINDS.get(keyword)!;
    out.defs.push({
      name: name.text,
      kind,
      start: tokens[start].start,
      end: tokens[last].end,
      nameStart: name.start,
      nameEnd: name.end,
    });
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'group' || unowned.has(t) || isAttribute(tokens, i)) continue;
    // A nested `macro_rules!` matcher (`(struct $n:ident) =>`) is a pattern, not items.
    if (leafIs(tokens[i + 1], '=>')) continue;
    scan(t.tokens, out);
  }
}

/** Definitions and impl blocks written in a `macro_rules!` rule's right-hand side (a token tree). */
export function macroTemplateFacts(tree: Node): TemplateFacts {
  const out: TemplateFacts = { defs: [], containers: [] };
  scan(groupOf(tree, 0).tokens, out);
  return out;
}
