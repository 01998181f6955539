// Same-length rewrites of C and C++ source the grammars cannot parse, tried only on a tree
// with errors (and kept only when the rewrite has fewer): annotation macros in declaration
// heads (`asmlinkage __visible void __sched schedule(void)`), the `extern "C" {` idiom
// split across `#ifdef __cplusplus` blocks, branches of a conditional that open braces
// the other branches open again, blocks of one condition whose braces balance only together,
// alternative function heads before one body, and `#endif` lines that close nothing.
import type Parser from 'tree-sitter';
import { treeErrors } from '../errors';
import { C_MASK, maskText, spacesFor } from '../mask';
import { C_DIRECTIVES, type ConditionalBlock, conditionals, lineStartsOf } from './conditionals';

/** Words a declaration head may hold that are C or C++ syntax, never a macro. */
const SPECIFIERS = new Set([
  'static',
  'extern',
  'inline',
  '__inline',
  '__inline__',
  '__forceinline',
  'register',
  'auto',
  'thread_local',
  '_Thread_local',
  '__thread',
  'const',
  'constexpr',
  'volatile',
  'restrict',
  '__restrict',
  '__restrict__',
  '__extension__',
  '_Atomic',
  '_Noreturn',
  'noreturn',
  '_Nonnull',
  'typedef',
  'virtual',
  'explicit',
  'friend',
  'mutable',
  'typename',
  'consteval',
  'constinit',
  '__cdecl',
  '__clrcall',
  '__stdcall',
  '__fastcall',
  '__thiscall',
  '__vectorcall',
]);
/** Words that make a head's type certain: every other unknown word in it is an annotation. */
const TYPE_WORDS = new Set([
  'signed',
  'unsigned',
  'long',
  'short',
  'bool',
  '_Bool',
  '_Complex',
  'char',
  'int',
  'float',
  'double',
  'void',
  'wchar_t',
  'size_t',
  'ssize_t',
  'ptrdiff_t',
  'intptr_t',
  'uintptr_t',
  'charptr_t',
  'nullptr_t',
  'max_align_t',
  ...[8, 16, 32, 64].flatMap((n) => [`int${n}_t`, `uint${n}_t`, `char${n}_t`]),
]);
const TAGS = new Set(['struct', 'union', 'enum', 'class']);
/** A line starting with one of these is a statement, not a declaration. */
const STATEMENT_WORDS = new Set([
  'return',
  'if',
  'else',
  'while',
  'for',
  'do',
  'switch',
  'case',
  'default',
  'goto',
  'break',
  'continue',
  'sizeof',
  'typeof',
  '__typeof__',
  'alignof',
  '_Alignof',
  'template',
  'using',
  'namespace',
  'operator',
  'new',
  'delete',
  'throw',
]);
/** Attribute syntax the grammars parse themselves: skipped with its arguments, never blanked. */
const NATIVE_ATTRIBUTES = new Set([
  '__attribute__',
  '__attribute',
  '__declspec',
  'alignas',
  '_Alignas',
  '__asm__',
  '__asm',
  'asm',
]);
const ASM_WORDS = new Set(['__asm__', '__asm', 'asm']);
/** C++ qualifiers after a member function's parameters: kept, and annotations after them still blanked. */
const TRAILING_CPP = new Set(['const', 'volatile', 'noexcept', 'override', 'final', 'throw', 'mutable']);
/** Words after a function's parameters that start what is no annotation (a function-try-block, a constraint). */
const TRAILING_STOP = new Set(['try', 'requires']);
const ANNOTATION_WORDS = new Set([
  'asmlinkage',
  'notrace',
  'noinline',
  'noinstr',
  'nokprobe_inline',
  'WINAPI',
  'APIENTRY',
  'CALLBACK',
]);
/**
 * Export and inlining macros whose name says they annotate (`EIGEN_STRONG_INLINE`,
 * `EIGEN_DEVICE_FUNC`, `SPDLOG_API`): never a head's type, even with no other word to be one.
 */
const CERTAIN_ANNOTATION = /^[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:INLINE|FUNC|API|EXPORT|NOEXCEPT|CONSTEXPR|DEPRECATED)$/;
const RUN_TOKENS_MAX = 48;
/** Characters a template's argument list may take in a head (`template<typename Lhs, typename Rhs, int Option>`). */
const TEMPLATE_ARGS_CHARS_MAX = 400;
/** Template-argument lists a qualified name may hold (`A<T>::B<U>::f`). */
const QUALIFIERS_MAX = 4;
/** Lines above an error row a declaration head may start on. */
const HEAD_LINES_MAX = 3;

/** A macro's usual spelling: capitals and digits with an underscore (`SQLITE_API`, `GTEST_ATTRIBUTE_UNUSED_`). */
export const MACRO_CASE = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

/** Reserved names (`__sched`, `_Foo`), ALL_CAPS export macros (`SQLITE_API`) and the kernel's usual annotations. */
export function looksLikeAnnotation(word: string): boolean {
  return /^_[_A-Z]/.test(word) || MACRO_CASE.test(word) || ANNOTATION_WORDS.has(word);
}

/**
 * Comments, string and character literals replaced by spaces (newlines kept; extract/mask.ts),
 * and carriage returns too: a CRLF line then ends as an LF one does for every line pattern
 * here (an agent trial on JUCE, whose sources are CRLF: no repair matched, and `class
 * JUCE_API AudioProcessor` stayed unparsed). Each comment's span, delimiters included, is
 * pushed to `comments` when given.
 */
export function maskCode(text: string, comments?: Span[]): string {
  const masked = maskText(text, C_MASK, comments);
  return masked.includes('\r') ? masked.replace(/\r/g, ' ') : masked;
}

interface Span {
  start: number;
  end: number;
}

function isWordStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z_]/.test(c);
}

/** End of the balanced group opening at `from` (`(`, `<`), or -1 when it does not close soon. */
function groupEnd(code: string, from: number, open: string, close: string, limit: number): number {
  let depth = 0;
  for (let i = from; i < code.length && i < from + limit; i++) {
    if (code[i] === open) depth++;
    else if (code[i] === close && --depth === 0) return i + 1;
    else if (code[i] === ';' || code[i] === '{' || code[i] === '}') return -1;
  }
  return -1;
}

