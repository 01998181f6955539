import { repairTypeScript } from './typescript-repair';
import { childrenOf, rawImport, unquote, type LanguageSpec, type Node, type RawImport } from '../spec';

// Besides declarations, the ES5 forms much published JavaScript still defines with:
// `X.prototype.m = function` is X's method m (the class a later release may turn it into
// defines the same `X::m`, so history follows it across that rewrite), `exports.f =` and
// `module.exports.f =` define f, and `X.m = function` is X's (static) method m, at the top
// level or as a statement of a function body: the factory form, `const self = {};
// self.help = function help() {...}; return self` (yargs' usage.js and validation.js held
// 29 such methods that map and show sym: did not know, an agent trial). A chained
// assignment at the top level, `res.set = res.header = function header(...)`, defines
// both names (express's request.js and response.js: `map` left out `req.get`/`req.header`,
// another trial). A function-valued property of an object literal a variable holds,
// `const DEFAULT_CONFIG = { deserializer: (e) => JSON.parse(e.data) }`, is a method as
// `onOpen() {}` beside it is (rxjs's WebSocketSubject, an agent trial: map listed onOpen and
// not its neighbours); a callback in an argument object (`foo({ success: () => 1 })`) is not.
// A property of an object literal a module-level variable or `module.exports` holds, whose
// value is built (a call, `new`, an object or an array), is a property definition: the
// symbol and error tables modules share (`const keys = { kReplySerializerDefault:
// Symbol('...') }`, `const codes = { FST_ERR_BAD_STATUS_CODE: createError(...) }`) had no
// definition, so `show sym:` said `no_definition` and `refs` left every site unresolved (an
// agent trial on fastify). A plain value is data, not a name a module offers: npm's
// `aliases = { home: 'docs', find: 'search' }` would make `home` and `find` defined names
// and every one-word search for them a definition query. An alias (`{ a: b }`) is none.
const COMMON = `
(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(class name: (_) @name) @def.class
(method_definition name: (_) @name) @def.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @def.function
(variable_declarator value: (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @def.method))
(expression_statement (assignment_expression left: (member_expression object: (member_expression object: (identifier) @owner property: (property_identifier) @_proto) property: (property_identifier) @name) right: [(function_expression) (arrow_function)]) (#eq? @_proto "prototype")) @def.method
(expression_statement (assignment_expression left: (member_expression object: (identifier) @_exports property: (property_identifier) @name) right: [(function_expression) (arrow_function)]) (#eq? @_exports "exports")) @def.function
(expression_statement (assignment_expression left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @name) right: [(function_expression) (arrow_function)]) (#eq? @_module "module") (#eq? @_exports "exports")) @def.function
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @owner property: (property_identifier) @name) right: [(function_expression) (arrow_function)]) (#not-eq? @owner "exports") (#not-eq? @owner "module")) @def.method)
(statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @owner property: (property_identifier) @name) right: [(function_expression) (arrow_function)]) (#not-eq? @owner "exports") (#not-eq? @owner "module")) @def.method)
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @owner property: (property_identifier) @name) right: (assignment_expression right: [(function_expression) (arrow_function)])) (#not-eq? @owner "exports") (#not-eq? @owner "module")) @def.method)
(program (expression_statement (assignment_expression right: (assignment_expression left: (member_expression object: (identifier) @owner property: (property_identifier) @name) right: [(function_expression) (arrow_function)])) (#not-eq? @owner "exports") (#not-eq? @owner "module")) @def.method)
(variable_declarator value: (object (pair key: (property_identifier) @name value: [(call_expression) (new_expression) (object) (array)]) @def.property))
(program (expression_statement (assignment_expression left: (member_expression) right: (object (pair key: (property_identifier) @name value: [(call_expression) (new_expression) (object) (array)]) @def.property))))
(variable_declarator name: (identifier) @name) @def.variable
(import_statement) @range.import @import
(export_statement source: (_)) @range.import @import
(program (lexical_declaration (variable_declarator value: (call_expression function: (identifier) @_require arguments: (arguments . (string)))) (#eq? @_require "require")) @range.import @import)
(program (variable_declaration (variable_declarator value: (call_expression function: (identifier) @_require arguments: (arguments . (string)))) (#eq? @_require "require")) @range.import @import)
(program (lexical_declaration (variable_declarator value: (member_expression object: (call_expression function: (identifier) @_require arguments: (arguments . (string))))) (#eq? @_require "require")) @range.import @import)
(program (variable_declaration (variable_declarator value: (member_expression object: (call_expression function: (identifier) @_require arguments: (arguments . (string))))) (#eq? @_require "require")) @range.import @import)
(variable_declarator name: (_) @range.local)
(catch_clause parameter: (_) @range.local)
(call_expression function: (identifier) @role.call)
(call_expression function: (member_expression property: (_) @role.call))
(new_expression constructor: (identifier) @role.call)
`;

