import { lastSegment, rawImport, type LanguageSpec, type Node, type RawImport } from '../spec';
import { macroTemplateFacts } from './rust-templates';

const QUERY = `
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type
(associated_type name: (type_identifier) @name) @def.type
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.variable
(mod_item name: (identifier) @name) @def.module
(macro_definition name: (identifier) @name) @def.macro
(macro_rule right: (token_tree) @macro.template)
(field_declaration name: (field_identifier) @name) @def.field
(enum_variant name: (identifier) @name) @def.variant
(impl_item type: (_) @container.type) @container.impl
(source_file (macro_invocation (token_tree) @macro.body))
(declaration_list (macro_invocation (token_tree) @macro.body))
(use_declaration) @range.import @import
(extern_crate_declaration) @range.import @import
(let_declaration pattern: (_) @range.local)
(parameter pattern: (_) @range.local)
(closure_parameters) @range.local
(for_expression pattern: (_) @range.local)
(call_expression function: (identifier) @role.call)
(call_expression function: (field_expression field: (field_identifier) @role.call))
(call_expression function: (scoped_identifier name: (identifier) @role.call))
(call_expression function: (generic_function function: (identifier) @role.call))
(call_expression function: (generic_function function: (field_expression field: (field_identifier) @role.call)))
(call_expression function: (generic_function function: (scoped_identifier name: (identifier) @role.call)))
(macro_invocation macro: (identifier) @role.call)
(token_tree (identifier) @role.call . (token_tree . "("))
(scoped_identifier path: (identifier) @role.module)
(scoped_type_identifier path: (identifier) @role.module)
`;

/** Split at top-level commas (outside braces). */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Flatten a use tree: `a::{b, c::d as e, *}` → one import per leaf. */
function flattenUse(statement: Node, prefix: string, tree: string, reexport: boolean, out: RawImport[]): void {
  const brace = tree.indexOf('{');
  if (brace >= 0 && tree.endsWith('}')) {
    const head = tree.slice(0, brace);
    for (const part of splitTop(tree.slice(brace + 1, -1))) flattenUse(statement, prefix + head, part, reexport, out);
    return;
  }
  const [pathText, alias] = tree.split(/\s+as\s+/);
  const full = (prefix + pathText.trim()).replace(/\s+/g, '');
  if (full.endsWith('::*')) out.push(rawImport(statement, full.slice(0, -3), '*', null, reexport));
  else if (full.endsWith('::self'))
    out.push(rawImport(statement, full.slice(0, -6), lastSegment(full.slice(0, -6)), alias?.trim() ?? null, reexport));
  else out.push(rawImport(statement, full, lastSegment(full), alias?.trim() ?? null, reexport));
}

export const RUST: LanguageSpec = {
  grammar: 'tree-sitter-rust',
  // 3: definitions inside `macro_rules!` templates. 4: a name before `(` inside a macro's
  // token tree is a call (`ready!(coop::poll_proceed(cx))`: tokio's 20 callers of
  // poll_proceed were references, and ctx listed 1 of 21, an agent trial). 5: a turbofish
  // call `x.f::<T>()` is a call (hyper's `self.state.try_keep_alive::<T>()` was a member
  // read, so ctx had no callee for it); macro bodies that do not parse together are read
  // one by one (hyper's `ffi_fn!` functions, an agent trial). 6: a `macro_rules!` inside a
  // macro's body is read (hyper's `cfg_client!`, defined inside `cfg_proto! { … }`: `show
  // sym:cfg_client` answered no_definition, a Rust trial).
  version: 6,
  load: () => require('tree-sitter-rust'),
  query: QUERY,
  identifiers: {
    identifier: 'id',
    type_identifier: 'id.type',
    field_identifier: 'id.field',
    shorthand_field_identifier: 'id',
  },
  templateFacts: macroTemplateFacts,
  imports(statement) {
    const out: RawImport[] = [];
    const reexport = statement.namedChildren.some((c) => c.type === 'visibility_modifier');
    if (statement.type === 'extern_crate_declaration') {
      const name = statement.childForFieldName('name')?.text ?? '';
      const alias = statement.childForFieldName('alias')?.text ?? null;
      return [rawImport(statement, name, name, alias, reexport)];
    }
    const arg = statement.childForFieldName('argument');
    if (arg) flattenUse(statement, '', arg.text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ''), reexport, out);
    return out;
  },
};
