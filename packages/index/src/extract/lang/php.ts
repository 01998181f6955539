import { lastSegment, rawImport, unquote, TYPE_OWNERS, type LanguageSpec, type Node, type RawImport } from '../spec';

const QUERY = `
(namespace_definition name: (namespace_name) @name @range.none) @def.module
(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.trait
(enum_declaration name: (name) @name) @def.enum
(enum_case name: (name) @name) @def.variant
(method_declaration name: (name) @name) @def.method
(function_definition name: (name) @name) @def.function
(property_declaration (property_element name: (variable_name (name) @name))) @def.property
(property_promotion_parameter name: (variable_name (name) @name)) @def.property
(const_declaration (const_element (name) @name)) @def.constant
(namespace_use_declaration) @range.import @import
(include_expression (string)) @import
(include_once_expression (string)) @import
(require_expression (string)) @import
(require_once_expression (string)) @import
(function_call_expression function: (name) @role.call)
(function_call_expression function: (qualified_name (name) @role.call))
(member_call_expression name: (name) @role.call)
(nullsafe_member_call_expression name: (name) @role.call)
(scoped_call_expression name: (name) @role.call)
(object_creation_expression (name) @role.call)
(object_creation_expression (qualified_name (name) @role.call))
(member_access_expression name: (name) @role.member)
(nullsafe_member_access_expression name: (name) @role.member)
(scoped_call_expression scope: (name) @role.type)
(class_constant_access_expression . (name) @role.type)
(named_type (name) @role.type)
(named_type (qualified_name (name) @role.type))
(base_clause (name) @role.type)
(base_clause (qualified_name (name) @role.type))
(class_interface_clause (name) @role.type)
(use_declaration (name) @role.type)
(attribute (name) @role.type)
(formal_parameters) @range.local
`;

function imports(statement: Node): RawImport[] {
  if (statement.type !== 'namespace_use_declaration') {
    const file = statement.namedChildren.find((c) => c.type === 'string');
    return file ? [rawImport(statement, unquote(file.text), null)] : [];
  }
  // use A\\B; use A\\{B, C as D}; use function A\\f;
  const out: RawImport[] = [];
  const prefixNode = statement.namedChildren.find((c) => c.type === 'namespace_name');
  const group = statement.childForFieldName('body');
  const prefix = group && prefixNode ? `${prefixNode.text}\\` : '';
  const clauses = (group ?? statement).namedChildren.filter((c) => c.type === 'namespace_use_clause');
  for (const clause of clauses) {
    const alias = clause.childForFieldName('alias')?.text ?? null;
    const target = clause.namedChildren.find((c) => c !== clause.childForFieldName('alias'));
    if (!target) continue;
    const spelled = (prefix + target.text).replace(/^\\/, '');
    out.push(rawImport(statement, spelled, lastSegment(spelled), alias));
  }
  return out;
}

export const PHP: LanguageSpec = {
  ownerKinds: TYPE_OWNERS,
  grammar: 'tree-sitter-php',
  // 2: a namespace declaration's segments are no uses (`namespace Illuminate\Auth\Middleware;`
  // had resolved its `Auth` to the file's `use …\Factory as Auth`, a Laravel trial).
  version: 2,
  query: QUERY,
  identifiers: { name: 'id' },
  imports,
  load: () => (require('tree-sitter-php') as { php: unknown }).php,
};
