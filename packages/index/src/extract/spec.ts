// What a tree-sitter language contributes to extraction: its grammar, the query whose
// captures name definitions, ranges and roles, and small hooks for what a query cannot say.
import * as path from 'node:path';
import type Parser from 'tree-sitter';

export type Node = Parser.SyntaxNode;

/** An import in text units (UTF-16 offsets of the parsed text); mapped to bytes later. */
export interface RawImport {
  spelled: string;
  name: string | null;
  alias: string | null;
  reexport: boolean;
  start: number;
  end: number;
}

/** A definition found outside the syntax tree (Luau `type` statements blanked before parsing). */
export interface PreparedDef {
  name: string;
  kind: string;
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  /** The owner the syntax names rather than nesting (a googletest suite: `TEST(Suite, Name)`). */
  owner?: string;
}

/**
 * Definitions recognised in a macro template's token tree (the grammar leaves it unparsed),
 * in text units of the parse the tree came from. `containers` are impl-like blocks that
 * own the functions inside them, as the query's `@container.impl` captures are.
 */
export interface TemplateFacts {
  readonly defs: PreparedDef[];
  readonly containers: { start: number; end: number; name: string; kind: string }[];
}

/** Same-length rewrite of a source before parsing, so every offset stays exact. */
export interface Prepared {
  readonly text: string;
  readonly defs: PreparedDef[];
  /** Identifiers inside blanked type syntax: occurrences with the `type` role. */
  readonly typeIds: { start: number; end: number; name: string }[];
}

