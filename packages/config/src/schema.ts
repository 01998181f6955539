// Pure validation of a parsed workspace document: no file system access. Path resolution
// and root checks happen afterwards in workspace-config.ts.
import { configError, type ConfigError } from './errors';
import { MAX_BUDGET, MAX_MEMBERS, MIN_BUDGET, MIN_MEMBERS, NAME_PATTERN, RESERVED_NAMES } from './limits';
import { formatField, lineOf, type LineIndex } from './locate';

export type ScopeMode = 'shared' | 'per_source';
/** `[retrieval] scopes`: a mode or an explicit list of scopes (each a list of source tags). */
export type ScopeSetting = ScopeMode | string[][];

export interface SemanticSettings {
  /** Absent when the file does not say; the caller applies its default. */
  enabled?: boolean;
  rerank?: boolean;
}

export interface MemberDeclaration {
  name: string;
  /** The path exactly as written in the file. */
  path: string;
  /** Line of the member's `path` (or of its table when `path` is missing). */
  line: number | undefined;
}

export interface WorkspaceDocument {
  name: string;
  /** [workspace].members as written, when present. */
  memberOrder: string[] | undefined;
  semantic: SemanticSettings;
  budget: number | undefined;
  /** Defaults to "shared" (docs/spec/per-source.md). */
  scopes: ScopeSetting;
  /** In [workspace].members order when given, else in document order. */
  members: MemberDeclaration[];
}

const SOURCE_TAG = /^source:.+/;

const KNOWN_KEYS: Record<string, readonly string[] | 'members'> = {
  workspace: ['name', 'members'],
  semantic: ['enabled', 'rerank'],
  output: ['budget'],
  retrieval: ['scopes'],
  members: 'members',
};
const MEMBER_KEYS = ['path'];

type Value = unknown;
type Table = Record<string, Value>;

