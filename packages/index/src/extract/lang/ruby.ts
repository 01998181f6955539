import { rawImport, type LanguageSpec, type Node, type RawImport } from '../spec';

// Ruby as data: classes and modules (a `Foo::Bar` name is owned by `Foo`), methods and
// singleton methods (`def self.x`, and those of `class << self`, belong to the class),
// constants, the accessors `attr_reader`/`attr_writer`/`attr_accessor` and ActiveSupport's
// attribute macros declare (ACCESSOR_MACROS), methods made by `define_method`, `alias`,
// `alias_method` and `delegate`, and `require`/`require_relative`/`load`/`autoload` as
// imports. Symbols are uses of the names they spell.
/**
 * Class-body calls that declare attributes by symbol: Ruby's `attr_*`, and ActiveSupport's
 * module and class attributes (`mattr_accessor :autoload_paths, default: []`,
 * `cattr_reader`, `thread_mattr_accessor`, `class_attribute`, `config_accessor`), which every
 * Rails code base uses for its settings: an ActiveSupport trial found `show sym:` answering
 * `no_definition` for each of them, and `show sym:logger` listing 3 of its 5 definitions.
 */
const ACCESSOR_MACROS =
  '^(attr(_reader|_writer|_accessor)?|(thread_)?[mc]attr_(reader|writer|accessor)|class_attribute|config_accessor)$';

const QUERY = `
(class name: (constant) @name) @def.class
(class name: (scope_resolution scope: (_) @owner name: (constant) @name)) @def.class
(module name: (constant) @name) @def.module
(module name: (scope_resolution scope: (_) @owner name: (constant) @name)) @def.module
(method name: (_) @name) @def.function
(singleton_method name: (_) @name) @def.method
(assignment left: (constant) @name) @def.constant
(call
  method: (identifier) @_accessor
  arguments: (argument_list (simple_symbol) @name)
  (#match? @_accessor "${ACCESSOR_MACROS}")) @def.property
(call
  method: (identifier) @_delegate
  arguments: (argument_list (simple_symbol) @name)
  (#eq? @_delegate "delegate")) @def.method
(call
  method: (identifier) @_define
  arguments: (argument_list . (simple_symbol) @name)
  (#match? @_define "^(define_method|alias_method)$")) @def.method
(alias name: (_) @name) @def.method
(call
  method: (identifier) @_require
  (#match? @_require "^(require|require_relative|load|autoload)$")) @range.import @import
(call method: (identifier) @role.call)
(call method: (constant) @role.call)
(call receiver: (constant) @role.type)
(call receiver: (scope_resolution name: (constant) @role.type))
(superclass (constant) @role.type)
(superclass (scope_resolution name: (constant) @role.type))
(scope_resolution scope: (constant) @role.module)
(method_parameters (identifier) @range.local)
(block_parameters (identifier) @range.local)
(lambda_parameters (identifier) @range.local)
(destructured_parameter (identifier) @range.local)
(optional_parameter name: (identifier) @range.local)
(keyword_parameter name: (identifier) @range.local)
(splat_parameter name: (identifier) @range.local)
(hash_splat_parameter name: (identifier) @range.local)
(block_parameter name: (identifier) @range.local)
(assignment left: (identifier) @range.local)
(operator_assignment left: (identifier) @range.local)
(for pattern: (_) @range.local)
`;

/** Bodies whose `def` defines a method of a class or module (`class << self` opens the class's own). */
const METHOD_HOLDERS = new Set(['class', 'module', 'singleton_class']);

/**
 * Blocks whose body is the class or module body around them: ActiveSupport::Concern's
 * `included do` and `class_methods do` (and their kin), `class_eval do`. Rails declares its
 * settings there (`included do class_attribute :belongs_to_required_by_default … end`):
 * `show sym:` of each answered `no_definition` (a Rails trial).
 */
const CLASS_BODY_BLOCKS = new Set([
  'included',
  'prepended',
  'extended',
  'inherited',
  'class_methods',
  'class_eval',
  'module_eval',
  'class_exec',
  'module_exec',
]);

/** The class, module or `class << self` a node is written in, skipping its body node; null at the top or inside a method or block. */
function holderOf(def: Node): Node | null {
  let n = def.parent;
  for (;;) {
    while (n && (n.type === 'body_statement' || n.type === 'begin_block' || n.type === 'then' || n.type === 'else'))
      n = n.parent;
    // A class-body block of a call without a receiver (`included do`, not `x.included do`).
    const call = n && (n.type === 'do_block' || n.type === 'block') ? n.parent : null;
    if (
      !call ||
      call.type !== 'call' ||
      call.childForFieldName('receiver') ||
      !CLASS_BODY_BLOCKS.has(call.childForFieldName('method')?.text ?? '')
    )
      break;
    n = call.parent;
  }
  return n && METHOD_HOLDERS.has(n.type) ? n : null;
}

