import { isUpperCase, rawImport, type LanguageSpec, type Node, type RawImport } from '../spec';

const QUERY = `
(class_definition name: (identifier) @name) @def.class
(function_definition name: (identifier) @name) @def.function
(type_alias_statement left: (type (identifier) @name)) @def.type
(expression_statement (assignment left: (identifier) @name)) @def.variable
(expression_statement (assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name)) (#eq? @_self "self")) @def.field
(module (expression_statement (assignment left: (attribute object: (identifier) @owner attribute: (identifier) @name))) @def.field (#not-eq? @owner "self"))
(import_statement) @range.import @import
(import_from_statement) @range.import @import
(call function: (identifier) @role.call)
(call function: (attribute attribute: (identifier) @role.call))
(decorator (identifier) @role.call)
(decorator (call function: (identifier) @role.call))
(attribute attribute: (identifier) @role.member)
(type (identifier) @role.type)
(type (generic_type (identifier) @role.type))
(type (subscript value: (identifier) @role.type))
(argument_list (keyword_argument name: (identifier) @role.member))
(class_definition superclasses: (argument_list (identifier) @role.type))
(parameters (identifier) @range.local)
(parameters (default_parameter name: (identifier) @range.local))
(parameters (typed_parameter (identifier) @range.local))
(parameters (typed_default_parameter name: (identifier) @range.local))
(parameters (list_splat_pattern (identifier) @range.local))
(parameters (dictionary_splat_pattern (identifier) @range.local))
(parameters (typed_parameter (list_splat_pattern (identifier) @range.local)))
(parameters (typed_parameter (dictionary_splat_pattern (identifier) @range.local)))
(lambda_parameters (identifier) @range.local)
(lambda_parameters (default_parameter name: (identifier) @range.local))
(lambda_parameters (list_splat_pattern (identifier) @range.local))
(lambda_parameters (dictionary_splat_pattern (identifier) @range.local))
(for_statement left: (_) @range.local)
(for_in_clause left: (_) @range.local)
`;

const ENUM_BASE = /\b(Enum|IntEnum|StrEnum|Flag|IntFlag)\b/;

/** The left side of an assignment statement, or undefined for any other node. */
function assignedTo(statement: Node): Node | undefined {
  return statement.type === 'expression_statement'
    ? (statement.namedChildren[0]?.childForFieldName('left') ?? undefined)
    : undefined;
}

/** `x` of a statement `OBJECT.x = ...`, else undefined. */
function attributeSetOn(statement: Node, object: string): string | undefined {
  const left = assignedTo(statement);
  return left?.type === 'attribute' && left.childForFieldName('object')?.text === object
    ? left.childForFieldName('attribute')?.text
    : undefined;
}

/** `x` of a statement `self.x = ...`, else undefined. */
const selfAttribute = (statement: Node): string | undefined => attributeSetOn(statement, 'self');

/** Whether a statement assigns the bare name `name` (`name = ...`). */
function assignsName(statement: Node, name: string): boolean {
  const left = assignedTo(statement);
  return left?.type === 'identifier' && left.text === name;
}

/** The class a module-level statement defines, decorated or not; null for anything else. */
function definedClass(statement: Node): Node | null {
  const inner = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
  return inner?.type === 'class_definition' ? inner : null;
}

/**
 * `self.x = ...` as a statement of a class's `__init__` (directly, or inside its if/with/try
 * blocks) defines the instance attribute x, a field of that class: jinja2's
 * `Environment.auto_reload` had no definition, so `refs` left all its sites unresolved
 * (an agent trial). Other methods' assignments re-set attributes rather than declare them.
 */
function instanceAttribute(statement: Node): string | null {
  let fn: Node | null = statement.parent;
  while (fn && fn.type !== 'function_definition') {
    if (fn.type === 'class_definition' || fn.type === 'lambda') return null;
    fn = fn.parent;
  }
  if (fn?.childForFieldName('name')?.text !== '__init__') return null;
  const cls =
    fn.parent?.type === 'block'
      ? fn.parent.parent
      : fn.parent?.type === 'decorated_definition'
        ? (fn.parent.parent?.parent ?? null)
        : null;
  if (cls?.type !== 'class_definition') return null;
  // The first assignment declares the attribute; a later one (the other branch of an
  // `if`, a reset) or a class-level default of the same name already did.
  const name = selfAttribute(statement);
  const body = cls.childForFieldName('body');
  if (!name || !body) return null;
  if (body.namedChildren.some((n) => assignsName(n, name))) return null;
  return earlierSelfAssignment(fn, statement, name) ? null : 'field';
}

