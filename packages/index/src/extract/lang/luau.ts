// Luau syntax the Lua grammar does not know, blanked to spaces of the same length before
// parsing so every offset stays exact: type annotations, `type`/`export type` statements
// (recorded as type definitions), generic parameters, `::` casts, compound assignment and
// `continue`. Decided by measurement against a line-based extractor (docs/languages.md).
import type { Prepared, PreparedDef } from '../spec';

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const OPEN: Readonly<Record<string, string>> = { '(': ')', '{': '}', '[': ']', '<': '>' };

/** Where an `if` starts an expression rather than a statement. */
const EXPRESSION_BEFORE = '=(,{[+-*/%^<>.~';
const EXPRESSION_WORDS = new Set(['return', 'and', 'or', 'not', 'in']);

class Blanker {
  readonly out: string[];
  readonly defs: PreparedDef[] = [];
  readonly typeIds: { start: number; end: number; name: string }[] = [];
  constructor(readonly src: string) {
    this.out = src.split('');
  }

  blank(from: number, to: number): void {
    for (let i = from; i < to; i++) if (this.out[i] !== '\n' && this.out[i] !== '\r') this.out[i] = ' ';
  }

  /** Skip whitespace and comments; returns the next significant position. */
  skipSpace(i: number): number {
    const s = this.src;
    for (;;) {
      while (i < s.length && /\s/.test(s[i])) i++;
      if (s.startsWith('--', i)) {
        const long = /^--\[(=*)\[/.exec(s.slice(i, i + 40));
        if (long) {
          const close = s.indexOf(`]${long[1]}]`, i);
          i = close < 0 ? s.length : close + long[1].length + 2;
        } else {
          const nl = s.indexOf('\n', i);
          i = nl < 0 ? s.length : nl;
        }
        continue;
      }
      return i;
    }
  }

  /** End of a string literal starting at i (quote, long bracket or backtick). */
  stringEnd(i: number): number {
    const s = this.src;
    const q = s[i];
    if (q === '[') {
      const m = /^\[(=*)\[/.exec(s.slice(i, i + 40));
      if (!m) return i;
      const close = s.indexOf(`]${m[1]}]`, i);
      return close < 0 ? s.length : close + m[1].length + 2;
    }
    let j = i + 1;
    while (j < s.length && s[j] !== q && s[j] !== '\n') {
      if (q === '`' && s[j] === '{') j = this.interpolationEnd(j);
      else j += s[j] === '\\' ? 2 : 1;
    }
    return Math.min(s.length, j + 1);
  }

  /** End of an interpolated string's `{ expression }` (which may span lines and hold strings) starting at i. */
  interpolationEnd(i: number): number {
    const s = this.src;
    let depth = 0;
    let j = i;
    while (j < s.length) {
      const c = s[j];
      if (c === '"' || c === "'" || c === '`' || (c === '[' && /^\[=*\[/.test(s.slice(j, j + 40)))) {
        j = this.stringEnd(j);
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return j + 1;
      j++;
    }
    return j;
  }

  ident(i: number): string | undefined {
    IDENT.lastIndex = i;
    return IDENT.exec(this.src)?.[0];
  }

  /** Skip a balanced bracket group starting at i, recording identifiers inside as type names. */
  skipGroup(i: number): number {
    const s = this.src;
    const stack = [OPEN[s[i]]];
    let j = i + 1;
    while (j < s.length && stack.length > 0) {
      j = this.skipSpace(j);
      const c = s[j];
      if (c === undefined) break;
      if (c === '"' || c === "'") {
        j = this.stringEnd(j);
        continue;
      }
      if (c === '-' && s[j + 1] === '>') {
        j += 2;
        continue;
      }
      if (OPEN[c]) {
        stack.push(OPEN[c]);
        j++;
        continue;
      }
      if (c === stack[stack.length - 1]) {
        stack.pop();
        j++;
        continue;
      }
      const id = this.ident(j);
      if (id) {
        this.typeIds.push({ start: j, end: j + id.length, name: id });
        j += id.length;
        continue;
      }
      j++;
    }
    return j;
  }

  /** End of a type expression starting at (or after whitespace from) i. */
  skipType(i: number): number {
    const s = this.src;
    let j = this.skipSpace(i);
    if (s[j] === '|' || s[j] === '&') j = this.skipSpace(j + 1);
    for (;;) {
      if (s.startsWith('...', j)) j = this.skipSpace(j + 3);
      const c = s[j];
      if (c === '(' || c === '{' || c === '<') j = this.skipGroup(j);
      else if (c === '"' || c === "'") j = this.stringEnd(j);
      else {
        const id = this.ident(j);
        if (!id) return j;
        if (id !== 'typeof') this.typeIds.push({ start: j, end: j + id.length, name: id });
        j += id.length;
        while (s[j] === '.' && this.ident(j + 1)) {
          const part = this.ident(j + 1)!;
          this.typeIds.push({ start: j + 1, end: j + 1 + part.length, name: part });
          j += 1 + part.length;
        }
        if (s[j] === '<' || (id === 'typeof' && s[j] === '(')) j = this.skipGroup(j);
        if (s.startsWith('...', j)) j += 3; // a generic type pack `T...`
      }
      let end = j;
      j = this.skipSpace(j);
      while (s[j] === '?') {
        j++;
        end = j;
        j = this.skipSpace(j);
      }
      if (s[j] === '(' && s[end - 1] === '>') {
        j = this.skipGroup(j);
        end = j;
        j = this.skipSpace(j);
      }
      if (s.startsWith('->', j)) {
        j = this.skipSpace(j + 2);
        continue;
      }
      if (s[j] === '|' || s[j] === '&') {
        j = this.skipSpace(j + 1);
        continue;
      }
      return end;
    }
  }

  /** `name: T` pairs until a token that ends the list; blanks each `: T`. */
  annotatedNames(i: number, closers: string): number {
    const s = this.src;
    let j = this.skipSpace(i);
    for (;;) {
      if (s.startsWith('...', j)) j += 3;
      else {
        const id = this.ident(j);
        if (!id) return j;
        j += id.length;
      }
      let k = this.skipSpace(j);
      if (s[k] === ':' && s[k + 1] !== ':') {
        const end = this.skipType(k + 1);
        this.blank(k, end);
        k = this.skipSpace(end);
      }
      if (s[k] === '<' && /^<\s*(const|close)\s*>/.test(s.slice(k, k + 12))) k = this.skipSpace(s.indexOf('>', k) + 1);
      if (s[k] !== ',' || closers.includes(',')) return k;
      j = this.skipSpace(k + 1);
    }
  }

  atLineStart(i: number): boolean {
    let k = i - 1;
    while (k >= 0 && (this.src[k] === ' ' || this.src[k] === '\t')) k--;
    return k < 0 || this.src[k] === '\n' || this.src[k] === ';';
  }

  /** `[export] type Name<T> = T`: a definition, then blanked whole. */
  typeStatement(start: number, typeAt: number): number | undefined {
    const s = this.src;
    const n = this.skipSpace(typeAt + 4);
    const name = this.ident(n);
    if (!name || n === typeAt + 4) return undefined;
    let k = this.skipSpace(n + name.length);
    if (s[k] === '<') k = this.skipSpace(this.skipGroup(k));
    if (s[k] !== '=') return undefined;
    const end = this.skipType(k + 1);
    this.defs.push({ name, kind: 'type', start, end, nameStart: n, nameEnd: n + name.length });
    this.typeIds.push({ start: n, end: n + name.length, name });
    this.blank(start, end);
    return end;
  }

  /** `[export] type function Name(…) … end`: a type-level function, recorded as a `type` and blanked to its `end`. */
  typeFunction(start: number, typeAt: number): number | undefined {
    const s = this.src;
    const f = this.skipSpace(typeAt + 4);
    if (this.ident(f) !== 'function') return undefined;
    const n = this.skipSpace(f + 8);
    const name = this.ident(n);
    if (!name) return undefined;
    let depth = 1;
    let j = n + name.length;
    while (j < s.length) {
      j = this.skipSpace(j);
      const c = s[j];
      if (c === '"' || c === "'" || c === '`' || (c === '[' && /^\[=*\[/.test(s.slice(j, j + 40)))) {
        j = this.stringEnd(j);
        continue;
      }
      const id = this.ident(j);
      if (!id) {
        j++;
        continue;
      }
      j += id.length;
      if (s[j - id.length - 1] === '.' || s[j - id.length - 1] === ':') continue;
      if (id === 'function' || id === 'if' || id === 'do' || id === 'repeat') depth++;
      else if ((id === 'end' || id === 'until') && --depth === 0) break;
    }
    this.defs.push({ name, kind: 'type', start, end: j, nameStart: n, nameEnd: n + name.length });
    this.typeIds.push({ start: n, end: n + name.length, name });
    this.blank(start, j);
    return j;
  }

  /** Replace a keyword with same-length Lua (`then` → `and `). */
  replace(at: number, text: string): void {
    for (let k = 0; k < text.length; k++) this.out[at + k] = text[k];
  }

  run(): Prepared {
    const s = this.src;
    let i = 0;
    let prev = '';
    let prevWord = '';
    // Open `if … then … else …` expressions: their keywords become `and`/`or`.
    let ifExpressions = 0;
    while (i < s.length) {
      i = this.skipSpace(i);
      if (i >= s.length) break;
      const c = s[i];
      if (c === '"' || c === "'" || (c === '[' && /^\[=*\[/.test(s.slice(i, i + 40)))) {
        i = this.stringEnd(i);
        prev = 'string';
        continue;
      }
      if (c === '`') {
        const end = this.stringEnd(i);
        this.blank(i + 1, end - 1);
        // An interpolation spanning lines: a long string keeps the lines (there is room, `{…}` is inside).
        const multiline = s.slice(i, end).includes('\n') && end - i >= 4;
        this.replace(i, multiline ? '[[' : '"');
        this.replace(end - (multiline ? 2 : 1), multiline ? ']]' : '"');
        i = end;
        prev = 'string';
        continue;
      }
      const id = this.ident(i);
      if (id) {
        const at = i;
        i += id.length;
        if (prev === '.' || prev === ':') {
          prev = 'name';
          continue;
        }
        const word = prevWord;
        prevWord = id;
        const afterIfExpressionKeyword = ifExpressions > 0 && (prev === 'then' || prev === 'else' || prev === 'elseif');
        if (
          id === 'if' &&
          ((prev !== '' && EXPRESSION_BEFORE.includes(prev)) ||
            (prev === 'name' && EXPRESSION_WORDS.has(word)) ||
            afterIfExpressionKeyword)
        ) {
          this.replace(at, '  ');
          ifExpressions++;
          prev = 'if';
          continue;
        }
        if (ifExpressions > 0 && (id === 'then' || id === 'elseif' || id === 'else')) {
          this.replace(at, id === 'then' ? 'and ' : id === 'elseif' ? 'or    ' : 'or  ');
          if (id === 'else') ifExpressions--;
          prev = id;
          continue;
        }
        if ((id === 'type' || id === 'export') && this.atLineStart(at)) {
          const typeAt = id === 'export' ? this.skipSpace(i) : at;
          if (id === 'type' || this.ident(typeAt) === 'type') {
            const end = this.typeStatement(at, typeAt) ?? this.typeFunction(at, typeAt);
            if (end !== undefined) {
              i = end;
              prev = '';
              continue;
            }
          }
        }
        if (id === 'function') {
          let k = this.skipSpace(i);
          while (this.ident(k)) {
            k += this.ident(k)!.length;
            if (s[k] === '.' || s[k] === ':') k++;
            else break;
          }
          k = this.skipSpace(k);
          if (s[k] === '<') {
            const g = this.skipGroup(k);
            this.blank(k, g);
            k = this.skipSpace(g);
          }
          if (s[k] === '(') {
            const close = this.annotatedNames(k + 1, ')');
            k = this.skipSpace(close);
            if (s[k] === ')') {
              const after = this.skipSpace(k + 1);
              i = k + 1;
              // The return type is skipped whole: its `>` or `(` must not make a following `if` look like an expression.
              if (s[after] === ':' && s[after + 1] !== ':') {
                const end = this.skipType(after + 1);
                this.blank(after, end);
                i = end;
              }
            }
          }
          prev = 'function';
          continue;
        }
        if (id === 'local' || id === 'for') {
          const k = this.skipSpace(i);
          if (this.ident(k) !== 'function') i = this.annotatedNames(k, '');
          prev = id;
          continue;
        }
        if (id === 'continue' && !/^\s*[(.:=[,]/.test(s.slice(i, i + 8))) {
          this.out.splice(at, 8, ...'break   ');
        }
        prev = 'name';
        continue;
      }
      if (s.startsWith('::', i)) {
        const end = this.skipType(i + 2);
        this.blank(i, end);
        i = end;
        continue;
      }
      const number = /^(?:0[bB][01_]+|0[xX][0-9a-fA-F_]+|[0-9][0-9_]*)/.exec(s.slice(i, i + 80));
      if (number) {
        // Luau digit separators and binary literals: `10_000` → `100000`, `0b101` → `0x101` (values are no facts).
        const lua = number[0].replace(/_/g, '0').replace(/^0[bB]/, '0x');
        if (lua !== number[0]) this.replace(i, lua);
        i += number[0].length;
        prev = 'number';
        prevWord = '';
        continue;
      }
      const compound = /^(\/\/|\.\.|[-+*/%^])=/.exec(s.slice(i, i + 3));
      if (compound) {
        this.blank(i, i + compound[1].length);
        i += compound[0].length;
        prev = '=';
        continue;
      }
      prev = c;
      prevWord = '';
      i++;
    }
    return { text: this.out.join(''), defs: this.defs, typeIds: this.typeIds };
  }
}

export function prepareLuau(text: string): Prepared {
  return new Blanker(text).run();
}
