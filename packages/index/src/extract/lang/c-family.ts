// C and C++: one query over the node types the two grammars share (tree-sitter-cpp extends
// tree-sitter-c), C++ additions, and the hooks a query cannot express: a declarator's name
// lies at any depth (`char **names(void)`, `int (*fp)(int)`), a declaration without a body
// is a prototype rather than a definition, and preprocessor blocks, `extern "C"` and
// namespaces are transparent to scope.
import type Parser from 'tree-sitter';
import { EXTENSIONLESS_SNIFF_CHARS } from '../../limits';
import {
  rawImport,
  unquote,
  type LanguageSpec,
  type NameRange,
  type Node,
  type Prepared,
  type PreparedDef,
} from '../spec';
import {
  blankMacroComments,
  blankTagAnnotations,
  DEFINITION_MACRO_NAME,
  looksLikeAnnotation,
  MACRO_CASE,
  maskCode,
  repairC,
  rewriteDefinitionMacros,
} from './c-repair';
import { operatorName } from './operator-name';

const SHARED = `
(function_definition declarator: (_) @name) @def.function
(declaration declarator: (_) @name) @def.variable
(field_declaration declarator: (_) @name) @def.field
(type_definition declarator: (_) @name) @def.type
(struct_specifier name: (_) @name body: (_)) @def.struct
(union_specifier name: (_) @name body: (_)) @def.struct
(enum_specifier name: (_) @name body: (_)) @def.enum
(enumerator name: (identifier) @name) @def.variant
(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro
(preproc_include) @import
(preproc_params (identifier) @range.local)
(parameter_declaration declarator: (_) @range.local)
(compound_statement (declaration declarator: [(identifier) (pointer_declarator) (array_declarator)] @range.local))
(compound_statement (declaration declarator: (init_declarator declarator: (_) @range.local)))
(for_statement initializer: (declaration declarator: (init_declarator declarator: (_) @range.local)))
(call_expression function: (identifier) @role.call)
(call_expression function: (field_expression field: (field_identifier) @role.call))
`;

const CPP_ONLY = `
(class_specifier name: (_) @name body: (_)) @def.class
(namespace_definition name: (namespace_identifier) @name) @def.module
(namespace_definition name: (nested_namespace_specifier (namespace_identifier) @name .)) @def.module
(alias_declaration name: (type_identifier) @name) @def.type
(concept_definition name: (identifier) @name) @def.type
(for_range_loop declarator: (_) @range.local)
(call_expression function: (qualified_identifier name: (identifier) @role.call))
(call_expression function: (template_function name: (identifier) @role.call))
(new_expression type: (type_identifier) @role.call)
(qualified_identifier scope: (namespace_identifier) @role.module)
`;

/** Nodes that name what a declarator declares. */
const NAME_TYPES = new Set([
  'identifier',
  'field_identifier',
  'type_identifier',
  'namespace_identifier',
  'destructor_name',
  'operator_name',
]);
/** Declarators that wrap a name in pointer, array, function or grouping syntax. */
const WRAPPERS = new Set([
  'pointer_declarator',
  'array_declarator',
  'function_declarator',
  'init_declarator',
  'attributed_declarator',
  'parenthesized_declarator',
  'reference_declarator',
]);
const DECLARATOR_DEPTH_MAX = 32;

interface Declared {
  name: Node;
  owner: Node | null;
}

/** The name a declarator declares, and the scope it is qualified by (`Box<T>::get` → get, Box<T>). */
function declaredName(node: Node): Declared | null {
  let n: Node | null = node;
  let owner: Node | null = null;
  for (let depth = 0; n && depth < DECLARATOR_DEPTH_MAX; depth++) {
    // Each property of a node is a call into the binding: read the type once.
    const type: string = n.type;
    if (NAME_TYPES.has(type) || type === 'operator_cast') return { name: n, owner };
    if (type === 'qualified_identifier') {
      owner = n.childForFieldName('scope');
      n = n.childForFieldName('name');
    } else if (type === 'template_function' || type === 'template_type') n = n.childForFieldName('name');
    else if (WRAPPERS.has(type)) {
      const named: Node[] = n.namedChildren.filter(
        (c) => c.type !== 'ms_call_modifier' && c.type !== 'attribute_declaration' && c.type !== 'type_qualifier',
      );
      n =
        n.childForFieldName('declarator') ??
        (type === 'attributed_declarator' ? named[0] : named[named.length - 1]) ??
        null;
    } else return null;
  }
  return null;
}

/**
 * Whether a function's node lies in another function's body, no class between: C and C++
 * define no function there, so a bodiless one is a statement the grammar misread. abseil's
 * `growth_left() = 0;` at the end of `destroy_slots()`, after a template call it could not
 * read, was a function `destroy_slots::growth_left` that `show sym:growth_left` read first
 * (a trial). One with a body stays: the kernel's fair.c nests real functions so when a
 * brace before them is lost.
 */
function insideFunctionBody(item: Node): boolean {
  for (let n = item.parent; n; n = n.parent) {
    if (n.type === 'field_declaration_list' || n.type === 'declaration_list') return false;
    if (n.type === 'function_definition') return true;
  }
  return false;
}