function isTable(value: Value): value is Table {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

function describe(value: Value): string {
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  if (value instanceof Date) return 'a date';
  return `a ${typeof value}`;
}

class Collector {
  readonly errors: ConfigError[] = [];
  constructor(
    private readonly file: string,
    private readonly lines: LineIndex,
  ) {}

  add(code: ConfigError['code'], path: readonly string[], what: string): void {
    const field = formatField(path);
    this.errors.push(configError(code, what, { file: this.file, line: lineOf(this.lines, path), field }));
  }

  lineOf(path: readonly string[]): number | undefined {
    return lineOf(this.lines, path);
  }
}

function checkUnknown(c: Collector, table: Table, prefix: readonly string[], allowed: readonly string[]): void {
  for (const key of Object.keys(table)) {
    if (!allowed.includes(key)) {
      const path = [...prefix, key];
      const where = prefix.length ? `[${formatField(prefix)}]` : 'the top level';
      c.add(
        'config_unknown_field',
        path,
        `unknown field ${formatField(path)}; allowed in ${where}: ${allowed.join(', ')} — remove or rename it`,
      );
    }
  }
}

function section(c: Collector, doc: Table, name: string): Table | undefined {
  const value = doc[name];
  if (value === undefined) return undefined;
  if (!isTable(value)) {
    c.add(
      'config_invalid_type',
      [name],
      `${name} must be a table ([${name}]), found ${describe(value)}; write it as a [${name}] section`,
    );
    return undefined;
  }
  return value;
}

function optionalBoolean(c: Collector, table: Table, path: readonly string[]): boolean | undefined {
  const value = table[path[path.length - 1]!];
  if (value === undefined || typeof value === 'boolean') return value;
  c.add('config_invalid_type', path, `${formatField(path)} must be true or false, found ${describe(value)}`);
  return undefined;
}

function checkName(c: Collector, name: string, path: readonly string[], what: string): boolean {
  if (RESERVED_NAMES.has(name)) {
    c.add(
      'config_invalid_name',
      path,
      `${what} ${JSON.stringify(name)} is reserved (a property of every JavaScript object, it would vanish from maps keyed by name); choose another name`,
    );
    return false;
  }
  if (NAME_PATTERN.test(name)) return true;
  c.add(
    'config_invalid_name',
    path,
    `${what} ${JSON.stringify(name)} is invalid; use 1–64 ASCII letters, digits, underscores or hyphens`,
  );
  return false;
}

function readScopes(c: Collector, retrieval: Table | undefined): ScopeSetting {
  const value = retrieval?.['scopes'];
  const path = ['retrieval', 'scopes'];
  if (value === undefined) return 'shared';
  if (value === 'shared' || value === 'per_source') return value;
  const hint = 'use "shared", "per_source" or a list of scopes such as [[], ["source:code"]]';
  if (!Array.isArray(value)) {
    c.add(
      'config_invalid_scopes',
      path,
      `retrieval.scopes is ${typeof value === 'string' ? JSON.stringify(value) : describe(value)}; ${hint}`,
    );
    return 'shared';
  }
  if (value.length === 0) {
    c.add('config_invalid_scopes', path, `retrieval.scopes is an empty list, which would rank nothing; ${hint}`);
    return 'shared';
  }
  const scopes: string[][] = [];
  for (const scope of value) {
    if (!Array.isArray(scope) || !scope.every((tag): tag is string => typeof tag === 'string')) {
      c.add('config_invalid_scopes', path, `every entry of retrieval.scopes must be a list of tag strings; ${hint}`);
      return 'shared';
    }
    // docs/spec/per-source.md: only source: tags form scopes; any other tag would make a scope that means nothing.
    const bad = scope.find((tag) => !SOURCE_TAG.test(tag));
    if (bad !== undefined) {
      c.add(
        'config_invalid_scopes',
        path,
        `retrieval.scopes names ${JSON.stringify(bad)}, which is not a source: tag; only source:NAME tags form scopes`,
      );
      return 'shared';
    }
    scopes.push([...scope]);
  }
  return scopes;
}

function readMembers(c: Collector, doc: Table): MemberDeclaration[] {
  const members = section(c, doc, 'members');
  if (members === undefined) return [];
  const declared: MemberDeclaration[] = [];
  for (const [name, value] of Object.entries(members)) {
    const prefix = ['members', name];
    checkName(c, name, prefix, 'member name');
    if (!isTable(value)) {
      c.add(
        'config_invalid_type',
        prefix,
        `members.${formatField([name])} must be a table with a path, found ${describe(value)}; write [members.${formatField([name])}] path = "…"`,
      );
      continue;
    }
    checkUnknown(c, value, prefix, MEMBER_KEYS);
    const memberPath = value['path'];
    if (memberPath === undefined) {
      c.add(
        'config_missing_field',
        [...prefix, 'path'],
        `member ${name} has no path; add path = "…" to [members.${formatField([name])}]`,
      );
      continue;
    }
    if (typeof memberPath !== 'string' || memberPath.trim() === '') {
      c.add(
        'config_invalid_path',
        [...prefix, 'path'],
        `${formatField([...prefix, 'path'])} must be a non-empty string path`,
      );
      continue;
    }
    declared.push({ name, path: memberPath, line: c.lineOf([...prefix, 'path']) });
  }
  // Object key order puts integer-like names ("1", "2") first, so restore document order.
  return declared.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function readMemberOrder(
  c: Collector,
  workspace: Table | undefined,
  declared: readonly MemberDeclaration[],
  anyMembers: boolean,
): string[] | undefined {
  const value = workspace?.['members'];
  const path = ['workspace', 'members'];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    c.add('config_invalid_type', path, 'workspace.members must be a list of member names');
    return undefined;
  }
  if (!anyMembers) return value;
  const names = new Set(declared.map((m) => m.name));
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const entry of value) {
    if (seen.has(entry)) problems.push(`${JSON.stringify(entry)} is listed twice`);
    else if (!names.has(entry)) problems.push(`${JSON.stringify(entry)} is not a declared [members.${entry}]`);
    seen.add(entry);
  }
  const missing = [...names].filter((name) => !seen.has(name));
  if (missing.length) problems.push(`missing ${missing.map((m) => JSON.stringify(m)).join(', ')}`);
  if (problems.length) {
    c.add(
      'config_members_mismatch',
      path,
      `workspace.members must name every declared member exactly once: ${problems.join('; ')}`,
    );
  }
  return value;
}

