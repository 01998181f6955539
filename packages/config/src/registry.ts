import * as fs from 'node:fs';
import * as path from 'node:path';
import { configError, failure, success, type ConfigError, type ConfigOutcome } from './errors';
import { CONFIG_APP_DIR, REGISTRY_FILE_NAME } from './limits';
import { indexLines, lineOf } from './locate';
import { homeDir, resolveConfigPath } from './paths';
import { parseTomlFile } from './toml';
import { readConfigText } from './workspace-config';

export interface RegistryEntry {
  /** The entry exactly as written. */
  path: string;
  /** Absolute path of the configuration it names (relative entries resolve against the registry's directory). */
  file: string;
  line: number | undefined;
}

export interface Registry {
  file: string;
  entries: RegistryEntry[];
}

/** $XDG_CONFIG_HOME/trufflepig/workspaces.toml when XDG_CONFIG_HOME is absolute, else $HOME/.config/trufflepig/workspaces.toml. */
export function registryPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir(env), '.config');
  return path.join(base, CONFIG_APP_DIR, REGISTRY_FILE_NAME);
}

/** Parse registry text: `workspaces = ["…", …]` and nothing else. */
export function parseRegistry(
  text: string,
  filePath: string,
  env: NodeJS.ProcessEnv = process.env,
): ConfigOutcome<Registry> {
  const file = path.resolve(filePath);
  const parsed = parseTomlFile(text, file, "fix the registry's TOML syntax");
  if (!parsed.ok) return failure(parsed.errors);
  const doc = parsed.value;
  const lines = indexLines(text);
  const errors: ConfigError[] = [];
  for (const key of Object.keys(doc)) {
    if (key !== 'workspaces') {
      errors.push(
        configError('config_unknown_field', `unknown field ${key}; the registry holds only workspaces = ["…"]`, {
          file,
          line: lineOf(lines, [key]),
          field: key,
        }),
      );
    }
  }
  const list = doc['workspaces'];
  const entries: RegistryEntry[] = [];
  const line = lineOf(lines, ['workspaces']);
  if (list !== undefined) {
    if (!Array.isArray(list) || !list.every((v): v is string => typeof v === 'string' && v !== '')) {
      errors.push(
        configError('config_invalid_type', 'workspaces must be a list of configuration file paths', {
          file,
          line,
          field: 'workspaces',
        }),
      );
    } else {
      for (const entry of list) {
        entries.push({
          path: entry,
          file: resolveConfigPath(entry, path.dirname(file), env),
          line: entryLine(text, entry, line),
        });
      }
    }
  }
  return errors.length ? failure(errors) : success({ file, entries });
}

/**
 * The line of one entry of a multi-line `workspaces` list: the first line at or after the
 * key whose text contains the entry as a basic or literal string; else the key's line.
 */
function entryLine(text: string, entry: string, keyLine: number | undefined): number | undefined {
  if (keyLine === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  const forms = [JSON.stringify(entry), `'${entry}'`];
  for (let i = keyLine - 1; i < lines.length; i++) {
    if (forms.some((form) => lines[i]!.includes(form))) return i + 1;
  }
  return keyLine;
}

/** The registry, or undefined when no registry file exists. */
export function loadRegistry(env: NodeJS.ProcessEnv = process.env): ConfigOutcome<Registry | undefined> {
  const file = registryPath(env);
  if (!fs.existsSync(file)) return success(undefined);
  const read = readConfigText(file);
  if (!read.ok) return read;
  return parseRegistry(read.value, file, env);
}