/** Whether a function's parameters are two bare names, as a test macro's `(Suite, Name)` are. */
function isTestMacroHead(name: Node): boolean {
  const parameters = name.parent?.type === 'function_declarator' ? name.parent.childForFieldName('parameters') : null;
  return parameters !== null && /^\(\s*[A-Za-z_]\w*\s*,\s*[A-Za-z_]\w*\s*\)$/.test(parameters.text);
}

/** Whether the innermost declarator around a name is a function's (`int *f(void)` yes, `int (*f)(void)` no). */
function declaresFunction(name: Node): boolean {
  // A conversion operator (`operator bool() const`) holds its own parameters.
  if (name.type === 'operator_cast') return true;
  let n = name.parent;
  while (
    n &&
    (n.type === 'qualified_identifier' ||
      n.type === 'template_function' ||
      n.type === 'parenthesized_declarator' ||
      n.type === 'attributed_declarator')
  )
    n = n.parent;
  return n?.type === 'function_declarator';
}

/** The declaration inside `template <…>` heads. */
function itemOf(def: Node): Node {
  let n = def;
  while (n.type === 'template_declaration' && n.namedChildCount > 0) n = n.namedChildren[n.namedChildCount - 1];
  return n;
}

/** Blocks that do not open a scope of their own: a definition inside one is at the level around it. */
const TRANSPARENT = new Set([
  'preproc_if',
  'preproc_ifdef',
  'preproc_else',
  'preproc_elif',
  'preproc_elifdef',
  'linkage_specification',
  'declaration_list',
  'namespace_definition',
  'template_declaration',
  'export_declaration',
  'ERROR',
]);

/** File (or namespace) scope, a struct or class body, or anything local (a function body, parameters). */
function scopeOf(item: Node): 'file' | 'member' | 'local' {
  let n = item.parent;
  while (n && TRANSPARENT.has(n.type)) n = n.parent;
  if (!n || n.type === 'translation_unit') return 'file';
  return n.type === 'field_declaration_list' ? 'member' : 'local';
}

function hasSpecifier(item: Node, type: string, ...texts: string[]): boolean {
  return item.namedChildren.some((c) => c.type === type && texts.includes(c.text));
}

interface Scopes {
  readonly namespaces: Set<string>;
  readonly types: Set<string>;
}
const TYPE_SPECIFIERS = new Set(['class_specifier', 'struct_specifier', 'union_specifier']);

/** Names of the namespaces and types a file defines at namespace level, so `ns::f() {}` is a function of ns, `Point::norm() {}` a method. */
const scopeCache = new WeakMap<Parser.Tree, Scopes>();
function scopesOf(tree: Parser.Tree): Scopes {
  let scopes = scopeCache.get(tree);
  if (scopes) return scopes;
  scopes = { namespaces: new Set(), types: new Set() };
  const stack = [tree.rootNode];
  for (let n = stack.pop(); n; n = stack.pop()) {
    for (const c of n.namedChildren) {
      if (c.type === 'namespace_definition')
        for (const id of c.childForFieldName('name')?.text.split('::') ?? []) scopes.namespaces.add(id.trim());
      const spec = c.type === 'template_declaration' ? itemOf(c) : c;
      if (TYPE_SPECIFIERS.has(spec.type)) {
        const name = spec.childForFieldName('name')?.text;
        if (name) scopes.types.add(name.replace(/<[\s\S]*$/, ''));
      }
      if (TRANSPARENT.has(c.type)) stack.push(c);
    }
  }
  scopeCache.set(tree, scopes);
  return scopes;
}

/**
 * Whether `A::f() {…}` defines a function of namespace A rather than a method of type A:
 * A is a namespace this file defines, not a type it defines, or else named the way
 * namespaces are (lower case: `detail`, `llvm`; a class is `Point`, a template `Box<T>`).
 */
function qualifiesByNamespace(scope: Node, tree: Parser.Tree): boolean {
  if (scope.type === 'template_type') return false;
  const name = scope.text.split('::').pop()!.trim();
  const { namespaces, types } = scopesOf(tree);
  if (namespaces.has(name)) return true;
  if (types.has(name)) return false;
  return /^[a-z]/.test(name);
}

/** Kinds whose definitions never stand in a `template <…>` head: their parent is not read (a call into the binding per macro). */
const UNTEMPLATED_KINDS = new Set(['macro', 'variant']);

function locate(def: Node, name: Node, kind: string): { def: Node; name: Node; owner: Node | null } | null {
  const declared = declaredName(name);
  // A name the parser had to invent (`static DEFINE_PER_CPU(int, x);`) names nothing.
  if (!declared || declared.name.isMissing || declared.name.text === '') return null;
  let whole = def;
  if (!UNTEMPLATED_KINDS.has(kind)) while (whole.parent?.type === 'template_declaration') whole = whole.parent;
  return { def: whole, name: sizedTypeName(declared.name) ?? declared.name, owner: declared.owner };
}

