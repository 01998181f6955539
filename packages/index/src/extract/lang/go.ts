import { rawImport, unquote, type LanguageSpec, type Node } from '../spec';

const QUERY = `
(package_clause (package_identifier) @name) @def.module
(function_declaration name: (identifier) @name) @def.function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @owner)) name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(field_declaration name: (field_identifier) @name) @def.field
(field_declaration !name type: (type_identifier) @name) @def.field
(field_declaration !name type: (qualified_type name: (type_identifier) @name)) @def.field
(field_declaration !name type: (generic_type type: (type_identifier) @name)) @def.field
(method_elem name: (field_identifier) @name) @def.method
(const_spec name: (identifier) @name (#not-eq? @name "_")) @def.constant
(var_spec name: (identifier) @name (#not-eq? @name "_")) @def.variable
(import_declaration) @range.import
(import_spec) @import
(call_expression function: (identifier) @role.call)
(call_expression function: (selector_expression field: (field_identifier) @role.call))
(call_expression function: (index_expression operand: (identifier) @role.call))
(call_expression function: (index_expression operand: (selector_expression field: (field_identifier) @role.call)))
(qualified_type package: (package_identifier) @role.module)
(short_var_declaration left: (_) @range.local)
(parameter_list) @range.local
(range_clause left: (_) @range.local)
`;

const SCOPES = new Set([
  'source_file',
  'type_spec',
  'block',
  'parameter_list',
  'function_declaration',
  'method_declaration',
  'func_literal',
]);

/** The nearest enclosing scope: package level, a named type, or a function. */
function scopeOf(node: Node): string | undefined {
  let n = node.parent;
  while (n && !SCOPES.has(n.type)) n = n.parent;
  return n?.type;
}

/** Package-level constants and variables only; fields and methods of named types only (not of anonymous ones). */
function refine(def: Node, kind: string): string | null {
  if (def.type === 'const_spec' || def.type === 'var_spec') return scopeOf(def) === 'source_file' ? kind : null;
  if (def.type === 'field_declaration' || def.type === 'method_elem') return scopeOf(def) === 'type_spec' ? kind : null;
  return kind;
}

/**
 * The name a Go import binds: its alias, else the package name its path ends in, which by
 * convention is the last segment without a `go-` prefix or `.vN` suffix, and the segment
 * before a major-version segment (`github.com/hashicorp/hcl/v2` binds `hcl`). Extraction
 * (`fmt.Println`'s `fmt` is a module) and navigation (`gohcl.DecodeBody` resolves through
 * the import binding `gohcl`) read it here.
 */
export function goImportName(spelled: string, alias: string | null): string {
  if (alias !== null) return alias;
  const segments = spelled.split('/').filter(Boolean);
  let last = segments.pop() ?? '';
  if (/^v\d+$/.test(last) && segments.length > 0) last = segments.pop()!;
  return last.replace(/^go-|\.v\d+$/, '');
}

export const GO: LanguageSpec = {
  grammar: 'tree-sitter-go',
  // 2: a major-version import path (`…/hcl/v2`) binds the package before it, not `v2`.
  // 3: embedded fields are fields (named by their type), the blank identifier defines
  // nothing, a generic function called with type arguments (`Values[T](x)`) is called.
  version: 3,
  query: QUERY,
  identifiers: { identifier: 'id', type_identifier: 'id.type', field_identifier: 'id.field', package_identifier: 'id' },
  refine,
  load: () => require('tree-sitter-go'),
  // `*Server[T]` → `Server`
  ownerName: (text) =>
    text
      .replace(/^[*\s(]+/, '')
      .replace(/[[(][\s\S]*$/, '')
      .trim(),
  // `fmt.Println`: a package qualifier is an import's name or its path's last segment.
  moduleNames: (imports) => imports.map((i) => goImportName(i.spelled, i.alias)),
  imports(spec) {
    const p = spec.childForFieldName('path');
    if (!p) return [];
    const spelled = unquote(p.text);
    const name = spec.childForFieldName('name')?.text ?? null;
    return [rawImport(spec, spelled, name === '.' ? '*' : null, name && name !== '.' ? name : null)];
  },
};
