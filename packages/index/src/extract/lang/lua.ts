import { isUpperCase, loadNativeGrammar, rawImport, unquote, type LanguageSpec, type Node } from '../spec';
import { prepareLuau } from './luau';

const QUERY = `
(function_declaration name: (identifier) @name) @def.function
(function_declaration name: (dot_index_expression table: (_) @owner field: (identifier) @name)) @def.function
(function_declaration name: (method_index_expression table: (_) @owner method: (identifier) @name)) @def.method
(variable_declaration (assignment_statement (variable_list name: (identifier) @name))) @def.variable
(variable_declaration (variable_list name: (identifier) @name)) @def.variable
(chunk (assignment_statement (variable_list name: (identifier) @name)) @def.variable)
(chunk (assignment_statement (variable_list name: (dot_index_expression table: (identifier) @owner field: (identifier) @name))) @def.field)
(chunk (assignment_statement (variable_list name: (dot_index_expression table: (dot_index_expression) @owner field: (identifier) @name))) @def.field)
(chunk (assignment_statement (variable_list name: (bracket_index_expression table: [(identifier) (dot_index_expression)] @owner field: (string content: (string_content) @name)))) @def.field)
((function_call name: (identifier) @_require arguments: (arguments)) @import (#eq? @_require "require"))
(function_call name: (identifier) @role.call)
(function_call name: (dot_index_expression field: (identifier) @role.call))
(function_call name: (method_index_expression method: (identifier) @role.call))
(dot_index_expression field: (identifier) @role.member)
(method_index_expression method: (identifier) @role.member)
(field name: (identifier) @role.member)
(parameters) @range.local
(for_generic_clause (variable_list) @range.local)
(for_numeric_clause name: (identifier) @range.local)
`;

/** The nodes between an assigned name and its variable list: `T.x`, `T.a.x`, `T["x/y"]`. */
const ASSIGNED_NAME_PARTS = new Set(['dot_index_expression', 'bracket_index_expression', 'string']);

/** The value assigned to the name at `name`'s position in its variable list. */
function valueOf(name: Node): Node | undefined {
  let target: Node = name;
  while (target.parent && ASSIGNED_NAME_PARTS.has(target.parent.type)) target = target.parent;
  const list = target.parent;
  if (list?.type !== 'variable_list') return undefined;
  const index = list.namedChildren.findIndex((c) => c.startIndex === target.startIndex);
  const values = list.nextNamedSibling;
  return values?.type === 'expression_list' ? values.namedChildren[index] : undefined;
}

/** Statements looked back at to tell a global's first assignment from a reassignment. */
const LOOKBACK_STATEMENTS = 500;

/** Is `name` declared by an earlier module-level `local` or `function`? */
function declaredBefore(statement: Node, name: string): boolean {
  let n = statement.previousNamedSibling;
  for (let k = 0; n && k < LOOKBACK_STATEMENTS; k++, n = n.previousNamedSibling) {
    if (n.type !== 'variable_declaration' && n.type !== 'function_declaration') continue;
    const list =
      n.type === 'function_declaration'
        ? n
        : n.namedChildren[0]?.type === 'assignment_statement'
          ? n.namedChildren[0].namedChildren[0]
          : n.namedChildren[0];
    if (
      n.type === 'function_declaration'
        ? n.childForFieldName('name')?.text === name
        : list?.namedChildren.some((c) => c.text === name)
    )
      return true;
  }
  return false;
}

/**
 * Module-level locals and globals are variables (constants when SCREAMING_CASE), functions
 * when a function is assigned; `T.x = …`, `T.a.x = …` and `T["name/with/slashes"] = …` at
 * module level are fields of T (of `T.a`), functions when a function is assigned (Neovim's
 * LSP handlers are `M['textDocument/hover'] = function …`); locals inside functions are not
 * definitions.
 */
function refine(def: Node, kind: string, name: Node): string | null {
  if (kind === 'function' || kind === 'method') return kind;
  if (def.parent?.type !== 'chunk') return null;
  if (def.type === 'assignment_statement' && kind === 'variable' && declaredBefore(def, name.text)) return null;
  if (valueOf(name)?.type === 'function_definition') return 'function';
  if (kind === 'field') return kind;
  return isUpperCase(name.text) ? 'constant' : 'variable';
}

export const LUAU: LanguageSpec = {
  grammar: '@tree-sitter-grammars/tree-sitter-lua',
  version: 3,
  query: QUERY,
  identifiers: { identifier: 'id' },
  refine,
  load: () => loadNativeGrammar('@tree-sitter-grammars/tree-sitter-lua'),
  prepare: prepareLuau,
  imports(call) {
    const arg = call.childForFieldName('arguments')?.namedChildren[0];
    if (!arg) return [];
    let alias: string | null = null;
    const list = call.parent?.type === 'expression_list' ? call.parent : undefined;
    const vars = list?.previousNamedSibling;
    if (list && vars?.type === 'variable_list') {
      const index = list.namedChildren.findIndex((c) => c.startIndex === call.startIndex);
      alias = vars.namedChildren[index]?.text ?? null;
    }
    const statement =
      list?.parent?.parent?.type === 'variable_declaration' ? list.parent.parent : (list?.parent ?? call);
    return [rawImport(statement, arg.type === 'string' ? unquote(arg.text) : arg.text, null, alias)];
  },
};
