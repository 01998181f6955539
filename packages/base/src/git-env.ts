// The environment of every Git process Trufflepig runs. Variables that redirect repository
// discovery, inherited from a hook or a parent git command, would make a run describe
// another repository than the one asked about; they are removed, and output is in the C
// locale. Callers add what their parsers need on top (`extra`).

/** Inherited variables that point Git at another repository, index or object store. */
export const GIT_DISCOVERY_OVERRIDES: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

/** `inherited` (default: this process's) without the discovery overrides and `remove`, with `LC_ALL=C` and `extra`. */
export function gitEnvironment(
  extra: Readonly<Record<string, string>> = {},
  remove: readonly string[] = [],
  inherited: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...inherited, LC_ALL: 'C', ...extra };
  for (const name of [...GIT_DISCOVERY_OVERRIDES, ...remove]) delete env[name];
  return env;
}