// A parameter's pattern is local; its type and default value are not: `valueTransform =
// identity` uses identity (`ctx` of rxjs's identity missed two callers whose sites were
// `local`, an agent trial). A constructor parameter with an accessibility modifier or
// `readonly` is a field of its class (rxjs's `constructor(private partialObserver)`: `map`,
// `ctx` and `refs ConsumerObserver::partialObserver` knew no such member, the same trial).
const TS_ONLY = `
(abstract_class_declaration name: (_) @name) @def.class
(public_field_definition name: (_) @name) @def.field
(interface_declaration name: (_) @name) @def.interface
(type_alias_declaration name: (_) @name) @def.type
(enum_declaration name: (_) @name) @def.enum
(function_signature name: (identifier) @name) @def.prototype
(class_body (method_signature name: (_) @name) @def.prototype)
(interface_body (method_signature name: (_) @name) @def.method)
(object_type (method_signature name: (_) @name) @def.method)
(abstract_method_signature name: (_) @name) @def.method
(property_signature name: (_) @name) @def.property
(internal_module name: (_) @name) @def.module
(enum_body (property_identifier) @name) @def.variant
(enum_body (enum_assignment name: (_) @name)) @def.variant
(required_parameter pattern: (_) @range.local)
(optional_parameter pattern: (_) @range.local)
(method_definition name: (property_identifier) @_ctor parameters: (formal_parameters (required_parameter (accessibility_modifier) pattern: (identifier) @name) @def.field) (#eq? @_ctor "constructor"))
(method_definition name: (property_identifier) @_ctor parameters: (formal_parameters (required_parameter "readonly" pattern: (identifier) @name) @def.field) (#eq? @_ctor "constructor"))
`;

const JS_ONLY = `
(field_definition property: (_) @name) @def.field
(formal_parameters [(identifier) (object_pattern) (array_pattern) (rest_pattern)] @range.local)
(formal_parameters (assignment_pattern left: (_) @range.local))
`;

function isTopLevelDeclarator(node: Node): boolean {
  let scope = node.parent?.parent;
  // `export declare const asyncScheduler: AsyncScheduler;` in a declaration file (rxjs'
  // dist/types declared 39 such values and `map` listed none, an agent trial).
  if (scope?.type === 'ambient_declaration') scope = scope.parent;
  if (!scope) return false;
  if (scope.type === 'program' || scope.type === 'export_statement') return true;
  return scope.type === 'statement_block' && scope.parent?.type === 'internal_module';
}

/** `require('m')` with a string literal: a CommonJS import, not a value. */
function requiredModule(value: Node | null): string | null {
  if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require') return null;
  const arg = value.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'string' ? unquote(arg.text) : null;
}

/** `require('m').X` with a string literal: the CommonJS import of m's X. */
function requiredMember(value: Node | null): { module: string; name: string } | null {
  if (value?.type !== 'member_expression') return null;
  const module = requiredModule(value.childForFieldName('object'));
  const property = value.childForFieldName('property');
  return module !== null && property?.type === 'property_identifier' ? { module, name: property.text } : null;
}

/**
 * `X.m = function` inside a function body is a method when X is an object that body (or
 * one around it) builds: `const self = {}` declared in an enclosing block, the factory
 * form. A function stored on a parameter or another module's object (`opts.callback =
 * function () {}`) is a value handed around, not a definition.
 */
function builtObjectMethod(owner: string, statement: Node): boolean {
  for (let block: Node | null = statement.parent; block; block = block.parent) {
    if (block.type !== 'statement_block') continue;
    for (const decl of childrenOf(block, 'lexical_declaration', 'variable_declaration')) {
      for (const d of childrenOf(decl, 'variable_declarator')) {
        if (d.childForFieldName('name')?.text === owner && d.childForFieldName('value')?.type === 'object') return true;
      }
    }
  }
  return false;
}

/**
 * Only module-level variables are definitions; `const` ones are constants. A binding
 * `const X = require('m')` is an import of X (see `imports`), never a definition that
 * could outrank the `class X` it names.
 */
