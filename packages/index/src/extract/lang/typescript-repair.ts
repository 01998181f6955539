// tree-sitter-typescript 0.23.2, the newest grammar on npm, rejects TypeScript that real
// code uses everywhere (on the `src/` of effect@3.22.4, 193 of 363 files had errors):
// - variance annotations on type parameters: `interface Chunk<out A>`, `<in out K>`;
// - a call signature on the line after a member that ends in a type, without `;`:
//   `{ (self: A): B⏎ <A>(that: A): B }` reads as `B<A>` and fails at `(`;
// - any escape sequence inside a template literal type: `` type M = `a \`b\`` ``;
// - an import type with type arguments: `import("../types").ObservableInput<T>`.
// A file whose parse has errors is rewritten at the same length (every offset stays exact)
// and parsed again; the caller keeps the rewrite only if it has fewer errors.
import type Parser from 'tree-sitter';

/**
 * `in`, `out` or `in out` before a type parameter's name, after `<` or `,` and any
 * whitespace and comments (zod 4: `<⏎  /** @ts-ignore Cast variance *\/⏎  out Shape extends …`).
 */
const VARIANCE =
  /(?<=[<,](?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n)*)(?:in\s+out|in|out)(?=\s+[A-Za-z_$][\w$]*\s*(?:extends\b|=|,|>))/g;
/**
 * An import type's module part, `import("../types").` in a type position (after `:`, `<`,
 * `|`, `&`, `,`): the grammar reads `import("../types").ObservableInput<T>` as a call and
 * fails at `<` (rxjs' declaration files, an agent trial). Blanked, the type is the name.
 */
const IMPORT_TYPE = /(?<=[:<|&,]\s*)import\(\s*(['"])[^'"\n]*\1\s*\)\s*\./g;
/** A backslash escape on one line (a line continuation keeps its backslash). */
const ESCAPE = /\\[^\r\n]/g;
/** An indented line that starts with type parameters or a parameter list. */
const SIGNATURE_LINE = /\n([ \t]+)[<(]/g;
/** Words that cannot end a type: a line after them continues the same construct. */
const CONTINUING_WORDS = new Set([
  'extends',
  'return',
  'typeof',
  'keyof',
  'infer',
  'in',
  'of',
  'instanceof',
  'new',
  'await',
  'yield',
  'case',
  'throw',
  'else',
  'do',
  'as',
  'satisfies',
  'is',
  'delete',
  'readonly',
  'unique',
  'asserts',
  'export',
  'default',
  'import',
]);

function blank(out: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) out[i] = ' ';
}

/** Whether the code before `at` (whitespace and comments skipped) ends a type, so a member may follow. */
function endsType(text: string, at: number, commentStartByEnd: ReadonlyMap<number, number>): boolean {
  let i = at;
  for (;;) {
    while (i > 0 && /\s/.test(text[i - 1])) i--;
    const commentStart = commentStartByEnd.get(i);
    if (commentStart === undefined) break;
    i = commentStart;
  }
  const prev = text[i - 1];
  if (prev === undefined) return false;
  if (/[\w$]/.test(prev)) {
    const word = /[\w$]+$/.exec(text.slice(Math.max(0, i - 12), i))?.[0] ?? '';
    return !CONTINUING_WORDS.has(word);
  }
  if (prev === '>') return text[i - 2] !== '=';
  return /[)\]}"'`]/.test(prev);
}

/** The same-length rewrite of a TypeScript source whose parse (`tree`) has errors. */
export function repairTypeScript(text: string, tree: Parser.Tree): string {
  const out = text.split('');
  for (const m of text.matchAll(VARIANCE)) blank(out, m.index, m.index + m[0].length);
  for (const m of text.matchAll(IMPORT_TYPE)) blank(out, m.index, m.index + m[0].length);
  // Escapes only matter inside strings, whose contents are no facts.
  for (const m of text.matchAll(ESCAPE)) blank(out, m.index, m.index + m[0].length);
  const commentStartByEnd = new Map<number, number>();
  for (const c of tree.rootNode.descendantsOfType('comment')) commentStartByEnd.set(c.endIndex, c.startIndex);
  for (const m of text.matchAll(SIGNATURE_LINE)) {
    if (endsType(text, m.index, commentStartByEnd)) out[m.index + m[1].length] = ';';
  }
  return out.join('');
}
