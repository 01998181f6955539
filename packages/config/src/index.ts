export const PACKAGE_NAME = '@trufflepig/config';

export type { ConfigError, ConfigErrorCode, ConfigOutcome } from './errors';
export {
  parseWorkspaceConfig,
  loadWorkspaceConfig,
  readConfigText,
  type MemberConfig,
  type WorkspaceConfig,
  type ParseOptions,
} from './workspace-config';
export type { ScopeMode, ScopeSetting, SemanticSettings } from './schema';
export { registryPath, parseRegistry, loadRegistry, type Registry, type RegistryEntry } from './registry';
export {
  selectWorkspace,
  nearestAncestorConfig,
  type BelongsToMember,
  type SelectOptions,
  type Selection,
} from './select';
export { indexLines, lineOf, formatField, type LineIndex } from './locate';
export {
  MAX_CONFIG_BYTES,
  MIN_MEMBERS,
  MAX_MEMBERS,
  MAX_NAME_LENGTH,
  NAME_PATTERN,
  RESERVED_NAMES,
  MIN_BUDGET,
  MAX_BUDGET,
  WORKSPACE_FILE_NAME,
  CONFIG_APP_DIR,
  REGISTRY_FILE_NAME,
} from './limits';