/** Validate a parsed document. `errors` is empty exactly when the document is valid. */
export function validateDocument(
  doc: Table,
  file: string,
  lines: LineIndex,
): { document: WorkspaceDocument; errors: ConfigError[] } {
  const c = new Collector(file, lines);
  checkUnknown(c, doc, [], Object.keys(KNOWN_KEYS));
  const workspace = section(c, doc, 'workspace');
  const semantic = section(c, doc, 'semantic');
  const output = section(c, doc, 'output');
  const retrieval = section(c, doc, 'retrieval');
  if (workspace) checkUnknown(c, workspace, ['workspace'], KNOWN_KEYS.workspace as readonly string[]);
  if (semantic) checkUnknown(c, semantic, ['semantic'], KNOWN_KEYS.semantic as readonly string[]);
  if (output) checkUnknown(c, output, ['output'], KNOWN_KEYS.output as readonly string[]);
  if (retrieval) checkUnknown(c, retrieval, ['retrieval'], KNOWN_KEYS.retrieval as readonly string[]);

  let name = '';
  const rawName = workspace?.['name'];
  if (rawName === undefined) {
    c.add('config_missing_field', ['workspace', 'name'], 'the workspace has no name; add [workspace] name = "…"');
  } else if (typeof rawName !== 'string') {
    c.add('config_invalid_type', ['workspace', 'name'], `workspace.name must be a string, found ${describe(rawName)}`);
  } else if (checkName(c, rawName, ['workspace', 'name'], 'workspace name')) {
    name = rawName;
  }

  let budget: number | undefined;
  const rawBudget = output?.['budget'];
  if (rawBudget !== undefined) {
    if (typeof rawBudget !== 'number' || !Number.isInteger(rawBudget)) {
      c.add(
        'config_invalid_type',
        ['output', 'budget'],
        `output.budget must be a whole number of tokens, found ${describe(rawBudget)}`,
      );
    } else if (rawBudget < MIN_BUDGET || rawBudget > MAX_BUDGET) {
      c.add(
        'config_budget_range',
        ['output', 'budget'],
        `output.budget ${rawBudget} is outside ${MIN_BUDGET}..${MAX_BUDGET.toLocaleString('en-US')}; choose a budget in that range`,
      );
    } else {
      budget = rawBudget;
    }
  }

  const semanticSettings: SemanticSettings = {};
  const enabled = semantic ? optionalBoolean(c, semantic, ['semantic', 'enabled']) : undefined;
  const rerank = semantic ? optionalBoolean(c, semantic, ['semantic', 'rerank']) : undefined;
  if (enabled !== undefined) semanticSettings.enabled = enabled;
  if (rerank !== undefined) semanticSettings.rerank = rerank;

  const scopes = readScopes(c, retrieval);
  const membersTable = doc['members'];
  const declaredCount = isTable(membersTable) ? Object.keys(membersTable).length : 0;
  const members = readMembers(c, doc);
  if (declaredCount < MIN_MEMBERS || declaredCount > MAX_MEMBERS) {
    c.add(
      'config_member_count',
      ['members'],
      `the workspace declares ${declaredCount} members; declare between ${MIN_MEMBERS} and ${MAX_MEMBERS} [members.NAME] tables`,
    );
  }
  const memberOrder = readMemberOrder(c, workspace, members, declaredCount > 0);
  if (memberOrder && c.errors.every((e) => e.code !== 'config_members_mismatch')) {
    const byName = new Map(members.map((m) => [m.name, m]));
    const ordered = memberOrder.map((n) => byName.get(n)).filter((m): m is MemberDeclaration => m !== undefined);
    if (ordered.length === members.length) members.splice(0, members.length, ...ordered);
  }
  return { document: { name, memberOrder, semantic: semanticSettings, budget, scopes, members }, errors: c.errors };
}