/**
 * A `def` in a class or module is a method, at the top of a file a function (a private
 * method of Object, called like a function); one inside a method or a block stays a
 * function owned by it. Accessors, constants and `define_method` count only where a
 * class or module body declares them: a `define_method` inside a method's loop names its
 * methods from data.
 */
function refine(def: Node, kind: string): string | null {
  if (def.type === 'method') return holderOf(def) ? 'method' : 'function';
  // `delegate :a, :b, to: :target` defines `a` and `b`; with `prefix:` other names.
  if (def.type === 'call' && def.childForFieldName('method')?.text === 'delegate' && delegatesUnderPrefix(def))
    return null;
  if (def.type === 'call' || def.type === 'alias') return holderOf(def) ? kind : null;
  return kind;
}

function delegatesUnderPrefix(call: Node): boolean {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  return args.some((a) => a.type === 'pair' && /^:?prefix:?$/.test(a.childForFieldName('key')?.text ?? ''));
}

/** The text of a string literal without its quotes, or null when it interpolates. */
function literal(n: Node | undefined): string | null {
  if (!n || n.type !== 'string' || n.namedChildren.some((c) => c.type !== 'string_content')) return null;
  return n.namedChildren.map((c) => c.text).join('');
}

/**
 * `require 'json'` and `load 'x.rb'` name a path on the load path; `require_relative 'a/b'`
 * one beside the file (spelled `./a/b`, as relative paths are in every language here);
 * either makes all of the file's names visible (name `*`). `autoload :Name, 'path'` binds
 * Name. A computed path (`require File.join(...)`) is none.
 */
function imports(call: Node): RawImport[] {
  const method = call.childForFieldName('method')?.text;
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  if (method === 'autoload') {
    const name = args[0]?.type === 'simple_symbol' ? args[0].text.slice(1) : null;
    const spelled = literal(args[1]);
    return name && spelled !== null ? [rawImport(call, spelled, name)] : [];
  }
  const spelled = literal(args[0]);
  if (spelled === null || spelled === '') return [];
  const relative = method === 'require_relative' && !spelled.startsWith('.') && !spelled.startsWith('/');
  // A required file's every definition becomes visible: a glob, as an `#include` is.
  return [rawImport(call, relative ? `./${spelled}` : spelled, '*')];
}

export const RUBY: LanguageSpec = {
  grammar: 'tree-sitter-ruby',
  // 2: `alias new old` and `alias_method :new, :old` define `new` (ActiveSupport's 224
  // aliases: `show sym:HashWithIndifferentAccess::has_key?` found nothing, an agent trial).
  // 3: ActiveSupport's attribute macros and `delegate` define, symbols are uses (an
  // ActiveSupport trial: `mattr_accessor :autoload_paths, default: []` was no definition, and
  // refs missed every `delegate :x` and `module_function :x`); a parameter's default value
  // is code, not a local (`bases = autoload_paths` calls the accessor). 4: an operator
  // method's name is its declaration site (`refs '<=>'` listed none of five `def <=>`).
  // 5: inside `included do`, `class_methods do` and their kin (CLASS_BODY_BLOCKS) the class
  // body goes on (a Rails trial: `class_attribute` settings there were no definitions).
  version: 5,
  query: QUERY,
  // A symbol names a method or attribute as often as data does (`delegate :x`,
  // `module_function :x`, `before_action :x`, `send(:x)`): a use of `x`, so refs counts
  // what rg finds; `%i[a b]` words are symbols too.
  // An operator method's name (`def <=>`, `alias <=> cmp`) is its declaration site; its
  // uses are operator tokens, no sites (refs says so).
  identifiers: { identifier: 'id', constant: 'id', simple_symbol: 'id.symbol', bare_symbol: 'id', operator: 'id' },
  refine,
  imports,
  // `Foo::Bar` as the owner of `class Foo::Bar::Baz` is its innermost module, `Bar`.
  ownerName: (text) => text.split('::').pop()!.trim(),
  // An accessor's or define_method's name is a symbol: `:name` names `name`.
  nameOf: (_def, name) =>
    name.type === 'simple_symbol'
      ? { text: name.text.slice(1), start: name.startIndex + 1, end: name.endIndex }
      : undefined,
  load: () => require('tree-sitter-ruby'),
};