function skipSpace(code: string, i: number, newlines: boolean): number {
  while (i < code.length && (code[i] === ' ' || code[i] === '\t' || code[i] === '\r' || (newlines && code[i] === '\n')))
    i++;
  return i;
}

interface Word {
  text: string;
  start: number;
  end: number;
}

/**
 * Whether the tokens from `from` continue a declaration head with a type or name: a plain
 * word before the next call or end. `__printf(2, 3) void panic(…)`: yes, so `__printf` is
 * an annotation; `__kmalloc(…) __alloc_size(1);`: no, so `__kmalloc` is the name.
 */
function continuesHead(code: string, from: number): boolean {
  let i = from;
  for (let n = 0; n < 16; n++) {
    i = skipSpace(code, i, true);
    if (code[i] === '*' || code[i] === '&') {
      i++;
      continue;
    }
    if (!isWordStart(code[i])) return false;
    let j = i;
    while (j < code.length && /\w/.test(code[j])) j++;
    const word = code.slice(i, j);
    if (TYPE_WORDS.has(word) || TAGS.has(word) || (!looksLikeAnnotation(word) && !NATIVE_ATTRIBUTES.has(word)))
      return true;
    const next = skipSpace(code, j, true);
    if (code[next] === '(') {
      if (!NATIVE_ATTRIBUTES.has(word)) return false;
      const end = groupEnd(code, next, '(', ')', 4000);
      if (end < 0) return false;
      i = end;
    } else i = j;
  }
  return false;
}

/**
 * Annotations after a function's parameters, blanked up to the end: `… (int __flags) __THROW
 * __nonnull ((1));`, and past C++ qualifiers (`Index rows() const EIGEN_NOEXCEPT { … }`: the
 * grammar read no method there, and Eigen lost `rows()`, `cols()` and 160 more; an agent
 * trial). A qualifier (`const`, `&`, `noexcept(…)`) is kept and read past; `try` and
 * `requires` start what is no annotation, so the rewrite stops there, as at `{`, `;`, `=`, `->`.
 */
function fixTrailing(code: string, from: number, blanks: Span[]): void {
  let i = from;
  for (let n = 0; n < 16; n++) {
    i = skipSpace(code, i, true);
    // A ref-qualifier (`) const &`, `) &&`), but not `->`.
    if (code[i] === '&') {
      i++;
      continue;
    }
    if (!isWordStart(code[i])) return;
    let j = i;
    while (j < code.length && /\w/.test(code[j])) j++;
    const word = code.slice(i, j);
    if (TRAILING_STOP.has(word)) return;
    const qualifier = TRAILING_CPP.has(word);
    if (!qualifier && !NATIVE_ATTRIBUTES.has(word) && !looksLikeAnnotation(word)) return;
    const next = skipSpace(code, j, true);
    let end = j;
    if (code[next] === '(') {
      end = groupEnd(code, next, '(', ')', 4000);
      if (end < 0) return;
    }
    if (qualifier) {
      i = end;
      continue;
    }
    // An asm label (`__asm ("strcasestr")`) is no syntax of the grammars after a declarator.
    if (!NATIVE_ATTRIBUTES.has(word) || ASM_WORDS.has(word)) blanks.push({ start: i, end });
    i = end;
  }
}

/**
 * One declaration-like run from `from`: specifier words, pointers and annotation calls up
 * to the declarator's name. Unknown words beside a certain type (`void`, `struct rq`) are
 * annotations; among unknown words alone, the last that does not look like an annotation
 * is the type. The words to blank go to `blanks`; a function's parameters are runs too.
 */