/**
 * The kernel's layout macros written after a tag's body (`__packed`, `__randomize_layout`,
 * `____cacheline_aligned_in_smp`, `__compat_packed`); besides them only MACRO_CASE names
 * there are annotations (googletest's `GTEST_ATTRIBUTE_UNUSED_`). A reserved name of another
 * kind is a name (glibc's `union { … } __space;`).
 */
const KERNEL_LAYOUT_ANNOTATION = /^__\w*(?:packed|align|randomize_layout)\w*$/;

/**
 * `class ABSL_MUST_USE_RESULT StatusOr;`: a forward declaration of a class with an annotation
 * macro between `class` and the name, which the grammar reads as a variable `StatusOr` of type
 * `class ABSL_MUST_USE_RESULT` (`map statusor.h` listed it so, an abseil trial).
 */
function isAnnotatedForwardDeclaration(item: Node): boolean {
  const type = item.childForFieldName('type');
  // `class` only: `struct FOO_T x;` declares a variable x of a type named in capitals.
  if (type?.type !== 'class_specifier' || type.childForFieldName('body')) return false;
  const tag = type.childForFieldName('name');
  return tag !== null && MACRO_CASE.test(tag.text);
}

/**
 * `class ScopedTrace { … } GTEST_ATTRIBUTE_UNUSED_;`: an annotation macro after a tag's body,
 * which the grammar reads as a variable (or a field) of that type. googletest writes it after
 * five classes (`map gtest.h` listed a variable `GTEST_ATTRIBUTE_UNUSED_`, a C++ trial); 7,201
 * kernel files held 218 such variables and fields, 146 of them `__packed`.
 */
function namesAnnotationAfterBody(item: Node, name: Node): boolean {
  if (name.type !== 'identifier' && name.type !== 'field_identifier') return false;
  if (!(MACRO_CASE.test(name.text) || KERNEL_LAYOUT_ANNOTATION.test(name.text)) || name.parent?.id !== item.id)
    return false;
  const type = item.childForFieldName('type');
  return type?.childForFieldName('body') != null;
}

/**
 * The name in `unsigned long max_pfn __ro_after_init;`, which the grammar reads without an
 * error as a sized type `unsigned long max_pfn` and a variable `__ro_after_init` (the
 * kernel's annotations after a name: c-repair.ts reads the other shapes). Undefined when the
 * declarator does not look like an annotation or the type holds no name.
 */
function sizedTypeName(name: Node): Node | undefined {
  if (name.type !== 'identifier' || !looksLikeAnnotation(name.text)) return undefined;
  const declarator = name.parent?.type === 'init_declarator' ? name.parent : name;
  const declaration = declarator.parent;
  if (declaration?.type !== 'declaration') return undefined;
  const type = declaration.childForFieldName('type');
  const inner = type?.type === 'sized_type_specifier' ? type.childForFieldName('type') : null;
  return inner?.type === 'type_identifier' && !looksLikeAnnotation(inner.text) ? inner : undefined;
}

/**
 * `#define X_H` (or `#define X_H 1`) right inside the `#ifndef X_H` it guards: no
 * definition. A conditional holding `#define X 1` alone is a default a build may override
 * (`#ifndef JUCE_USE_FLAC` / ` #define JUCE_USE_FLAC 1` / `#endif`), a definition: an agent
 * trial on JUCE found its 299 such defaults missing, `show sym:JUCE_USE_FLAC` answering
 * no_definition. Without a value it stays a guard (an empty header's).
 */
function isIncludeGuard(def: Node): boolean {
  if (def.type !== 'preproc_def') return false;
  // The value first: most macros have one, and then their parent is never read.
  const value = def.childForFieldName('value')?.text.trim();
  if (value !== undefined && value !== '1') return false;
  const parent = def.parent;
  if (!parent) return false;
  const guard = parent.childForFieldName('name') ?? parent.childForFieldName('condition');
  const name = def.childForFieldName('name')?.text;
  if (
    !(parent.type === 'preproc_ifdef' || parent.type === 'preproc_if') ||
    !name ||
    !guard ||
    !guard.text.includes(name)
  )
    return false;
  if (value === undefined) return true;
  for (let i = 0; i < parent.namedChildCount; i++) {
    const child = parent.namedChild(i);
    if (
      child &&
      child.startIndex !== def.startIndex &&
      child.startIndex !== guard.startIndex &&
      child.type !== 'comment'
    )
      return true;
  }
  return false;
}

function qualified(name: Node): Node | null {
  const p = name.parent;
  return p?.type === 'qualified_identifier' ? p : null;
}

/** `SYSCALL_DEFINE0(sync) {…}` as the grammar reads it: a `…DEFINE…` type, the name in parentheses. */
function definesThroughMacro(item: Node, name: Node): boolean {
  const type = item.childForFieldName('type');
  return (
    type?.type === 'type_identifier' &&
    DEFINITION_MACRO_NAME.test(type.text) &&
    name.parent?.type === 'parenthesized_declarator' &&
    name.parent.parent?.id === item.id
  );
}

/**
 * `extern T name;`, `extern "C" T name;`: a variable defined in another translation unit (or
 * in a linker script: the kernel's `extern char _stext[];`), unless the declarator
 * initializes it, which makes it the definition. Without them abseil's headers-only tree had
 * no `kEmptyGroup` at all (`show sym:kEmptyGroup` answered `no_definition`, an agent trial).
 */