/** A definition's name as the source spells it, at [start, end) of the parsed text. */
export interface NameRange {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** What an identifier occurrence is by its node type: a plain one, or a type or field name (which default to those roles). */
/** `id.symbol`: a sigil and a name (Ruby's `:name`), an `id` of the name alone. */
export type IdentifierKind = 'id' | 'id.type' | 'id.field' | 'id.symbol';

/** What collectIdentifiers remembers per node type: an identifier kind, a lexical node (LanguageSpec.lexical), or neither. */
export type NodeIdentity = IdentifierKind | 'lexical' | null;

/**
 * Leaf nodes whose text is code the grammar keeps as one token (a C macro's body), read for
 * identifiers lexically: comments and literals skipped, `keywords` left out, and in a
 * function-like macro its parameters (the parent's `parameters` field) too.
 */
export interface LexicalNodes {
  readonly types: ReadonlySet<string>;
  readonly keywords: ReadonlySet<string>;
}

/**
 * Query captures every language uses:
 * - `@def.KIND` with `@name` (and optionally `@owner`, an explicit owner such as a Go receiver);
 * - `@import`: an import statement, read by `imports`; `@range.import`, `@range.local`: spans whose identifiers get those roles;
 * - `@range.none`: a span whose identifiers are no sites (a PHP namespace declaration's name: its segments name no definition);
 * - `@role.call`, `@role.module`, `@role.type`, `@role.member`: the role of one identifier node;
 * - `@container.impl` with `@container.type`, `@macro.body`: Rust impl blocks and macro token trees;
 * - `@macro.template`: a macro rule's right-hand side, read by `templateFacts`.
 */
export interface LanguageSpec {
  /** npm package of the grammar: its version is part of the extractor id. */
  readonly grammar: string;
  /** This language's extractor version: bump it when its output changes. */
  readonly version: number;
  load(): unknown;
  readonly query: string;
  /**
   * Node types whose every occurrence is an identifier. They are found by walking the tree,
   * not by query captures: a capture makes one binding object per node, which on C was the
   * largest share of extraction after parsing.
   */
  readonly identifiers: Readonly<Record<string, IdentifierKind>>;
  /**
   * Leaf nodes read for identifiers lexically: `refs` then finds the names a C macro's body
   * uses (`EXT4_LINK_MAX` in `EXT4_DIR_LINK_MAX`'s, which the C trial's `refs` missed).
   */
  readonly lexical?: LexicalNodes;
  /** The kind to record for a captured definition, or null to drop it (e.g. a local variable). */
  refine?(def: Node, kind: string, name: Node): string | null;
  /**
   * The nodes a captured definition really stands for, when the query cannot reach them:
   * a C declarator's name lies at any depth (`*(*f)(int)`), and a template's span starts
   * at its `template <…>` head. `kind` is the capture's (`@def.KIND`). Null drops the capture.
   */
  locate?(def: Node, name: Node, kind: string): { def: Node; name: Node; owner: Node | null } | null;
  /**
   * A definition's name and its span (text offsets of the parse) when they are not its
   * `@name` node's: Ruby's `:name` symbol without its `:`, C#'s `operator +` from its
   * keyword to its token. Undefined keeps the node's.
   */
  nameOf?(def: Node, name: Node): NameRange | undefined;
  /** Owner name from an `@owner` capture's text (`*Server[T]` → `Server`). */
  ownerName?(text: string): string;
  imports?(statement: Node): RawImport[];
  /** Names that, followed by `.`, qualify by module or package (Go package names from its imports). */
  moduleNames?(imports: readonly RawImport[]): string[];
  /** Kinds that own nested definitions, when not the default (namespaces that own nothing). */
  readonly ownerKinds?: ReadonlySet<string>;
  /** Kinds no scope owns wherever they are written (C and C++ macros: the preprocessor knows no namespace). */
  readonly globalKinds?: ReadonlySet<string>;
  prepare?(text: string): Prepared;
  /**
   * The identifiers of `original` that the text parsed (`parsed`, a same-length rewrite by
   * `prepare` and `repair`) no longer spells: annotation macros blanked for the grammar
   * (`ABSL_MUST_USE_RESULT`, `__init`). They are still uses of their names. Code only:
   * names in comments and strings are none.
   */
  blankedNames?(original: string, parsed: string): { start: number; end: number; name: string }[];
  /**
   * Definitions a file makes of its own definitions under other names, which no node
   * declares: C's `strong_alias (__libc_malloc, malloc)` and a function named through
   * `# define STRLEN strlen`. Each spans the definition it names again; its name is where
   * the file spells the new name. `defs` are the file's definitions in text units.
   */
  derive?(text: string, defs: readonly PreparedDef[]): PreparedDef[];
  /** Definitions inside a `@macro.template` token tree (Rust `macro_rules!` bodies). */
  templateFacts?(tree: Node): TemplateFacts;
  /**
   * Same-length rewrite of a text whose parse (`tree`) has errors, for syntax the grammar
   * lacks; the rewrite is parsed again and kept only when it has fewer errors.
   */
  repair?(text: string, tree: Parser.Tree): string;
  /**
   * The repair's rewrite is parsed from the edited tree it repairs, which must give the tree
   * a parse from scratch gives: true only where that was measured on real code
   * (docs/benchmarks.md, "Incremental re-parse of a repair"). Not C++: reusing nodes
   * settles its ambiguities (`Transform<Scalar, Dim>`: a type or an expression) otherwise.
   */
  readonly incrementalRepair?: boolean;
}

/** Load a grammar's native binding. Some grammars ship an ESM entry with top-level await that `require` cannot load; their prebuilt binary loads directly. */
export function loadNativeGrammar(pkg: string): unknown {
  try {
    return require(pkg);
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ASYNC_MODULE' &&
      (err as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ESM'
    )
      throw err;
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    const nodeGypBuild = require(require.resolve('node-gyp-build', { paths: [dir] })) as (dir: string) => unknown;
    return nodeGypBuild(dir);
  }
}

export function rawImport(
  statement: Node,
  spelled: string,
  name: string | null,
  alias: string | null = null,
  reexport = false,
): RawImport {
  return { spelled, name, alias, reexport, start: statement.startIndex, end: statement.endIndex };
}

/** Named children of a node of one of the given types. */
export function childrenOf(node: Node, ...types: string[]): Node[] {
  return node.namedChildren.filter((c) => types.includes(c.type));
}

/** Text without surrounding quotes. */
export function unquote(text: string): string {
  return text.replace(/^[rbuf]*(["'`]{1,3})([\s\S]*)\1$/i, '$2');
}

/** Last segment of a path spelled with any of `::` `.` `\` `/`. */
export function lastSegment(spelled: string): string {
  const parts = spelled.split(/::|\\|\.|\//).filter(Boolean);
  return parts[parts.length - 1] ?? spelled;
}

/** SCREAMING_CASE names: constants by convention in Python and Lua. */
export function isUpperCase(name: string): boolean {
  return name.length > 1 && /^[A-Z][A-Z0-9_]*$/.test(name);
}

/** Owner kinds of languages whose namespaces or packages own no types (C#, PHP, Java). */
export const TYPE_OWNERS: ReadonlySet<string> = new Set(['struct', 'enum', 'trait', 'class', 'interface']);
