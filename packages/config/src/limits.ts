/** Largest workspace configuration (and registry) file accepted, in bytes (256 KiB). */
export const MAX_CONFIG_BYTES = 256 * 1024;

/** A workspace has at least one and at most this many members. */
export const MIN_MEMBERS = 1;
export const MAX_MEMBERS = 32;

/** Workspace and member names: 1–64 ASCII letters, digits, underscores or hyphens. */
export const MAX_NAME_LENGTH = 64;
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * Names NAME_PATTERN allows that are refused anyway: the properties of every JavaScript
 * object (Object.prototype). As keys of a plain object they vanish (`__proto__`) or
 * collide with inherited members, and member names key maps and JSON objects everywhere.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
]);

/** [output].budget range in o200k_base tokens. */
export const MIN_BUDGET = 1;
export const MAX_BUDGET = 1_000_000;

/** The file discovered in the invocation directory or its nearest ancestor. */
export const WORKSPACE_FILE_NAME = 'trufflepig.workspace.toml';

/** The global registry: $XDG_CONFIG_HOME/trufflepig/workspaces.toml (or ~/.config/…). */
export const CONFIG_APP_DIR = 'trufflepig';
export const REGISTRY_FILE_NAME = 'workspaces.toml';
