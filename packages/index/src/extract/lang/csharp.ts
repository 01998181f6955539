import {
  childrenOf,
  loadNativeGrammar,
  rawImport,
  TYPE_OWNERS,
  type LanguageSpec,
  type NameRange,
  type Node,
} from '../spec';
import { repairCsharp } from './csharp-repair';
import { operatorName } from './operator-name';

const QUERY = `
(namespace_declaration name: (_) @name) @def.module
(file_scoped_namespace_declaration name: (_) @name) @def.module
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(enum_member_declaration name: (identifier) @name) @def.variant
(delegate_declaration name: (identifier) @name) @def.type
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(destructor_declaration name: (identifier) @name) @def.method
(operator_declaration "operator" @name) @def.method
(conversion_operator_declaration "operator" @name) @def.method
(indexer_declaration "this" @name) @def.property
(local_function_statement name: (identifier) @name) @def.function
(property_declaration name: (identifier) @name) @def.property
(event_declaration name: (identifier) @name) @def.field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.field
(using_directive) @range.import @import
(invocation_expression function: (identifier) @role.call)
(invocation_expression function: (member_access_expression name: (identifier) @role.call))
(invocation_expression function: (member_access_expression name: (generic_name (identifier) @role.call)))
(invocation_expression function: (generic_name (identifier) @role.call))
(object_creation_expression type: (identifier) @role.call)
(object_creation_expression type: (generic_name (identifier) @role.call))
(member_access_expression name: (identifier) @role.member)
(invocation_expression function: (conditional_access_expression (member_binding_expression name: (identifier) @role.call)))
(member_binding_expression name: (identifier) @role.member)
(variable_declaration type: (identifier) @role.type)
(parameter type: (identifier) @role.type)
(base_list (identifier) @role.type)
(base_list (generic_name (identifier) @role.type))
(generic_name (identifier) @role.type)
(type_argument_list (identifier) @role.type)
(property_declaration type: (identifier) @role.type)
(method_declaration returns: (identifier) @role.type)
(nullable_type (identifier) @role.type)
(array_type type: (identifier) @role.type)
(type_parameter_constraint type: (identifier) @role.type)
(type_parameter_constraint type: (generic_name (identifier) @role.type))
(type_parameter_constraints_clause (identifier) @role.type)
(type_parameter name: (identifier) @role.type)
(attribute name: (identifier) @role.type)
(typeof_expression (identifier) @role.type)
(parameter name: (identifier) @range.local)
(local_declaration_statement) @range.local
(foreach_statement left: (identifier) @range.local)
(lambda_expression parameters: (_) @range.local)
`;

/** `const` fields are constants. */
function refine(def: Node, kind: string): string | null {
  if (def.type === 'field_declaration' && childrenOf(def, 'modifier').some((m) => m.text === 'const'))
    return 'constant';
  return kind;
}

/**
 * The name of an operator, from `operator` to its token or target type, spelled as C++
 * names one (`operator +` → `operator+`, `explicit operator int` → `operator int`), and of a
 * destructor with its `~` (`~Foo`, as C++ names one): JToken's 72 conversion operators were
 * no definitions, so `map` skipped lines 462–1240 and the calls inside them were `in JToken`
 * (an agent trial on newtonsoft-json).
 */
function nameOf(def: Node, name: Node): NameRange | undefined {
  let end: Node | null = null;
  if (def.type === 'operator_declaration') end = name.nextSibling;
  else if (def.type === 'conversion_operator_declaration') end = def.childForFieldName('type');
  else if (def.type === 'destructor_declaration') {
    const tilde = name.previousSibling;
    return tilde?.type === '~' ? { text: `~${name.text}`, start: tilde.startIndex, end: name.endIndex } : undefined;
  }
  if (!end || end.endIndex <= name.endIndex) return undefined;
  const source = def.text;
  const text = source.slice(name.startIndex - def.startIndex, end.endIndex - def.startIndex);
  return { text: operatorName(text), start: name.startIndex, end: end.endIndex };
}

export const CSHARP: LanguageSpec = {
  ownerKinds: TYPE_OWNERS,
  grammar: 'tree-sitter-c-sharp',
  // 3: operators, conversion operators, indexers (`this`) and destructors (`~Foo`) are definitions.
  // 4: operators named as C++ names them (`operator+`, operator-name.ts); the conditional repair masks `@""""` as a verbatim string, not a raw one (extract/mask.ts).
  version: 4,
  query: QUERY,
  identifiers: { identifier: 'id' },
  refine,
  nameOf,
  repair: repairCsharp,
  load: () => loadNativeGrammar('tree-sitter-c-sharp'),
  imports(statement) {
    // using System.Text; using static System.Math; using Alias = A.B;
    const alias = statement.childForFieldName('name')?.text ?? null;
    const target = statement.namedChildren
      .filter((c) => c.type !== 'identifier' || alias === null || c.text !== alias)
      .pop();
    if (!target) return [];
    const isStatic = /^\s*(global\s+)?using\s+static\b/.test(statement.text);
    return [rawImport(statement, target.text, isStatic ? '*' : null, alias)];
  },
};
