import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalOrAbsolute, overlappingPairs } from '@trufflepig/base';
import { configError, failure, success, type ConfigError, type ConfigOutcome } from './errors';
import { MAX_CONFIG_BYTES } from './limits';
import { formatField, indexLines } from './locate';
import { inspectRoot, resolveConfigPath } from './paths';
import { validateDocument, type ScopeSetting, type SemanticSettings } from './schema';
import { parseTomlFile } from './toml';

export interface MemberConfig {
  name: string;
  /** The path as written in the file. */
  path: string;
  /** Canonical directory when available; otherwise the normalized absolute path. */
  root: string;
  available: boolean;
  /** Why the member is unavailable (e.g. "directory does not exist"). */
  unavailableReason?: string;
  line: number | undefined;
}

export interface WorkspaceConfig {
  /** Canonical path of the configuration file; the workspace's identity. */
  file: string;
  name: string;
  semantic: SemanticSettings;
  /** [output].budget: the default response budget; an explicit -b always wins. */
  budget: number | undefined;
  scopes: ScopeSetting;
  /** In [workspace].members order when present, else document order. */
  members: MemberConfig[];
}

export interface ParseOptions {
  /** For `~` expansion; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Parse and validate a workspace configuration. `filePath` names the file in errors and
 * anchors relative member paths (the directory of its canonical path). Reads the file
 * system only to resolve member roots.
 */
export function parseWorkspaceConfig(
  text: string,
  filePath: string,
  opts: ParseOptions = {},
): ConfigOutcome<WorkspaceConfig> {
  const env = opts.env ?? process.env;
  const file = canonicalOrAbsolute(filePath);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CONFIG_BYTES) {
    return failure([
      configError(
        'config_too_large',
        `configuration is ${bytes} bytes, over the ${MAX_CONFIG_BYTES}-byte limit; shrink it`,
        { file },
      ),
    ]);
  }
  const parsed = parseTomlFile(text, file, 'fix the TOML syntax');
  if (!parsed.ok) return failure(parsed.errors);
  const doc = parsed.value;
  const lines = indexLines(text);
  const { document, errors } = validateDocument(doc, file, lines);
  if (errors.length) return failure(errors);

  const baseDir = path.dirname(file);
  const members: MemberConfig[] = document.members.map((m) => {
    const state = inspectRoot(resolveConfigPath(m.path, baseDir, env));
    const member: MemberConfig = {
      name: m.name,
      path: m.path,
      root: state.root,
      available: state.available,
      line: m.line,
    };
    if (!state.available) member.unavailableReason = state.reason;
    return member;
  });
  const rootErrors = checkMemberRoots(members, file);
  if (rootErrors.length) return failure(rootErrors);
  return success({
    file,
    name: document.name,
    semantic: document.semantic,
    budget: document.budget,
    scopes: document.scopes,
    members,
  });
}

/** Duplicate and overlapping roots, symlink aliases included (canonical comparison). */
function checkMemberRoots(members: readonly MemberConfig[], file: string): ConfigError[] {
  const errors: ConfigError[] = [];
  const canonical = members.map((m) => canonicalOrAbsolute(m.root));
  for (const pair of overlappingPairs(canonical)) {
    const a = members[pair.first]!;
    const b = members[pair.second]!;
    // Report at the later of the two declarations: that is the line to change.
    const later = (a.line ?? 0) > (b.line ?? 0) ? a : b;
    const at = { file, line: later.line, field: formatField(['members', later.name, 'path']) };
    if (pair.kind === 'same') {
      errors.push(
        configError(
          'config_duplicate_root',
          `members ${a.name} and ${b.name} are the same directory ${canonical[pair.first]}; remove one of them`,
          at,
        ),
      );
    } else {
      const outer = members[pair.outer]!;
      const inner = members[pair.inner]!;
      errors.push(
        configError(
          'config_overlapping_root',
          `member ${inner.name} (${inner.root}) lies inside member ${outer.name} (${outer.root}); members must not overlap, remove or move one`,
          at,
        ),
      );
    }
  }
  return errors;
}

/** Read (at most MAX_CONFIG_BYTES) and parse a workspace configuration file. */
export function loadWorkspaceConfig(filePath: string, opts: ParseOptions = {}): ConfigOutcome<WorkspaceConfig> {
  const read = readConfigText(filePath);
  if (!read.ok) return read;
  return parseWorkspaceConfig(read.value, filePath, opts);
}

/** The text of a configuration file, refusing missing, unreadable and oversized files. */
export function readConfigText(filePath: string): ConfigOutcome<string> {
  const file = path.resolve(filePath);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return failure([
      configError('config_not_found', `configuration file does not exist; check the path or create it`, { file }),
    ]);
  }
  if (!stat.isFile())
    return failure([
      configError('config_unreadable', 'configuration path is not a file; pass the .toml file itself', { file }),
    ]);
  if (stat.size > MAX_CONFIG_BYTES) {
    return failure([
      configError(
        'config_too_large',
        `configuration is ${stat.size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit; shrink it`,
        { file },
      ),
    ]);
  }
  try {
    return success(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return failure([
      configError(
        'config_unreadable',
        `cannot read configuration (${(error as NodeJS.ErrnoException).code ?? 'error'}); check its permissions`,
        { file },
      ),
    ]);
  }
}