function declaresExternally(item: Node, name: Node): boolean {
  if (!hasSpecifier(item, 'storage_class_specifier', 'extern') && item.parent?.type !== 'linkage_specification')
    return false;
  for (let n: Node | null = name; n && n.id !== item.id; n = n.parent) if (n.type === 'init_declarator') return false;
  return true;
}

/**
 * Definitions versus declarations: a function with a body is a `function` (`method` when
 * qualified by a type, `Point::norm`), one without is a `prototype`; a file-scope variable
 * is a definition, `extern` an `extern` declaration (declaresExternally); a typedef of an
 * anonymous struct or enum is that struct.
 */
function refine(def: Node, kind: string, name: Node): string | null {
  const item = itemOf(def);
  // A macro call the grammar read as a declaration names a keyword (googletest's
  // `GTEST_IMPL_FORMAT_C_STRING_AS_POINTER_(char);` was a variable `char`, a C++ trial).
  if (RESERVED_NAMES.has(name.text) && kind !== 'macro' && kind !== 'type') return null;
  if (
    (kind === 'variable' || kind === 'field') &&
    (namesAnnotationAfterBody(item, name) || isAnnotatedForwardDeclaration(item))
  )
    return null;
  switch (kind) {
    case 'function': {
      // A head the grammar misread (`__sched schedule(void)`) declares no function, except a
      // definition macro of its name alone (`SYSCALL_DEFINE0(sync) {`: the grammar reads a
      // type `SYSCALL_DEFINE0` and a declarator `(sync)`), which rewriteDefinitionMacros
      // leaves to the grammar.
      if (!declaresFunction(name) && !definesThroughMacro(item, name)) return null;
      if (item.childForFieldName('body')?.type !== 'compound_statement' && insideFunctionBody(item)) return null;
      // `TEST(Suite, Name) {`: testMacroDefinitions reads it as the test it defines.
      if (TEST_MACRO_NAME.test(name.text) && isTestMacroHead(name)) return null;
      const scope = qualified(name)?.childForFieldName('scope');
      if (!scope) return 'function';
      return qualifiesByNamespace(scope, name.tree) ? 'function' : 'method';
    }
    case 'variable': {
      if (item.parent?.type === 'friend_declaration') return null;
      const scope = scopeOf(item);
      if (declaresFunction(name)) return scope === 'local' ? null : 'prototype';
      if (scope !== 'file') return null;
      // `asmlinkage __visible⟨;⟩`: an annotation the grammar took for a variable, ended by an invented `;`.
      if (item.lastChild?.isMissing) return null;
      if (declaresExternally(item, name)) return 'extern';
      const pointer = (() => {
        for (let n = name.parent; n && n.id !== item.id; n = n.parent) if (n.type === 'pointer_declarator') return true;
        return false;
      })();
      return !pointer && hasSpecifier(item, 'type_qualifier', 'const', 'constexpr') ? 'constant' : 'variable';
    }
    case 'field':
      if (scopeOf(item) === 'local') return null;
      return declaresFunction(name) ? 'prototype' : 'field';
    case 'type': {
      if (scopeOf(item) === 'local') return null;
      const body = item.childForFieldName('type');
      // Nodes compare by id: the binding may hand out a new wrapper for the same node, and
      // whether it did depended on what was parsed before (a file's kinds changed between
      // two extractions of the same bytes in one process).
      if (name.parent?.id === item.id && body && !body.childForFieldName('name') && body.childForFieldName('body')) {
        return body.type === 'enum_specifier'
          ? 'enum'
          : body.type === 'struct_specifier' || body.type === 'union_specifier' || body.type === 'class_specifier'
            ? body.type === 'class_specifier'
              ? 'class'
              : 'struct'
            : 'type';
      }
      return 'type';
    }
    case 'macro':
      return isIncludeGuard(def) ? null : 'macro';
    default:
      return kind;
  }
}

/** `#include "a/b.h"` → spelled `a/b.h`; `#include <linux/sched.h>` keeps its brackets, so resolution knows it was a system include. */
function imports(statement: Node) {
  const p = statement.childForFieldName('path');
  if (!p || (p.type !== 'string_literal' && p.type !== 'system_lib_string')) return [];
  return [rawImport(statement, p.type === 'string_literal' ? unquote(p.text) : p.text, '*')];
}