/**
 * `Cls.x = ...` at module level, where `Cls` is a class the module defines above it, defines
 * the class attribute x (a field of Cls): urllib3's `Retry.DEFAULT = Retry(3)`, written
 * after the class that needs it, had no definition (`show sym:Retry::DEFAULT` answered
 * no_definition, a workspace trial). Unless the class body or an earlier such statement
 * already did; an attribute set on anything else (a module, an instance) is none.
 */
function classAttribute(statement: Node): string | null {
  const left = assignedTo(statement);
  const owner = left?.childForFieldName('object')?.text;
  const name = left?.childForFieldName('attribute')?.text;
  if (!owner || !name) return null;
  const module = statement.parent!;
  const klass = module.namedChildren
    .map(definedClass)
    .find((c) => c !== null && c.startIndex < statement.startIndex && c.childForFieldName('name')?.text === owner);
  if (!klass) return null;
  if (klass.childForFieldName('body')?.namedChildren.some((n) => assignsName(n, name))) return null;
  const earlier = module.namedChildren.some(
    (n) => n.startIndex >= klass.startIndex && n.startIndex < statement.startIndex && attributeSetOn(n, owner) === name,
  );
  return earlier ? null : 'field';
}

/** Whether `self.name = ...` is assigned in `fn` before `statement` (source order, nested blocks included). */
function earlierSelfAssignment(fn: Node, statement: Node, name: string): boolean {
  const body = fn.childForFieldName('body');
  const stack: Node[] = body ? [body] : [];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.startIndex >= statement.startIndex) continue;
    if (n.type === 'function_definition' || n.type === 'class_definition' || n.type === 'lambda') continue;
    if (selfAttribute(n) === name) return true;
    for (const c of n.namedChildren) stack.push(c);
  }
  return false;
}

/**
 * `@overload` / `@typing.overload`: a signature for type checkers, not the body that runs; a
 * `prototype`, as TypeScript's overload signatures are, so the implementation after it is
 * the definition (`show sym:Config::__call__` read starlette's first stub, a Python trial).
 */
function isOverloadSignature(def: Node): boolean {
  const decorated = def.parent;
  return (
    decorated?.type === 'decorated_definition' &&
    decorated.namedChildren.some((c) => c.type === 'decorator' && /^@\s*(?:typing\.|t\.)?overload\s*$/.test(c.text))
  );
}

/** Module-level assignments are variables (constants when SCREAMING_CASE); class-level ones fields (variants of an Enum); others are locals. */
function refine(def: Node, kind: string, name: Node): string | null {
  if (def.type === 'function_definition' && isOverloadSignature(def)) return 'prototype';
  if (def.type !== 'expression_statement') return kind;
  if (assignedTo(def)?.type === 'attribute')
    return def.parent?.type === 'module' ? classAttribute(def) : instanceAttribute(def);
  const scope = def.parent;
  if (scope?.type === 'module') return isUpperCase(name.text) ? 'constant' : 'variable';
  const cls = scope?.type === 'block' ? scope.parent : null;
  if (cls?.type !== 'class_definition') return null;
  return ENUM_BASE.test(cls.childForFieldName('superclasses')?.text ?? '') ? 'variant' : 'field';
}

function imports(statement: Node): RawImport[] {
  const out: RawImport[] = [];
  const entry = (n: Node): [string, string | null] =>
    n.type === 'aliased_import'
      ? [n.childForFieldName('name')?.text ?? '', n.childForFieldName('alias')?.text ?? null]
      : [n.text, null];
  if (statement.type === 'import_statement') {
    for (const n of statement.childrenForFieldName('name')) {
      const [spelled, alias] = entry(n);
      out.push(rawImport(statement, spelled, null, alias));
    }
    return out;
  }
  const module = statement.childForFieldName('module_name')?.text ?? '';
  if (statement.namedChildren.some((c) => c.type === 'wildcard_import')) return [rawImport(statement, module, '*')];
  for (const n of statement.childrenForFieldName('name')) {
    const [name, alias] = entry(n);
    out.push(rawImport(statement, module, name, alias));
  }
  return out;
}

export const PYTHON: LanguageSpec = {
  grammar: 'tree-sitter-python',
  // 6: an `@overload` signature is a `prototype` (isOverloadSignature).
  version: 6,
  query: QUERY,
  identifiers: { identifier: 'id' },
  refine,
  imports,
  load: () => require('tree-sitter-python'),
};
