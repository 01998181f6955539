import { configError, failure, success, type ConfigOutcome } from './errors';

// smol-toml is an ES module package that also ships a CommonJS build (index.cjs). Under
// module node16 with CommonJS output, TypeScript refuses a static import of an ESM
// package, so the types come from an import-mode type query and the value from require,
// which resolves to the package's "require" export at run time.
type SmolToml = typeof import('smol-toml', { with: { 'resolution-mode': 'import' } });

const smolToml = require('smol-toml') as SmolToml;

export const parseToml: SmolToml['parse'] = smolToml.parse;
export const TomlError: SmolToml['TomlError'] = smolToml.TomlError;
export type TomlTable = ReturnType<SmolToml['parse']>;

/**
 * Parse a configuration file's TOML; a syntax error becomes `config_parse_error` with the
 * file and line, and `fix` names what to fix. Other exceptions are bugs and propagate.
 */
export function parseTomlFile(text: string, file: string, fix: string): ConfigOutcome<Record<string, unknown>> {
  try {
    return success(parseToml(text) as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const first = error.message.split('\n')[0] ?? 'invalid TOML';
    return failure([configError('config_parse_error', `${first}; ${fix}`, { file, line: error.line })]);
  }
}
