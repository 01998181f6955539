export const PACKAGE_NAME = '@trufflepig/workspace';
export type { TpError, Outcome } from './errors';
export { resolveRoot, RESULTS_DIR_NAME, type RootOptions, type ResolvedRoot } from './root';
export { runSearch, openIndex, pageOfSet, pageHits, type SearchData } from './search';
export { showHandle, showPath } from './show';
export {
  searchCommand, moreCommand, showCommand, indexCommand, statusCommand, wsCommand, WS_SUBCOMMANDS,
  errorResult, internalErrorResult, objectResult, responseBudget, type CommandOptions, type CommandResult,
} from './commands';
export {
  resolveContext, workspaceId, type Context, type ContextOptions, type MemberTarget, type WorkspaceContext,
} from './context';
export { runWorkspaceSearch, selectMembers, type WorkspaceSearchData, type WorkspaceSearchOptions } from './federate';
export { searchMember, type MemberSearchRequest, type MemberSearchResult, type MemberState } from './member-search';
export { wsShowObject, wsStatusObject, wsDiscover } from './ws-commands';
export * from './limits';
export { refsCommand, mapCommand, ctxCommand } from './nav-commands';
export { histCommand, blameCommand, sinceCommand, parseShowWords, HISTORY_VERB_USAGE } from './history-commands';
export { diffCommand, parseDiffWords } from './diff-command';
export { showSymbol } from './nav-sym';
export { followImport, moduleFiles, type ImportTrail, type Resolution } from './nav-resolve';
export { boundedMessage, CONTEXT_LINES_MAX, DEFAULT_BUDGET, DEFAULT_LIMIT, DEFAULT_SHOW_BUDGET, errorLine, escapeLineField, type OutputFormat } from '@trufflepig/render';
export { quoteInput } from '@trufflepig/index';
export { rootDaemonStatus, singleRootOf, serveThroughDaemons, stopDaemons, stopDaemonIn, ensureCoordinator, coordinatorDir } from './daemon-control';
export { serveRootDaemon } from './daemon-main';
export { enableReaderPool, enableServingMode } from './reader-pool';
export { commandOptions, handleServedRequest, linesError, type ServedRequest } from './daemon-handler';