function refine(def: Node, kind: string): string | null {
  if (def.type === 'pair' && kind === 'property') {
    // Only a module-level table: a local object's keys are values, not names a module offers.
    const holder = def.parent?.parent;
    return holder?.type === 'assignment_expression' ||
      (holder?.type === 'variable_declarator' && isTopLevelDeclarator(holder))
      ? kind
      : null;
  }
  if (def.type === 'expression_statement') {
    // Only the `X.m = function` form inside a function body asks whose object X is; the
    // prototype and `exports.f` forms are definitions wherever they stand (an IIFE too).
    const owner =
      def.parent?.type === 'statement_block'
        ? def.namedChildren[0]?.childForFieldName('left')?.childForFieldName('object')
        : undefined;
    if (owner?.type !== 'identifier' || owner.text === 'exports' || owner.text === 'module') return kind;
    return builtObjectMethod(owner.text, def) ? kind : null;
  }
  if (def.type !== 'variable_declarator') return kind;
  if (!isTopLevelDeclarator(def)) return null;
  const value = def.childForFieldName('value');
  if (requiredModule(value) !== null || requiredMember(value) !== null) return null;
  return kind === 'variable' && def.parent?.text.startsWith('const') ? 'constant' : kind;
}

/**
 * `const X = require('m')` imports X from m; `const { A, B: C } = require('m')` imports A,
 * and B as C; `var X = require('m').Y` imports Y as X (express's
 * `var setCharset = require('./utils').setCharset` was a variable that `refs` took for
 * the definition).
 */
function requireImports(statement: Node): RawImport[] {
  const out: RawImport[] = [];
  for (const d of childrenOf(statement, 'variable_declarator')) {
    const binding = d.childForFieldName('name');
    const member = requiredMember(d.childForFieldName('value'));
    if (member && binding?.type === 'identifier') {
      out.push(rawImport(statement, member.module, member.name, binding.text === member.name ? null : binding.text));
      continue;
    }
    const spelled = requiredModule(d.childForFieldName('value'));
    if (spelled === null || !binding) continue;
    if (binding.type === 'identifier') out.push(rawImport(statement, spelled, binding.text));
    else if (binding.type === 'object_pattern') {
      for (const p of binding.namedChildren) {
        if (p.type === 'shorthand_property_identifier_pattern') out.push(rawImport(statement, spelled, p.text));
        else if (p.type === 'pair_pattern' && p.childForFieldName('value')?.type === 'identifier') {
          out.push(
            rawImport(statement, spelled, p.childForFieldName('key')?.text ?? null, p.childForFieldName('value')!.text),
          );
        }
      }
    }
  }
  return out;
}

function imports(statement: Node): RawImport[] {
  if (statement.type === 'lexical_declaration' || statement.type === 'variable_declaration')
    return requireImports(statement);
  const source = statement.childForFieldName('source');
  if (!source) return [];
  const spelled = unquote(source.text);
  const reexport = statement.type === 'export_statement';
  const out: RawImport[] = [];
  const clause = reexport ? statement : childrenOf(statement, 'import_clause')[0];
  if (clause) {
    for (const c of clause.namedChildren) {
      if (c.type === 'identifier') out.push(rawImport(statement, spelled, 'default', c.text));
      else if (c.type === 'namespace_import' || c.type === 'namespace_export') {
        const alias = c.namedChildren[0]?.text ?? null;
        out.push(rawImport(statement, spelled, '*', alias, reexport));
      } else if (c.type === 'named_imports' || c.type === 'export_clause') {
        for (const s of childrenOf(c, 'import_specifier', 'export_specifier')) {
          const name = s.childForFieldName('name')?.text ?? s.text;
          out.push(rawImport(statement, spelled, name, s.childForFieldName('alias')?.text ?? null, reexport));
        }
      }
    }
  }
  if (reexport && out.length === 0) out.push(rawImport(statement, spelled, '*', null, true));
  if (!reexport && out.length === 0) out.push(rawImport(statement, spelled, null));
  return out;
}

const JS_IDENTIFIERS = {
  identifier: 'id',
  property_identifier: 'id.field',
  shorthand_property_identifier: 'id',
  shorthand_property_identifier_pattern: 'id',
  private_property_identifier: 'id.field',
} as const;

export const TYPESCRIPT: LanguageSpec = {
  grammar: 'tree-sitter-typescript',
  version: 15,
  query: COMMON + TS_ONLY,
  identifiers: { ...JS_IDENTIFIERS, type_identifier: 'id.type' },
  refine,
  imports,
  repair: repairTypeScript,
  load: () => (require('tree-sitter-typescript') as { typescript: unknown }).typescript,
};
export const TSX: LanguageSpec = {
  ...TYPESCRIPT,
  load: () => (require('tree-sitter-typescript') as { tsx: unknown }).tsx,
};
export const JAVASCRIPT: LanguageSpec = {
  grammar: 'tree-sitter-javascript',
  version: 11,
  query: COMMON + JS_ONLY,
  identifiers: JS_IDENTIFIERS,
  refine,
  imports,
  load: () => require('tree-sitter-javascript'),
};
