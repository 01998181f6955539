// Preprocessor conditionals by line, for the repairs of the languages that have them (the C
// family, C#): which lines open, continue and close a `#if` … `#endif` block. The repairs
// decide what to blank; this only reads the structure, from code already masked
// (extract/mask.ts) so that a `#if` inside a comment or a string is none.

/** A directive line's word, and the words that open, continue and close a block. */
export interface DirectiveSyntax {
  /** Matches a directive line of masked code; group 1 its word, group 2 the rest of the line. */
  readonly line: RegExp;
  readonly opens: ReadonlySet<string>;
  readonly closes: string;
}

/** C and C++ (`#ifdef`, `#elifdef` of C23 included). */
export const C_DIRECTIVES: DirectiveSyntax = {
  line: /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)/,
  opens: new Set(['if', 'ifdef', 'ifndef']),
  closes: 'endif',
};

/** C#: no `#ifdef`; `#region` is no conditional. */
export const CSHARP_DIRECTIVES: DirectiveSyntax = {
  line: /^[ \t]*#[ \t]*(if|elif|else|endif)\b(.*)/,
  opens: new Set(['if']),
  closes: 'endif',
};

/** One branch: its directive's line, and the line of the directive that ends it. */
export interface Branch {
  line: number;
  end: number;
}

/** A closed `#if` … `#endif` block. */
export interface ConditionalBlock {
  /** Each branch (`#if`, then each `#elif`/`#else`) in order. */
  readonly branches: Branch[];
  /** The opening directive's word (`if`, `ifdef`, …) and the rest of its line. */
  readonly directive: string;
  readonly condition: string;
  /** The `#endif` line. */
  endif: number;
}

export interface Conditionals {
  /** Closed blocks, each listed when its `#endif` is read (inner blocks before outer ones). */
  readonly blocks: ConditionalBlock[];
  /** Directive lines that continue or close no open block. */
  readonly stray: number[];
  /** Directive lines of blocks still open at the end of the text. */
  readonly unclosed: number[];
}

/** The start offset of every line of `text`. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The conditional blocks of masked `code`, whose lines start at `starts`. */
export function conditionals(code: string, starts: readonly number[], syntax: DirectiveSyntax): Conditionals {
  const blocks: ConditionalBlock[] = [];
  const stray: number[] = [];
  const open: ConditionalBlock[] = [];
  for (let line = 0; line < starts.length; line++) {
    const m = syntax.line.exec(code.slice(starts[line], line + 1 < starts.length ? starts[line + 1] - 1 : code.length));
    if (!m) continue;
    const top = open[open.length - 1];
    if (syntax.opens.has(m[1]))
      open.push({ branches: [{ line, end: line }], directive: m[1], condition: m[2] ?? '', endif: -1 });
    else if (!top) stray.push(line);
    else if (m[1] === syntax.closes) {
      top.branches[top.branches.length - 1].end = line;
      top.endif = line;
      blocks.push(open.pop()!);
    } else {
      top.branches[top.branches.length - 1].end = line;
      top.branches.push({ line, end: line });
    }
  }
  const unclosed = open.flatMap((b) => b.branches.map((br) => br.line));
  return { blocks, stray, unclosed };
}