function fixRun(code: string, from: number, blanks: Span[], nested = false): void {
  // What this run blanked so far, withdrawn when it turns out to be an expression.
  const mark = blanks.length;
  const words: Word[] = [];
  let i = skipSpace(code, from, nested);
  let typed = false;
  let afterTag = false;
  let explicit = false;
  // Past a `*` only the declarator follows: an unknown word there is an annotation (`void __user *buf`, `xmlChar * XMLCALL f(…)`).
  let pointer = false;
  // Those words as blanked: the last is kept again when an annotation follows it as the name.
  const pointed: { readonly text: string; readonly span: Span }[] = [];
  for (let n = 0; n < RUN_TOKENS_MAX; n++) {
    const c = code[i];
    if (c === '*' || c === '&') {
      pointer = true;
      i = skipSpace(code, i + 1, true);
      continue;
    }
    // A destructor's name starts with `~` (googletest's `~FunctionMocker() override
    // GTEST_LOCK_EXCLUDED_(g_gmock_mutex) {`, whose body was a method named by the macro).
    if (!isWordStart(c) && !(c === '~' && isWordStart(code[i + 1]))) return;
    let j = i;
    while (j < code.length && /[\w:~]/.test(code[j])) j++;
    // `template <typename T>` before a head (`template<…> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE`):
    // the head goes on after it.
    if (code.slice(i, j) === 'template' && code[skipSpace(code, j, true)] === '<') {
      const g = groupEnd(code, skipSpace(code, j, true), '<', '>', TEMPLATE_ARGS_CHARS_MAX);
      if (g < 0) return;
      i = skipSpace(code, g, true);
      continue;
    }
    // A name qualified through template arguments (`DenseBase<Derived>::setZero`) is one name:
    // read as a type `DenseBase<Derived>` and a stray `::setZero`, the head's macros were kept.
    for (let q = 0; q < QUALIFIERS_MAX && code[j] === '<'; q++) {
      const g = groupEnd(code, j, '<', '>', TEMPLATE_ARGS_CHARS_MAX);
      if (g < 0) break;
      j = g;
      if (code[j] !== ':' || code[j + 1] !== ':') break;
      while (j < code.length && /[\w:~]/.test(code[j])) j++;
    }
    const word = code.slice(i, j);
    if (n === 0 && STATEMENT_WORDS.has(word)) return;
    // A member access (`&team->port_list`, `dev.parent`; not a pack's `Args...`) is an
    // expression: the run is a call's argument, not a declaration. The kernel's
    // `list_for_each_entry(port, &team->port_list, list) {` errs for its missing `;`; read as
    // a function head, `team` was blanked as an annotation in every such loop, the rewrite
    // erred more and was dropped whole, and with it the repair of `static int __init
    // team_nl_init(void)` (13 of 7,831 functions of 400 sampled kernel files were lost so,
    // against ctags; 1,500 sampled .c and .h files gained 13 definitions and lost none).
    const after = skipSpace(code, j, true);
    if ((code[after] === '-' && code[after + 1] === '>') || (code[after] === '.' && code[after + 1] !== '.')) {
      blanks.length = mark;
      return;
    }
    // An operator's name (`T *operator->()`, `Derived& ArrayBase<Derived>::operator-=(`) is
    // syntax this rewrite does not read past, but the words before it are the head's.
    if (word === 'operator' || word.endsWith('::operator')) {
      blankUnknown(words, typed, blanks);
      return;
    }
    const next = skipSpace(code, j, true);
    if (code[next] === '(') {
      const end = groupEnd(code, next, '(', ')', 4000);
      if (end < 0) return;
      const after = skipSpace(code, end, true);
      if (NATIVE_ATTRIBUTES.has(word) || (looksLikeAnnotation(word) && continuesHead(code, end))) {
        if (!NATIVE_ATTRIBUTES.has(word)) blanks.push({ start: i, end });
        i = after;
        continue;
      }
      // The name of a function: its parameters are declarations of their own. A
      // constructor or destructor has no type, so an unknown word before it is an annotation
      // (`SPDLOG_INLINE thread_pool::thread_pool(`).
      if (namesConstructor(word) || explicit) blanks.push(...words.filter((w) => looksLikeAnnotation(w.text)));
      else blankUnknown(words, typed, blanks);
      if (nested) return;
      fixTrailing(code, end, blanks);
      let d = 0;
      let param = next + 1;
      for (let k = next + 1; k < end - 1; k++) {
        if (code[k] === '(') d++;
        else if (code[k] === ')') d--;
        else if (code[k] === ',' && d === 0) {
          fixRun(code, param, blanks, true);
          param = k + 1;
        }
      }
      fixRun(code, param, blanks, true);
      return;
    }
    if (![';', '=', '[', ',', ')', ':'].includes(code[next]) || (code[next] === ':' && code[next + 1] === ':')) {
      if (afterTag) typed = true;
      else if (TAGS.has(word)) afterTag = true;
      else if (TYPE_WORDS.has(word)) typed = true;
      else if (SPECIFIERS.has(word)) {
        // Only a constructor or a conversion is `explicit`: no type precedes its name.
        if (word === 'explicit') explicit = true;
      } else if (pointer) {
        const span = { start: i, end: j };
        blanks.push(span);
        pointed.push({ text: word, span });
      } else words.push({ text: word, start: i, end: j });
      if (!TAGS.has(word)) afterTag = false;
      i = next;
      continue;
    }
    // `word` is the declarator's name (a variable, field or parameter), unless it is an
    // annotation after the name: `static int x __read_mostly = 1;`, `int y __initdata;`,
    // `struct page *mem_map __read_mostly;` (the kernel's) had been variables named
    // `__read_mostly` and `__initdata`, the name blanked as an annotation.
    const lastPointed = pointed[pointed.length - 1];
    const last = lastPointed ?? words[words.length - 1];
    if (last !== undefined && looksLikeAnnotation(word) && !looksLikeAnnotation(last.text)) {
      blanks.push({ start: i, end: j });
      if (lastPointed) {
        blanks.splice(blanks.indexOf(lastPointed.span), 1);
        blankUnknown(words, typed, blanks);
      } else blankUnknown(words.slice(0, -1), typed, blanks);
      return;
    }
    blankUnknown(words, typed, blanks);
    return;
  }
}

/** `A::A`, `A::~A`, `ns::A::~A` or `~A`: a constructor's or destructor's name, which no type precedes. */
function namesConstructor(name: string): boolean {
  if (name.startsWith('~')) return true;
  // `Matrix<Scalar, Rows>::Matrix`: a class template's name without its arguments.
  let bare = name;
  for (let k = 0; k < QUALIFIERS_MAX && bare.includes('<'); k++) bare = bare.replace(/<[^<>]*>/g, '');
  const parts = bare.split('::');
  const last = parts[parts.length - 1];
  return parts.length >= 2 && (last.startsWith('~') || last === parts[parts.length - 2]);
}

/**
 * The unknown words of a head blanked but its type: beside a certain type all of them;
 * otherwise the last that does not look like an annotation is kept, or else the last that
 * is not certainly one (`EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Array(` keeps none: a
 * constructor in its class).
 */
function blankUnknown(words: readonly Word[], typed: boolean, blanks: Span[]): void {
  if (words.length === 0) return;
  let keep = -1;
  if (!typed) {
    for (let k = words.length - 1; k >= 0 && keep < 0; k--) if (!looksLikeAnnotation(words[k].text)) keep = k;
    for (let k = words.length - 1; k >= 0 && keep < 0; k--) if (!CERTAIN_ANNOTATION.test(words[k].text)) keep = k;
  }
  words.forEach((w, k) => {
    if (k !== keep) blanks.push(w);
  });
}

/**
 * Whether `at` is directly inside an enum's braces: the innermost `{` open before it follows
 * an `enum` head (`enum SpecialLocationType`, `enum class Mode : int`).
 */
function insideEnumBody(code: string, at: number): boolean {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const c = code[i];
    if (c === '}') depth++;
    else if (c === '{') {
      if (depth > 0) depth--;
      else return /\benum\b[^;{}()]*$/.test(code.slice(Math.max(0, i - ENUM_HEAD_CHARS_MAX), i));
    }
  }
  return false;
}

/** Characters before an enum's `{` its head may take (`enum class JUCE_API Name : std::uint8_t`). */
const ENUM_HEAD_CHARS_MAX = 200;

function braceBalance(code: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n += code[i] === '{' ? 1 : code[i] === '}' ? -1 : 0;
  return n;
}

/** An access label (`public:`), after which a conditional holds members, not part of a head. */
const ACCESS_LABEL = /^\s*(?:public|private|protected)\s*:\s*$/;

/**
 * A class head's start before a conditional: the tag and name, no parentheses (`template<typename
 * Derived> class DenseBase`), or the tag alone (abseil's `class` ⏎ `#if …` ⏎ `alignas(unsigned
 * __int128)` ⏎ `#endif` ⏎ `uint128 {`).
 */