// Markers of C++ a C header never holds (outside comments): the grammar for a `.h` file.
// A class or namespace head alone on its line counts too: Allman braces put the `{` below
// (JUCE's `namespace juce` ⏎ `{`, `class JUCE_API  Component` ⏎ `{`).
const CPP_LINE =
  /^\s*(?:(?:class|namespace)\s+[A-Za-z_][\w:]*\s*(?:final\s*)?[:{]|(?:namespace|class(?:\s+[A-Z][A-Z0-9_]*)?)\s+[A-Za-z_][\w:]*\s*$|namespace\s*\{|template\s*<|(?:public|private|protected)\s*:|using\s+namespace\b|#\s*include\s*<[a-z_]+>)|[A-Za-z_>]::[A-Za-z_~*]/;

/**
 * Whether a C-named file (`.h`, also `.c`) is C++ by its syntax: a class or namespace,
 * a template, an access label, `using namespace`, a standard header without extension, or
 * a `::` qualified name outside comments, strings and `#if … __cplusplus` blocks (a C
 * header's `#include <cstddef>` or C++ overloads for C++ includers).
 */
export function looksLikeCpp(text: string): boolean {
  let inComment = false;
  // Per open conditional: whether its lines are skipped (it, or one around it, tests __cplusplus).
  const skipped: boolean[] = [];
  for (const raw of text.split('\n')) {
    let line = raw;
    const directive = /^\s*#\s*(if|ifdef|ifndef|endif)\b(.*)/.exec(line);
    if (directive && !inComment) {
      if (directive[1] === 'endif') skipped.pop();
      else skipped.push(skipped[skipped.length - 1] === true || directive[2].includes('__cplusplus'));
      continue;
    }
    if (skipped[skipped.length - 1]) continue;
    if (inComment) {
      const close = line.indexOf('*/');
      if (close < 0) continue;
      line = line.slice(close + 2);
      inComment = false;
    }
    line = line
      .replace(/\/\*.*?\*\//g, ' ')
      .replace(/"(?:[^"\\]|\\.)*"/g, '""')
      .replace(/\/\/.*$/, '');
    const open = line.indexOf('/*');
    if (open >= 0) {
      inComment = true;
      line = line.slice(0, open);
    }
    if (CPP_LINE.test(line)) return true;
  }
  return false;
}

/** The first `count` lines of a C text that are neither blank nor comment, trimmed, comments cut out. */
function significantLines(text: string, count: number): string[] {
  const out: string[] = [];
  let inComment = false;
  for (const raw of text.split('\n')) {
    let line = raw;
    if (inComment) {
      const close = line.indexOf('*/');
      if (close < 0) continue;
      line = line.slice(close + 2);
      inComment = false;
    }
    line = line.replace(/\/\*.*?\*\//g, ' ').replace(/\/\/.*$/, '');
    const open = line.indexOf('/*');
    if (open >= 0) {
      inComment = true;
      line = line.slice(0, open);
    }
    line = line.trim();
    if (line === '') continue;
    out.push(line);
    if (out.length === count) break;
  }
  return out;
}

// What a C or C++ header opens with, after its comments. `#include` with a quoted or
// bracketed name, a `#pragma` (`once`; libstdc++'s `cassert` opens with
// `#pragma GCC system_header`), an include guard (`#ifndef X` or `#if !defined(X)`, then
// `#define X`), or a C++ head: `namespace`, `template <`, a class with a brace or an access
// base. Each is a line no Makefile, shell script, Dockerfile or prose begins with: `#` is
// their comment, but never followed by a directive's word with no space (Python's
// `class Foo:` has no base after its colon).
const OPENING_INCLUDE = /^#\s*include\s*(?:<[^>]+>|"[^"]+")/;
const OPENING_PRAGMA = /^#\s*pragma\s+\w/;
const OPENING_GUARD = /^#\s*(?:ifndef\s+([A-Za-z_]\w*)|if\s+!\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?)\s*$/;
const OPENING_CPP =
  /^(?:namespace\s+[A-Za-z_][\w:]*\s*\{|namespace\s*\{|template\s*<|(?:class|struct)\s+[A-Za-z_]\w*(?:\s+final)?\s*(?:\{|:\s*(?:(?:public|protected|private|virtual)\s+)*[A-Za-z_][\w:]*))/;
const GUARD_DEFINE = /^#\s*define\s+([A-Za-z_]\w*)(?:\s|$)/;
// A head whose `{` is on the next line (Allman braces).
const OPENING_CPP_HEAD = /^(?:namespace|class|struct)\s+[A-Za-z_][\w:]*\s*$/;

/**
 * Whether the text of a file without extension is C or C++ source: a C++ header named
 * like the standard's (Eigen's `Eigen/Core`, libstdc++'s `vector`, Qt's forwarding
 * headers). Only its opening decides, within EXTENSIONLESS_SNIFF_CHARS: its first line
 * that is neither blank nor comment is one of OPENING_*, and a script with a shebang never
 * is. A file that opens otherwise (a header whose first directive is `#define` or `#if`)
 * stays text: a prose file taken for C would get an outline of nonsense, a missed header
 * is still searched as text.
 */
export function looksLikeCSource(text: string): boolean {
  const head = text.slice(0, EXTENSIONLESS_SNIFF_CHARS).replace(/^\uFEFF/, '');
  if (head.startsWith('#!')) return false;
  const [first, second = ''] = significantLines(head, 2);
  if (first === undefined) return false;
  if (OPENING_INCLUDE.test(first) || OPENING_PRAGMA.test(first) || OPENING_CPP.test(first)) return true;
  if (OPENING_CPP_HEAD.test(first)) return second.startsWith('{');
  const guard = OPENING_GUARD.exec(first);
  if (!guard) return false;
  return GUARD_DEFINE.exec(second)?.[1] === (guard[1] ?? guard[2]);
}

// An `#include` of a header named without extension, quoted or bracketed, any directories before it.
const INCLUDE_EXTENSIONLESS = /^\s*#\s*include\s*[<"](?:[^>"]*\/)?[^>"./]+[>"]/m;

/**
 * The language of a file without extension by its bytes (the rule of docs/languages.md):
 * text unless looksLikeCSource; then C++ when looksLikeCpp or when it includes a header
 * named without extension. Headers without extension are C++'s convention (its standard
 * library's, Eigen's modules, Qt's): Eigen's `Eigen/Dense` is nothing but
 * `#include "Core"` lines, which looksLikeCpp alone took for C.
 */
export function extensionlessLanguage(text: string): 'c' | 'cpp' | 'text' {
  if (!looksLikeCSource(text)) return 'text';
  return looksLikeCpp(text) || INCLUDE_EXTENSIONLESS.test(text) ? 'cpp' : 'c';
}

/**
 * The text as parsed (c-repair.ts): comments inside macros and annotation macros in tag
 * heads blanked, functions defined through a `…DEFINE…(name, …)` macro given a C head.
 */
function prepare(text: string): Prepared {
  return {
    text: blankTagAnnotations(blankMacroComments(rewriteDefinitionMacros(unparenthesizedMinMax(text)))),
    defs: testMacroDefinitions(text),
    typeIds: [],
  };
}

/** `(min)(` and `(max)(`: names parenthesized so that Windows' `min`/`max` macros do not expand. */
const PARENTHESIZED_MIN_MAX = /\((min|max)\)(?=\s*\()/g;

/**
 * `static constexpr uint128 (min)() { … }` read as `uint128 min () { … }`: the grammar took
 * the type for the function's name and `(min)` for its parameters (abseil's numeric_limits
 * specializations listed `function absl::uint128` twice). The parentheses become spaces, a
 * call `(std::min)(a, b)` is the same call, and no cast names `min`.
 */
function unparenthesizedMinMax(text: string): string {
  if (!text.includes('(min)') && !text.includes('(max)')) return text;
  return text.replace(PARENTHESIZED_MIN_MAX, ' $1 ');
}

/**
 * A test macro's name: capitals ending in `TEST`, or `TEST_` and one letter (googletest's
 * `TEST`, `TEST_F`, `TEST_P`, `TYPED_TEST_P`, `GTEST_TEST`; Chromium's `IN_PROC_BROWSER_TEST_F`).
 */
const TEST_MACRO = '(?:[A-Z][A-Z0-9]*_)*TEST(?:_[A-Z])?';
/** A test macro's head at a line's start: its name, `(Suite, Name)` and the body's `{`. */
const TEST_HEAD = new RegExp(
  `^[ \\t]*(${TEST_MACRO})[ \\t]*\\([ \\t]*([A-Za-z_]\\w*)[ \\t]*,[ \\t]*([A-Za-z_]\\w*)[ \\t]*\\)[ \\t]*(?:\\r?\\n[ \\t]*)?\\{`,
  'gm',
);
/** A function the grammar read from a test macro's head: `TEST(Suite, Name) {` (refine drops it). */
const TEST_MACRO_NAME = new RegExp(`^${TEST_MACRO}$`);

/**
 * googletest's tests, `TEST(Suite, Name) { … }` and its kin: each a function named `Name`
 * owned by `Suite`, spanning the macro's line and its body. The grammar read every one as a
 * function named `TEST`: `map` of a test file listed `TEST` forty times and `show sym:TEST`
 * counted 1,960 definitions (a C++ trial on googletest). `show sym:Suite::Name` now reads one.
 */
function testMacroDefinitions(text: string): PreparedDef[] {
  if (!text.includes('TEST')) return [];
  let code: string | undefined;
  const out: PreparedDef[] = [];
  TEST_HEAD.lastIndex = 0;
  for (let m = TEST_HEAD.exec(text); m; m = TEST_HEAD.exec(text)) {
    code ??= maskCode(text);
    const start = m.index + m[0].length - m[0].trimStart().length;
    // A head inside a comment or a string is none.
    if (code[start] !== text[start]) continue;
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let end = -1;
    for (let i = open; i < code.length; i++) {
      if (code[i] === '{') depth++;
      else if (code[i] === '}' && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    if (end < 0) continue;
    const nameStart = m.index + m[0].lastIndexOf(m[3], m[0].lastIndexOf(')'));
    out.push({ name: m[3], kind: 'function', start, end, nameStart, nameEnd: nameStart + m[3].length, owner: m[2] });
  }
  return out;
}

/**
 * `strong_alias (A, B)`, `weak_alias (A, B)` and their `ldbl_`/`libc_`/`__` spellings (glibc,
 * BSD libcs; glibc writes two on one line): B names A's code. `versioned_symbol (lib, A, B, v)` too.
 */
const ALIAS_MACRO =
  /(?<![\w#])(?:(?:ldbl_|libc_|__)?(?:strong|weak)_alias|__(?:strong|weak)_reference)[ \t]*\([ \t]*([A-Za-z_]\w*)[ \t]*,[ \t]*([A-Za-z_]\w*)[ \t]*\)/gm;
const VERSIONED_SYMBOL =
  /^[ \t]*versioned_symbol[ \t]*\([ \t]*\w+[ \t]*,[ \t]*([A-Za-z_]\w*)[ \t]*,[ \t]*([A-Za-z_]\w*)[ \t]*,/gm;
/** `# define STRLEN strlen`: an object-like macro that is one other identifier. */
const RENAMING_DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([A-Za-z_]\w*)[ \t]*$/gm;

/**
 * A file's functions under the other names it gives them (LanguageSpec.derive): glibc's
 * `strong_alias (__libc_malloc, malloc)` makes `malloc` the code of `__libc_malloc`, and
 * string/strlen.c defines `STRLEN (const char *str)` after `# define STRLEN strlen`. An agent
 * trial on glibc got `show sym:malloc` as ld.so's inline wrapper, `show sym:strlen` as its
 * prototype alone and `__vfprintf_internal` as no definition. Only functions (not
 * prototypes) the file itself defines, each name once.
 */
function derive(text: string, defs: readonly PreparedDef[]): PreparedDef[] {
  const functions = new Map<string, PreparedDef>();
  for (const d of defs) if (d.kind === 'function' && !functions.has(d.name)) functions.set(d.name, d);
  if (functions.size === 0) return [];
  const out: PreparedDef[] = [];
  const add = (from: string, to: string, toStart: number): void => {
    const f = functions.get(from);
    if (!f || functions.has(to)) return;
    functions.set(to, f);
    out.push({
      name: to,
      kind: 'function',
      start: f.start,
      end: f.end,
      nameStart: toStart,
      nameEnd: toStart + to.length,
    });
  };
  for (const re of [ALIAS_MACRO, VERSIONED_SYMBOL, RENAMING_DEFINE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) add(m[1], m[2], m.index + m[0].lastIndexOf(m[2]));
  }
  for (const f of [...functions.values()]) {
    for (const other of alternativeHeadNames(text, f)) add(f.name, other.name, other.at);
  }
  return out;
}

/** `#else` or `#elif` at a line's start: the next branch of a function head's conditional. */
const NEXT_BRANCH = /^[ \t]*#[ \t]*(?:else|elif\w*)\b.*$/gm;

/**
 * The names the other branches of a conditional give a function whose head it splits
 * (c-repair.ts keeps the first branch for the grammar): glibc's vfscanf-internal.c heads one
 * body `__vfwscanf_internal (…)` under `#ifdef COMPILE_WSCANF`, else `__vfscanf_internal (…)`.
 * Each branch's name is the identifier before its parameter list.
 */
function alternativeHeadNames(text: string, f: PreparedDef): { name: string; at: number }[] {
  const body = text.indexOf('{', f.nameEnd);
  if (body < 0 || body >= f.end) return [];
  const head = text.slice(f.nameEnd, body);
  const out: { name: string; at: number }[] = [];
  NEXT_BRANCH.lastIndex = 0;
  for (let m = NEXT_BRANCH.exec(head); m; m = NEXT_BRANCH.exec(head)) {
    const from = m.index + m[0].length;
    const rest = head.slice(from);
    const stop = /^[ \t]*#/m.exec(rest);
    const branch = stop ? rest.slice(0, stop.index) : rest;
    const name = /([A-Za-z_]\w*)[ \t]*\(/.exec(branch);
    if (name) out.push({ name: name[1], at: f.nameEnd + from + name.index });
  }
  return out;
}

/** C's keywords and C++'s character types: what neither language lets name a definition. */
const C_RESERVED =
  'auto break case char const continue default do double else enum extern float for goto if inline int long ' +
  'register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while ' +
  '_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local';
const RESERVED_NAMES = new Set(`${C_RESERVED} wchar_t char8_t char16_t char32_t`.split(' '));

/** Words of C and C++ that are no names, and the preprocessor's own: never a site in a macro's body. */
const C_KEYWORDS = new Set(
  (
    `${C_RESERVED} ` +
    'bool true false NULL typeof __typeof__ __typeof asm __asm__ __asm __attribute__ __extension__ __inline__ ' +
    '__volatile__ __restrict__ __builtin_expect __label__ alignas alignof static_assert nullptr ' +
    'class namespace template typename this new delete operator public private protected virtual friend ' +
    'explicit mutable using try catch throw noexcept constexpr consteval constinit decltype co_await co_return ' +
    'co_yield concept requires override final ' +
    'defined __VA_ARGS__ __VA_OPT__ __FILE__ __LINE__ __func__ __FUNCTION__'
  ).split(' '),
);

/**
 * Identifiers of code that `parsed` (the text after prepare and the repairs, of the same
 * length) no longer spells: the annotation macros, `#if` lines and branches the repairs
 * blanked. Comments and strings (blanked too, inside macros) are left out by the mask.
 */
function blankedNames(original: string, parsed: string): { start: number; end: number; name: string }[] {
  if (original.length !== parsed.length) return [];
  let code: string | undefined;
  const out: { start: number; end: number; name: string }[] = [];
  const word = /[A-Za-z_]\w*/y;
  for (let i = 0; i < original.length; i++) {
    if (original.charCodeAt(i) === parsed.charCodeAt(i)) continue;
    // The changed run, widened to whole identifiers of the original.
    let from = i;
    while (from > 0 && /\w/.test(original[from - 1])) from--;
    let to = i;
    while (to < original.length && (original.charCodeAt(to) !== parsed.charCodeAt(to) || /\w/.test(original[to]))) to++;
    code ??= maskCode(original);
    for (let k = from; k < to;) {
      word.lastIndex = k;
      const m = /[A-Za-z_]/.test(original[k]) && (k === 0 || !/\w/.test(original[k - 1])) ? word.exec(original) : null;
      if (!m) {
        k++;
        continue;
      }
      const end = k + m[0].length;
      // Blanked (or rewritten) and code: a name the parse lost.
      if (code[k] === original[k] && parsed.slice(k, end) !== m[0] && !C_KEYWORDS.has(m[0]))
        out.push({ start: k, end, name: m[0] });
      k = end;
    }
    i = to;
  }
  return out;
}

// A `#define` inside `namespace juce {` is no `juce::jassert`: macros are global. A macro's
// body is one token to the grammars: its names are read lexically.
const COMMON = {
  refine,
  locate,
  imports,
  prepare,
  blankedNames,
  derive,
  globalKinds: new Set(['macro']),
  lexical: { types: new Set(['preproc_arg']), keywords: C_KEYWORDS },
};

/**
 * An operator's name in one spelling (operator-name.ts): `operator ==` as `operator==`, and a
 * conversion operator, which the grammar gives no name node (`operator_cast` spans its
 * parameters and qualifiers), from `operator` to its target type: `operator bool`,
 * `operator const char*`. C++
 * conversion operators were no definitions at all (`explicit operator bool() const`).
 */
function nameOf(_def: Node, name: Node): NameRange | undefined {
  if (name.type === 'operator_name') {
    const text = operatorName(name.text);
    return text === name.text ? undefined : { text, start: name.startIndex, end: name.endIndex };
  }
  if (name.type !== 'operator_cast') return undefined;
  // The target type runs to the parameters: `operator const char *()` has its `*` in the
  // declarator around them.
  const parameters = name.descendantsOfType('parameter_list')[0];
  if (!parameters) return undefined;
  const spelled = name.text.slice(0, parameters.startIndex - name.startIndex).trimEnd();
  return { text: operatorName(spelled), start: name.startIndex, end: name.startIndex + spelled.length };
}

const C_IDENTIFIERS = { identifier: 'id', type_identifier: 'id.type', field_identifier: 'id.field' } as const;

export const C: LanguageSpec = {
  ...COMMON,
  grammar: 'tree-sitter-c',
  // 10: functions under the names aliases and renaming defines give them (derive); a
  // variable's name before an annotation macro after it (c-repair.ts fixRun).
  // 11: blocks of one condition balanced only together, alternative function heads before
  // one body (c-repair.ts), the other heads' names (derive).
  // 12: no definition named by a keyword or by an annotation after a tag's body; a
  // destructor's trailing annotation (c-repair.ts fixRun). 13: conditionals inside an
  // if-chain keep their first branch (c-repair.ts elseFollows). 14: googletest's
  // `TEST(Suite, Name) { … }` a function Name owned by Suite (testMacroDefinitions).
  // 15: the names a rewrite blanked are uses (blankedNames). 16: a conditional of one
  // branch inside a class head, a head below a long comment (c-repair.ts splitsHead).
  // 17: no bodiless function inside a function's body (insideFunctionBody). 18: no
  // variable from an annotated forward declaration (isAnnotatedForwardDeclaration). 19:
  // `(min)()` and `(max)()` heads (unparenthesizedMinMax). 20: `extern` variable
  // declarations are definitions of kind `extern` (declaresExternally).
  // 21: a loop macro's member-access argument is no function head's (c-repair.ts fixRun).
  version: 21,
  query: SHARED,
  identifiers: C_IDENTIFIERS,
  repair: (text, tree) => repairC(text, tree, 'c'),
  incrementalRepair: true,
  load: () => require('tree-sitter-c'),
};

export const CPP: LanguageSpec = {
  ...COMMON,
  nameOf,
  grammar: 'tree-sitter-cpp',
  // 10: conversion operators are definitions, operators named in one spelling (nameOf).
  // 11: functions under the names aliases and renaming defines give them (derive); a
  // variable's name before an annotation macro after it (c-repair.ts fixRun).
  // 12: as C 11. 13: as C 12; an exported specialization's head (blankTagAnnotations).
  // 14: as C 13. 15: as C 14. 16: as C 15. 17: as C 16. 18: as C 17. 19: as C 18. 20: as C 19.
  // 21: as C 20. 22: as C 21.
  version: 22,
  query: SHARED + CPP_ONLY,
  identifiers: { ...C_IDENTIFIERS, namespace_identifier: 'id' },
  repair: (text, tree) => repairC(text, tree, 'cpp'),
  load: () => require('tree-sitter-cpp'),
};
