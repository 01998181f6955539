export const PACKAGE_NAME = '@trufflepig/workspace';
export type { TpError, Outcome } from './errors';
export { resolveRoot, RESULTS_DIR_NAME, type RootOptions, type ResolvedRoot } from './root';
export { runSearch, openIndex, pageOfSet, pageHits, type SearchData } from './search';
export { showHandle, showPath } from './show';
export {
  searchCommand, moreCommand, showCommand, indexCommand, statusCommand,
  type CommandOptions, type CommandResult,
} from './commands';
export { DEFAULT_BUDGET, DEFAULT_LIMIT, DEFAULT_SHOW_BUDGET, type OutputFormat } from '@trufflepig/render';