const CLASS_HEAD_START = /(?:^|[\s>])(?:class|struct|union)(?:\s+[A-Za-z_]\w*[^()]*)?\s*$/;

/**
 * Whether a conditional (of one branch or more) sits inside a class head: no branch holds a brace, a `;` or a
 * directive (so each is a piece of the head, a base clause), the code since the last `;`,
 * `{` or `}` before it starts a class head (no `=`; not a macro's body), and a `{` ends what
 * follows it before any `;` or `}`. A function's head split so (Eigen's `#ifdef
 * EIGEN_PARSED_BY_DOXYGEN` ⏎ `inline unspecified_expression_type` ⏎ `#else` ⏎ the real
 * return type) is left alone: its first branch is the documentation's, which the grammar
 * misread as a function owned by that type.
 */
function splitsHead(
  code: string,
  starts: readonly number[],
  lineEnd: (line: number) => number,
  b: ConditionalBlock,
): boolean {
  const inside = code.slice(starts[b.branches[0].line], lineEnd(b.endif));
  if (/[{};]/.test(inside)) return false;
  const directives = inside.split('\n').filter((l) => /^\s*#/.test(l)).length;
  if (directives !== b.branches.length + 1) return false;
  const lines = headLinesBefore(code, starts[b.branches[0].line]);
  if (lines === undefined) return false;
  const before = lines.join('\n');
  if (lines.some((l) => /\\\s*$/.test(l)) || before.includes('=') || ACCESS_LABEL.test(before)) return false;
  if (!CLASS_HEAD_START.test(before)) return false;
  const after = /[{};]/.exec(code.slice(lineEnd(b.endif), lineEnd(b.endif) + HEAD_CHARS_MAX));
  return after?.[0] === '{';
}

/**
 * Whether a conditional sits inside an if-chain: its first branch starts with `else` (it
 * continues an `if` before it: the kernel's `#ifdef CONFIG_F2FS_STAT_FS` ⏎ `else if (…)`), or
 * an `else` is the first code after its `#endif` (its `if` is inside the branches). Blocks
 * of a chain are kept together: each one's directives alone would still break it.
 */
function elseFollows(
  code: string,
  starts: readonly number[],
  lineEnd: (line: number) => number,
  b: ConditionalBlock,
): boolean {
  const first = b.branches[0];
  if (first.end > first.line + 1 && /^\s*else\b/.test(code.slice(starts[first.line + 1], lineEnd(first.end - 1))))
    return true;
  return /^\s*else\b/.test(code.slice(lineEnd(b.endif), lineEnd(b.endif) + HEAD_CHARS_MAX));
}

/**
 * Whether each branch of a conditional holds a whole function head and one body follows the
 * `#endif` (`#ifdef CONFIG_X` ⏎ `static int f(int a, int b)` ⏎ `#else` ⏎ `static int f(int
 * a)` ⏎ `#endif` ⏎ `{`): the grammar read two prototypes and a stray block, and the function
 * was lost. Each branch ends with its parameter list's `)`, holds no `;`, brace or `=`, and
 * what precedes the block since the last `;` or brace is at most the start of a head (no
 * parenthesis, no macro body). Eigen's head split after its return type (c-eigen.test.ts)
 * has no parameters in its branches and stays with splitsHead's rule.
 */
function alternativeFunctionHeads(
  code: string,
  starts: readonly number[],
  lineEnd: (line: number) => number,
  b: ConditionalBlock,
): boolean {
  for (const branch of b.branches) {
    if (branch.end <= branch.line + 1) return false;
    const text = code.slice(starts[branch.line + 1], lineEnd(branch.end - 1));
    if (/[{};=#]/.test(text) || !/\)\s*$/.test(text) || !/[A-Za-z_]\w*\s*\(/.test(text)) return false;
  }
  const lines = headLinesBefore(code, starts[b.branches[0].line]);
  if (lines === undefined) return false;
  const before = lines.join('\n');
  if (/[()=\\]/.test(before)) return false;
  return /^\s*\{/.test(code.slice(lineEnd(b.endif), lineEnd(b.endif) + HEAD_CHARS_MAX));
}

/** Blocks of one condition a pairing may join, and the lines it may span. */
const PAIRED_BLOCKS_MAX = 8;
const PAIRED_LINES_MAX = 2000;

/**
 * Conditionals whose braces balance only together: a run of blocks of one directive and
 * condition (`#if USE_TCACHE`), the first opening braces, whose first branches' brace
 * counts stay open and then sum to zero within a few blocks. A preprocessor takes the first
 * branch of all of them or of none, and either way the code balances; the grammar wants each
 * block balanced alone. The kernel's ip_set_hash_gen.h opens a loop in `#if IPSET_NET_COUNT
 * == 2` (its `#else` opens none) and closes it in a later `#if IPSET_NET_COUNT == 2`.
 */
function pairedHalves(
  code: string,
  starts: readonly number[],
  lineEnd: (line: number) => number,
  blocks: readonly ConditionalBlock[],
): Set<ConditionalBlock> {
  const paired = new Set<ConditionalBlock>();
  const single = blocks
    .map((b) => ({
      b,
      key: `${b.directive} ${b.condition
        .replace(/\/\*.*?\*\/|\/\/.*$/g, '')
        .replace(/\s+/g, ' ')
        .trim()}`,
      // What the first branch holds: the lines a preprocessor taking the condition reads.
      balance: braceBalance(code, starts[b.branches[0].line], lineEnd(b.branches[0].end)),
    }))
    .sort((x, y) => x.b.branches[0].line - y.b.branches[0].line);
  for (let k = 0; k < single.length; k++) {
    const first = single[k];
    // A run starts with the half that opens: a block that only closes pairs with none after it.
    if (first.balance <= 0 || paired.has(first.b)) continue;
    const run = [first.b];
    let total = first.balance;
    for (let j = k + 1; j < single.length && run.length < PAIRED_BLOCKS_MAX; j++) {
      const next = single[j];
      if (next.b.branches[0].line - first.b.endif > PAIRED_LINES_MAX) break;
      // A block inside the first belongs to it (its braces are counted in the first's).
      if (next.b.branches[0].line < first.b.endif || next.key !== first.key || paired.has(next.b)) continue;
      run.push(next.b);
      total += next.balance;
      if (total <= 0) break;
    }
    if (total === 0 && run.length > 1) for (const b of run) paired.add(b);
  }
  return paired;
}

/** Characters a declaration head split by a conditional may take on either side of it. */
const HEAD_CHARS_MAX = 1000;

/**
 * Where the declaration holding `at` starts: the index of the `;` or brace before it (-1 at
 * the text's start), or undefined past HEAD_CHARS_MAX characters other than space. Masked
 * comments are space: abseil's `class` ⏎ `#if …` heads `uint128` below 40 lines of comment.
 */
function declarationStart(code: string, at: number): number | undefined {
  let i = at - 1;
  for (let n = 0; i >= 0 && !'{};'.includes(code[i]); i--) {
    if (code[i] !== ' ' && code[i] !== '\n' && code[i] !== '\t' && ++n > HEAD_CHARS_MAX) return undefined;
  }
  return i;
}

/** The lines of the declaration a conditional at `at` sits in, from its start to `at`, directives left out. */
function headLinesBefore(code: string, at: number): string[] | undefined {
  const i = declarationStart(code, at);
  if (i === undefined) return undefined;
  return code
    .slice(i + 1, at)
    .split('\n')
    .filter((l) => !/^\s*#/.test(l));
}

/**
 * Which branches of a conditional only a C++ compiler reads: the first of `#ifdef
 * __cplusplus`, `#if defined(__cplusplus)`, `#if __cplusplus >= 201103L` (also `&&` more),
 * the others of `#ifndef __cplusplus` and `#if !defined(__cplusplus)`; none when the
 * condition says more (`||`).
 */
function cplusplusBranches(b: ConditionalBlock): number[] {
  const cond = b.condition.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim();
  if (cond.includes('||')) return [];
  const positive = /^(?:defined\s*\(\s*__cplusplus\s*\)|defined\s+__cplusplus\b|__cplusplus\b)/;
  const negative = /^!\s*(?:defined\s*\(\s*__cplusplus\s*\)|defined\s+__cplusplus\b)\s*$/;
  if ((b.directive === 'ifdef' && cond === '__cplusplus') || (b.directive === 'if' && positive.test(cond))) return [0];
  if ((b.directive === 'ifndef' && cond === '__cplusplus') || (b.directive === 'if' && negative.test(cond)))
    return b.branches.map((_, k) => k).slice(1);
  return [];
}

/** A tag keyword at a line's start (after a template head or `typedef`). */
const TAG_START = /^[ \t]*(?:template[ \t]*<[^>\n]*>[ \t]*)?(?:typedef[ \t]+)?(?:class|struct|union|enum)[ \t]+/gm;
/** Words a tag head may hold between the keyword and the name. */
const HEAD_WORDS_MAX = 6;

/**
 * Annotation macros between a tag keyword and the tag's name blanked, in a text about to be
 * parsed: `class SPDLOG_API logger {`, `struct __packed pucan_command {`. The grammars read
 * such a head without any error as a function named after the tag whose return type is
 * `class SPDLOG_API` and whose body is the class body: the class and its members vanish
 * silently, and no repair is tried on a tree without errors. A head counts only when a
 * body or a base list follows its name (`{`, `:`, `final`, possibly on the next line), so
 * `struct __kernel_timespec ts;` and `struct FOO_T x = …` are left alone, and only when
 * every word before the name looks like an annotation; grammar-native attributes
 * (`__attribute__((packed))`, `alignas(8)`, `__declspec(dllexport)`) are kept.
 */
export function blankTagAnnotations(text: string): string {
  const code = maskCode(text);
  const blanks: Span[] = [];
  for (const m of code.matchAll(TAG_START)) {
    const words: Span[] = [];
    let i = m.index + m[0].length;
    let opensBody = false;
    for (let n = 0; n <= HEAD_WORDS_MAX && isWordStart(code[i]); n++) {
      let j = i;
      while (j < code.length && /\w/.test(code[j])) j++;
      const word = code.slice(i, j);
      if (word === 'final' && words.length > 0) {
        opensBody = true;
        break;
      }
      let end = j;
      const next = skipSpace(code, j, false);
      if (code[next] === '(') {
        end = groupEnd(code, next, '(', ')', 200);
        if (end < 0) break;
      } else if (code[next] === '<') {
        // A specialization's arguments after its name: googletest's `template <>` ⏎ `class
        // GTEST_API_ Matcher<const std::string&>` ⏎ `: public …` (four classes lost, a C++ trial).
        end = groupEnd(code, next, '<', '>', TEMPLATE_ARGS_CHARS_MAX);
        if (end < 0) break;
      }
      words.push({ start: i, end });
      i = skipSpace(code, end, true);
      if (code[i] === '{' || (code[i] === ':' && code[i + 1] !== ':')) {
        opensBody = true;
        break;
      }
    }
    // The last word is the name; every one before it must be an annotation.
    if (!opensBody || words.length < 2) continue;
    const before = words.slice(0, -1);
    const wordOf = (w: Span) => /^\w+/.exec(code.slice(w.start, w.end))![0];
    if (code.slice(words[words.length - 1].start, words[words.length - 1].end).includes('(')) continue;
    if (!before.every((w) => looksLikeAnnotation(wordOf(w)) || NATIVE_ATTRIBUTES.has(wordOf(w)))) continue;
    for (const w of before) if (!NATIVE_ATTRIBUTES.has(wordOf(w))) blanks.push(w);
  }
  return applyBlanks(text, blanks);
}

/** `text` with the spans (in any order, overlapping or not) blanked, line breaks kept. */
function applyBlanks(text: string, blanks: readonly Span[]): string {
  if (blanks.length === 0) return text;
  const sorted = [...blanks].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let done = 0;
  for (const b of sorted) {
    const from = Math.max(b.start, done);
    const to = Math.min(b.end, text.length);
    if (to <= from) continue;
    parts.push(text.slice(done, from), spacesFor(text.slice(from, to), true));
    done = to;
  }
  parts.push(text.slice(done));
  return parts.join('');
}

/** `enum : GLenum` ⏎ `{`: an anonymous enum's underlying type, which tree-sitter-cpp cannot read. */
const ANONYMOUS_ENUM_BASE = /^(\s*(?:typedef\s+)?enum\s*)(:\s*[A-Za-z_][\w:]*)\s*(?:\{|$)/;
/** `(KHRONOS_APIENTRY* const& glCullFace) (`: a calling-convention macro in a function pointer's declarator. */
const DECLARATOR_CONVENTION = /\(\s*([A-Z][A-Z0-9]*_[A-Z0-9_]*)\s*\*\s*(?:const\s*)?&?\s*[A-Za-z_]\w*\s*\)\s*\(/g;

/**
 * C++ heads the grammar cannot read, anywhere in a tree with errors (each shape is one the
 * grammar never reads, and repairs run once a round): an anonymous enum's base type and a
 * calling convention inside a function pointer's parentheses (JUCE's OpenGL headers: 12,000
 * lines lost to `enum : GLenum` and `(KHRONOS_APIENTRY* const& glHint)`).
 */
function blankCppHeads(
  code: string,
  starts: readonly number[],
  lineEnd: (line: number) => number,
  blanks: Span[],
): void {
  for (let line = 0; line < starts.length; line++) {
    const text = code.slice(starts[line], lineEnd(line));
    if (!text.includes('enum') && !text.includes('*')) continue;
    const e = ANONYMOUS_ENUM_BASE.exec(text);
    if (e) blanks.push({ start: starts[line] + e[1].length, end: starts[line] + e[1].length + e[2].length });
    for (const m of text.matchAll(DECLARATOR_CONVENTION)) {
      const at = starts[line] + m.index + m[0].indexOf(m[1]);
      blanks.push({ start: at, end: at + m[1].length });
    }
  }
}

/**
 * Block comments inside a `#define` with more of its body after them (the kernel's `long
 * __ret = ret;`, then the comment `explicit shadow`, then `\` and the rest): the grammars
 * end the macro at such a comment and read the rest of its body as statements (the kernel's
 * `___wait_event` spanned 5 of its 23 lines, and `map` listed a variable and a prototype
 * from inside `kstrto_from_user`; an agent trial). Every comment of a macro is blanked,
 * except a `\` that ends a line inside one, which still continues the macro. A comment is
 * space to a compiler, so this runs before every parse (c-family.ts prepare), not as a
 * repair that a worse rewrite elsewhere in the file could undo.
 */
export function blankMacroComments(text: string): string {
  // Macros found in the raw text first: only a file with a comment opener inside one pays
  // for maskCode (1,272 of 7,809 kernel files under include/ and fs/; 0.9 s of 80 MB masked
  // whole, 0.1 s so).
  const raw = macroSpans(text);
  if (!raw.some(commentOpenerWithin(text))) return text;
  const comments: Span[] = [];
  const code = maskCode(text, comments);
  // A `#define` inside a comment is none: its line's start is masked in the code.
  const macros = raw.filter((m) => code[text.indexOf('#', m.start)] === '#');
  const blanks: Span[] = [];
  let k = 0;
  for (const c of comments) {
    while (k < macros.length && macros[k].end <= c.start) k++;
    if (k === macros.length) break;
    if (c.start < macros[k].start) continue;
    // Line by line: the line breaks stay, and so does a `\` (and a CR) ending a line.
    for (let from = c.start; from < c.end;) {
      const eol = text.indexOf('\n', from);
      const to = eol < 0 || eol > c.end ? c.end : eol;
      const kept = to === eol ? (/\\\r?$/.exec(text.slice(from, to))?.[0].length ?? 0) : 0;
      if (to - kept > from) blanks.push({ start: from, end: to - kept });
      from = to + 1;
    }
  }
  return applyBlanks(text, blanks);
}

/** Whether the line ending at `eol` (a `\n`) ends with `\`, blanks after it allowed. */
function endsWithBackslash(text: string, eol: number): boolean {
  let i = eol - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i--;
  return i >= 0 && text[i] === '\\';
}

/** A definition macro's name: capitals holding `DEFINE`. */
const DEFINITION_MACRO = '[A-Z0-9_]*DEFINE[A-Z0-9_]*';
/**
 * A definition macro's head at a line's start: a name in capitals holding `DEFINE`
 * (`SYSCALL_DEFINE3`, `COMPAT_SYSCALL_DEFINE0`), `(`, and its first argument, a name.
 */
const DEFINITION_MACRO_HEAD = new RegExp(`^(${DEFINITION_MACRO})([ \\t]*\\()([ \\t]*)([A-Za-z_]\\w*)`, 'gm');
/** A definition macro's name alone (c-family.ts reads `SYSCALL_DEFINE0(sync) {` by it). */
export const DEFINITION_MACRO_NAME = new RegExp(`^${DEFINITION_MACRO}$`);
/** Lines a definition macro's arguments may run over. */
const DEFINITION_MACRO_LINES_MAX = 8;

/**
 * Functions defined through a macro whose call a block follows (`SYSCALL_DEFINE3(read,
 * unsigned int, fd, char __user *, buf, size_t, count)` ⏎ `{`), rewritten in place to the
 * head a grammar reads, `int read( … )` with the other arguments blanked: the function is
 * then a `function` named by the macro's first argument, with its body. Before, the grammar
 * read a call missing its `;` and a stray block: `map fs/read_write.c` listed none of its 28
 * syscalls, and the calls inside them had no enclosing definition (the C trial, 2026-12-06).
 */
export function rewriteDefinitionMacros(text: string): string {
  if (!text.includes('DEFINE')) return text;
  const blanks: Span[] = [];
  const heads: { at: number; text: string }[] = [];
  DEFINITION_MACRO_HEAD.lastIndex = 0;
  for (let m = DEFINITION_MACRO_HEAD.exec(text); m; m = DEFINITION_MACRO_HEAD.exec(text)) {
    const open = m.index + m[1].length + m[2].length - 1;
    const nameEnd = open + 1 + m[3].length + m[4].length;
    // A macro of no argument but the name (`SYSCALL_DEFINE0(sync)`) has no room for `()`
    // after the name in a same-length rewrite: the grammar reads it as a type and a
    // declarator `(sync)`, which c-family.ts refine takes as the function.
    if (!/^[ \t]*,/.test(text.slice(nameEnd, nameEnd + 40))) continue;
    const end = groupEnd(text, open, '(', ')', DEFINITION_MACRO_LINES_MAX * 120);
    if (end < 0 || text.slice(open, end).split('\n').length > DEFINITION_MACRO_LINES_MAX) continue;
    // A block follows: on the head's line or the next non-blank one.
    if (!/^[ \t]*(?:\r?\n[ \t]*)*\{/.test(text.slice(end, end + 200))) continue;
    // `SYSCALL_DEFINE3(` becomes `int` and spaces; `, unsigned int, fd, …` a `(` and spaces.
    heads.push({ at: m.index, text: 'int'.padEnd(m[1].length + m[2].length, ' ') });
    const comma = text.indexOf(',', nameEnd);
    heads.push({ at: comma, text: '(' });
    blanks.push({ start: comma + 1, end: end - 1 });
  }
  if (heads.length === 0) return text;
  let out = applyBlanks(text, blanks);
  for (const h of heads) out = out.slice(0, h.at) + h.text + out.slice(h.at + h.text.length);
  return out;
}

/** A `#define` at a line's start, anywhere in a text. */
const DEFINE_ANYWHERE = /^[ \t]*#[ \t]*define\b/gm;

/**
 * Each macro's span, from its `#define` to the end of its last line: a line ending in `\`
 * (before comments are seen, so inside one too) continues it.
 */
function macroSpans(text: string): Span[] {
  const out: Span[] = [];
  const defines = DEFINE_ANYWHERE;
  defines.lastIndex = 0;
  for (let m = defines.exec(text); m; m = defines.exec(text)) {
    let end = text.indexOf('\n', m.index);
    while (end >= 0 && endsWithBackslash(text, end)) end = text.indexOf('\n', end + 1);
    if (end < 0) end = text.length;
    out.push({ start: m.index, end });
    defines.lastIndex = Math.max(defines.lastIndex, end);
  }
  return out;
}

/**
 * A predicate over spans in source order: whether a `/*` opens inside the span. One forward
 * pass over the text for all spans together: a search per span from its start ran to the
 * next opener each time, quadratic in a header of thousands of `#define`s without comments
 * below them: the kernel's 24 MB `dcn_3_2_0_sh_mask.h` (one comment, at its top) extracted
 * in 59 s, now 5.9 s. Files that size are not indexed (FILE_MAX_BYTES), but one at that
 * bound paid the same curve at a 144th of it.
 */
function commentOpenerWithin(text: string): (span: Span) => boolean {
  let opener = -1;
  return (span) => {
    if (opener < span.start && opener !== Infinity) {
      const next = text.indexOf('/*', span.start);
      opener = next < 0 ? Infinity : next;
    }
    return opener < span.end;
  };
}

/** `dialect` c: what only a C++ compiler reads is blanked (`#ifdef __cplusplus` blocks); cpp: only the split `extern "C" {`. */
export function repairC(text: string, tree: Parser.Tree, dialect: 'c' | 'cpp' = 'c'): string {
  const code = maskCode(text);
  const starts = lineStartsOf(code);
  const lineEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1] - 1 : code.length);
  const blanks: Span[] = [];
  const blankLines = (from: number, to: number) => {
    if (from <= to) blanks.push({ start: starts[from], end: lineEnd(to) });
  };
  // As a preprocessor that takes the first branch: its lines kept, its directive, the other
  // branches and the `#endif` blanked.
  const keepFirstBranch = (b: ConditionalBlock) => {
    blankLines(b.branches[0].line, b.branches[0].line);
    blankLines(b.branches.length > 1 ? b.branches[1].line : b.endif, b.endif);
  };
  const { blocks, stray } = conditionals(code, starts, C_DIRECTIVES);
  for (const line of stray) blankLines(line, line);
  const halves = pairedHalves(code, starts, lineEnd, blocks);
  for (const b of blocks) {
    const body = (k: number) => ({ from: b.branches[k].line + 1, to: b.branches[k].end - 1 });
    const cplusplus = dialect === 'c' ? cplusplusBranches(b) : [];
    if (halves.has(b)) {
      // glibc's `_int_malloc`: `#if USE_TCACHE` … `else {` ⏎ `#endif`, the shared lines, then
      // `#if USE_TCACHE` ⏎ `}` ⏎ `#endif`. Each block alone is unbalanced and the grammar lost
      // the whole function; together they balance, so the first branches are kept without
      // their directives, as a preprocessor that takes the condition would.
      keepFirstBranch(b);
    } else if (cplusplus.length > 0) {
      // A C compiler never reads these lines: C++ overloads, `extern "C" {`, `#include <cstddef>`.
      for (const k of cplusplus) {
        const r = body(k);
        blankLines(r.from, r.to);
      }
    } else if (b.branches.length === 1 && /__cplusplus/.test(b.condition)) {
      // `#ifdef __cplusplus` / `extern "C" {` / `#endif`, and the `}` that closes it.
      const { from, to } = body(0);
      const lines = text
        .slice(starts[from] ?? 0, from <= to ? lineEnd(to) : starts[from])
        .split('\n')
        .map((l) => l.replace(/\r$/, ''))
        .filter((l) => l.trim() !== '');
      if (lines.length === 1 && /^\s*(extern\s+"C"\s*\{|\})\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(lines[0]))
        blankLines(from, to);
    } else if (
      b.branches.length === 1 &&
      braceBalance(code, starts[b.branches[0].line], lineEnd(b.endif)) === 0 &&
      insideEnumBody(code, starts[b.branches[0].line])
    ) {
      // Enumerators under `#if` (JUCE's `#if JUCE_WINDOWS` … `windowsLocalAppData` ⏎ `#endif`
      // ⏎ `};`): the grammar reads no directive in an enumerator list, and the enum, its
      // class and the rest of File.h were lost. Its lines are kept; the directives are blanked.
      blankLines(b.branches[0].line, b.branches[0].line);
      blankLines(b.endif, b.endif);
    } else if (
      b.branches.length > 1 &&
      b.branches.some((_, k) => {
        const r = body(k);
        return r.from <= r.to && braceBalance(code, starts[r.from], lineEnd(r.to)) !== 0;
      })
    ) {
      // Branches that each open the same brace: keep the first, as a preprocessor would one of
      // them, and drop the directives too (the grammar wants each branch balanced).
      keepFirstBranch(b);
    } else if (elseFollows(code, starts, lineEnd, b)) {
      // googletest's DefaultDeathTestFactory::Create: `#if GTEST_OS_WINDOWS` ⏎ `if (…) { … }`
      // ⏎ `#elif …` ⏎ `if (…) { … }` ⏎ `#else` ⏎ `if (…) { … }` ⏎ `#endif` ⏎ `else { … }`. The
      // grammar read a stray `else` and ended the function before it. The first branch is kept,
      // its directives blanked.
      keepFirstBranch(b);
    } else if (
      splitsHead(code, starts, lineEnd, b) ||
      (b.branches.length > 1 && alternativeFunctionHeads(code, starts, lineEnd, b))
    ) {
      // Eigen's `class DenseBase` ⏎ `#ifndef EIGEN_PARSED_BY_DOXYGEN` ⏎ `: public …` ⏎ `#else`
      // ⏎ `: public …` ⏎ `#endif` ⏎ `{`: the grammar reads no directive inside a head, and the
      // class was lost, its members read as free functions (an agent trial). The first
      // branch is kept, as a preprocessor would take one.
      keepFirstBranch(b);
    }
  }
  // `#error` and `#warning` in an enumerator list, which the grammar reads conditionals in
  // but no other directive: Eigen's `AlignmentType` ends `#else` ⏎ `#error Invalid value for
  // EIGEN_MAX_ALIGN_BYTES` ⏎ `#endif`, and the message's words became four enumerators.
  for (let line = 0; line < starts.length; line++)
    if (
      /^[ \t]*#[ \t]*(?:error|warning)\b/.test(code.slice(starts[line], lineEnd(line))) &&
      insideEnumBody(code, starts[line])
    )
      blankLines(line, line);
  // `__BEGIN_DECLS`, `G_END_DECLS`, `U_NAMESPACE_END` alone on a line: extern "C" and namespace
  // wrappers as macros; and `JUCE_DECLARE_NON_COPYABLE (Bus)` with no `;`, which expands to
  // members (an agent trial on JUCE: before a class's `};` it hid the class, and with it
  // AudioProcessor and half of Component's methods).
  const rows = treeErrors(tree).rows;
  const near = new Set(rows.flatMap((r) => [r - 1, r, r + 1]));
  for (let line = 0; line < starts.length; line++) {
    const m = /^([ \t]*)([A-Za-z_]\w*)[ \t]*(?:(\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\))[ \t]*|;?)[ \t]*$/.exec(
      code.slice(starts[line], lineEnd(line)),
    );
    if (!m || !looksLikeAnnotation(m[2])) continue;
    let prev = line - 1;
    while (prev >= 0 && code.slice(starts[prev], lineEnd(prev)).trim() === '') prev--;
    let next = line + 1;
    while (next < starts.length && code.slice(starts[next], lineEnd(next)).trim() === '') next++;
    const prevText = prev < 0 ? '' : code.slice(starts[prev], lineEnd(prev));
    const nextText = next < starts.length ? code.slice(starts[next], lineEnd(next)) : '';
    // A line a `\` continues is a macro's body, never a statement of its own.
    if (/\\\s*$/.test(prevText)) continue;
    if (m[3] !== undefined) {
      // In C++, a macro call without `;` is blanked before a closing brace or next to an
      // error (`JUCE_BEGIN_IGNORE_WARNINGS_GCC_LIKE ("-Wlanguage-extension-token")` above
      // a header's declarations): `FOREACH (x, list)` ⏎ `{` heads a loop where nothing errs.
      // Never in C, whose initializers and X-macro tables hold such calls
      // (`SET_RUNTIME_PM_OPS(suspend, resume)` before a `}`, `DEF_PCI_AC_RET(readb, u8, …)`
      // rows), each naming functions refs must find.
      if (dialect === 'c' || (!/^\s*\}/.test(nextText) && !near.has(line))) continue;
    } else {
      // Indented, a macro line is blanked next to an error, or where it opens a block or closes
      // one as a statement-like macro does (`SPDLOG_TRY` ⏎ `{` … `}` ⏎ `SPDLOG_CATCH_STD`).
      const statementMacro = /^\s*\{/.test(nextText) || (/\}\s*$/.test(prevText) && /^\s*\}/.test(nextText));
      if (m[1] !== '' && !near.has(line) && !statementMacro) continue;
    }
    if (prev < 0 || /[;{}:]\s*$|^\s*#/.test(prevText)) blankLines(line, line);
  }
  if (dialect === 'cpp') blankCppHeads(code, starts, lineEnd, blanks);
  for (const row of rows) {
    if (row >= starts.length) continue;
    // The head may start lines above (`static struct rq *⏎context_switch(…)`, `… *__param)⏎ __THROW;`,
    // Eigen's `EIGEN_STRONG_INLINE Derived &⏎ArrayBase<Derived>::operator-=(…)` and
    // `const CwiseBinaryOp<…>⏎igamma(…)`).
    const heads = [row];
    for (
      let up = row - 1;
      up >= 0 &&
      up >= row - HEAD_LINES_MAX &&
      /[\w*&,()>]\s*$/.test(code.slice(starts[up], lineEnd(up))) &&
      !/^\s*#/.test(code.slice(starts[up], lineEnd(up)));
      up--
    )
      heads.unshift(up);
    for (const line of heads) {
      if (/^[ \t]*#/.test(code.slice(starts[line], lineEnd(line)))) continue;
      fixRun(code, starts[line], blanks);
      // `class LLVM_ABI Foo : Base {`: an export macro between the tag and the name.
      const m = /\b(?:class|struct|union)\s+([A-Z_][A-Z0-9_]*)\s+(?=[A-Za-z_]\w*\s*(?:final\b|[:{]|$))/.exec(
        code.slice(starts[line], lineEnd(line)),
      );
      if (m)
        blanks.push({
          start: starts[line] + m.index + m[0].indexOf(m[1]),
          end: starts[line] + m.index + m[0].indexOf(m[1]) + m[1].length,
        });
    }
  }
  return applyBlanks(text, blanks);
}
