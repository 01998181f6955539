import { childrenOf, lastSegment, rawImport, TYPE_OWNERS, type LanguageSpec, type Node } from '../spec';

const QUERY = `
(package_declaration (_) @name) @def.module
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(enum_constant name: (identifier) @name) @def.variant
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(compact_constructor_declaration name: (identifier) @name) @def.method
(annotation_type_element_declaration name: (identifier) @name) @def.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.constant
(import_declaration) @range.import @import
(method_invocation name: (identifier) @role.call)
(object_creation_expression type: (type_identifier) @role.call)
(object_creation_expression type: (generic_type (type_identifier) @role.call))
(field_access field: (identifier) @role.member)
(method_invocation object: (identifier) @role.member)
(marker_annotation name: (identifier) @role.type)
(annotation name: (identifier) @role.type)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @range.local))
(formal_parameter name: (identifier) @range.local)
(catch_formal_parameter name: (identifier) @range.local)
(enhanced_for_statement name: (identifier) @range.local)
(lambda_expression parameters: (_) @range.local)
`;

/** `static final` fields are constants. */
function refine(def: Node, kind: string): string | null {
  if (def.type !== 'field_declaration') return kind;
  const mods = childrenOf(def, 'modifiers')[0]?.text ?? '';
  return /\bstatic\b/.test(mods) && /\bfinal\b/.test(mods) ? 'constant' : kind;
}

export const JAVA: LanguageSpec = {
  ownerKinds: TYPE_OWNERS,
  grammar: 'tree-sitter-java',
  version: 1,
  query: QUERY,
  identifiers: { identifier: 'id', type_identifier: 'id.type' },
  refine,
  load: () => require('tree-sitter-java'),
  imports(statement) {
    const target = statement.namedChildren.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
    if (!target) return [];
    const glob = statement.namedChildren.some((c) => c.type === 'asterisk');
    return [rawImport(statement, target.text, glob ? '*' : lastSegment(target.text))];
  },
};
