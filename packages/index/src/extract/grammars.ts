// Tree-sitter grammars and the queries that find definitions and classify identifier
// occurrences. Each language's pattern set is versioned by EXTRACTION_VERSION.
import type Parser from 'tree-sitter';
import type { Language } from '../classify';

export type CodeLanguage = Exclude<Language, 'text'>;

const RUST_QUERY = `
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
(field_declaration name: (field_identifier) @name) @def.field
(enum_variant name: (identifier) @name) @def.variant
(impl_item type: (_) @container.type) @container.impl
(source_file (macro_invocation (token_tree) @macro.body))
(declaration_list (macro_invocation (token_tree) @macro.body))
(use_declaration) @range.import
(extern_crate_declaration) @range.import
(let_declaration pattern: (_) @range.local)
(parameter pattern: (_) @range.local)
(closure_parameters) @range.local
(for_expression pattern: (_) @range.local)
(call_expression function: (identifier) @role.call)
(call_expression function: (field_expression field: (field_identifier) @role.call))
(call_expression function: (scoped_identifier name: (identifier) @role.call))
(macro_invocation macro: (identifier) @role.call)
(scoped_identifier path: (identifier) @role.module)
(scoped_type_identifier path: (identifier) @role.module)
(identifier) @id
(type_identifier) @id.type
(field_identifier) @id.field
(shorthand_field_identifier) @id
`;

const TS_COMMON = `
(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(method_definition name: (_) @name) @def.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @def.function
(variable_declarator name: (identifier) @name) @def.variable
(import_statement) @range.import
(variable_declarator name: (_) @range.local)
(formal_parameters) @range.local
(catch_clause parameter: (_) @range.local)
(call_expression function: (identifier) @role.call)
(call_expression function: (member_expression property: (_) @role.call))
(new_expression constructor: (identifier) @role.call)
(identifier) @id
(property_identifier) @id.field
(shorthand_property_identifier) @id
(shorthand_property_identifier_pattern) @id
(private_property_identifier) @id.field
`;

const TS_ONLY = `
(abstract_class_declaration name: (_) @name) @def.class
(public_field_definition name: (_) @name) @def.field
(interface_declaration name: (_) @name) @def.interface
(type_alias_declaration name: (_) @name) @def.type
(enum_declaration name: (_) @name) @def.enum
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(property_signature name: (_) @name) @def.property
(internal_module name: (_) @name) @def.module
(enum_body (property_identifier) @name) @def.variant
(enum_body (enum_assignment name: (_) @name)) @def.variant
(type_identifier) @id.type
`;

const JS_ONLY = `
(field_definition property: (_) @name) @def.field
`;

/** tree-sitter is loaded on first parse only: searches never pay for the native module. */
function treeSitter(): typeof Parser {
  return require('tree-sitter') as typeof Parser;
}

const cache = new Map<CodeLanguage, { language: unknown; query: Parser.Query }>();

function load(lang: CodeLanguage): { language: unknown; query: Parser.Query } {
  const hit = cache.get(lang);
  if (hit) return hit;
  let language: unknown;
  let source: string;
  if (lang === 'rust') {
    language = require('tree-sitter-rust');
    source = RUST_QUERY;
  } else if (lang === 'javascript') {
    language = require('tree-sitter-javascript');
    source = TS_COMMON + JS_ONLY;
  } else {
    const ts = require('tree-sitter-typescript') as { typescript: unknown; tsx: unknown };
    language = lang === 'tsx' ? ts.tsx : ts.typescript;
    source = TS_COMMON + TS_ONLY;
  }
  const entry = { language, query: new (treeSitter().Query)(language as Parser.Language, source) };
  cache.set(lang, entry);
  return entry;
}

const parsers = new Map<CodeLanguage, Parser>();

export function parserFor(lang: CodeLanguage): { parser: Parser; query: Parser.Query } {
  const { language, query } = load(lang);
  let parser = parsers.get(lang);
  if (!parser) {
    parser = new (treeSitter())();
    parser.setLanguage(language as Parser.Language);
    parsers.set(lang, parser);
  }
  return { parser, query };
}

/** Identifies the extractor that produced a file's facts; a change invalidates exactly those facts. */
export function extractorId(lang: Language, extractionVersion: number): string {
  if (lang === 'text') return `text/${extractionVersion}`;
  const pkg = lang === 'rust' ? 'tree-sitter-rust' : lang === 'javascript' ? 'tree-sitter-javascript' : 'tree-sitter-typescript';
  const version = (require(`${pkg}/package.json`) as { version: string }).version;
  return `${lang}:${pkg}@${version}/${extractionVersion}`;
}
