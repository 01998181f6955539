export const PACKAGE_NAME = '@trufflepig/workspace';
// The typed library API (README "Library API"): openWorkspace, its answers and its errors.
export { openWorkspace } from './facade/api';
export {
  ERROR_CODES,
  ERROR_TABLE,
  TrufflepigError,
  isTrufflepigError,
  type ErrorCode,
  type ErrorHelp,
  type WorkspaceErrorCode,
} from './facade/errors';
export type {
  CommitInfo,
  Coverage,
  CoverageState,
  CtxAnswer,
  CtxItem,
  EvidenceLine,
  FoldedLines,
  Hit,
  IndexOptions,
  IndexReport,
  IndexResult,
  MapHit,
  MapPage,
  MemberCoverage,
  MemberInfo,
  MoreOptions,
  NavOptions,
  OpenOptions,
  OtherDefinition,
  Page,
  PageBase,
  Read,
  ReadRow,
  RefsCoverage,
  RefsHit,
  RefsPage,
  RoleName,
  ScopeGroup,
  SearchHit,
  SearchOptions,
  SearchPage,
  SearchScope,
  ShowOptions,
  SourceLine,
  SymbolContext,
  SymbolMember,
  Workspace,
} from './facade/types';
export type { TpError, Outcome } from './core/errors';
export { resolveRoot, RESULTS_DIR_NAME, type RootOptions, type ResolvedRoot } from './core/root';
export { parseWords, runSearch, openIndex, pageOfSet, pageHits, type SearchData } from './core/search';
export { showHandle, showPath } from './core/show';
export {
  searchCommand,
  moreCommand,
  showCommand,
  indexCommand,
  statusCommand,
  wsCommand,
  WS_SUBCOMMANDS,
} from './facade/commands';
export {
  errorResult,
  internalErrorResult,
  objectResult,
  responseBudget,
  type CommandOptions,
  type CommandResult,
} from './core/command-kit';
export {
  resolveContext,
  workspaceId,
  type Context,
  type ContextOptions,
  type MemberTarget,
  type WorkspaceContext,
} from './core/context';
export {
  runWorkspaceSearch,
  selectMembers,
  type WorkspaceSearchData,
  type WorkspaceSearchOptions,
} from './federation/federate';
export {
  searchMember,
  type MemberSearchRequest,
  type MemberSearchResult,
  type MemberState,
} from './federation/member-search';
export { wsShowObject, wsStatusObject, wsDiscover } from './facade/ws-commands';
export * from './core/limits';
export { refsCommand, mapCommand, ctxCommand } from './navigation/commands';
export { histCommand, blameCommand, sinceCommand, parseShowWords, HISTORY_VERB_USAGE } from './history-verbs/commands';
export { diffCommand, parseDiffWords } from './history-verbs/diff-command';
export { showSymbol } from './navigation/show-symbol';
export { followImport, moduleFiles, type ImportTrail, type Resolution } from '@trufflepig/navigation';
export {
  boundedMessage,
  CONTEXT_LINES_MAX,
  DEFAULT_BUDGET,
  DEFAULT_LIMIT,
  DEFAULT_SHOW_BUDGET,
  errorLine,
  escapeLineField,
  type OutputFormat,
} from '@trufflepig/render';
export { quoteInput } from '@trufflepig/index';
export { REFS_ROW_SHOW_CONTEXT_LINES } from './core/limits';
export {
  rootDaemonStatus,
  singleRootOf,
  serveThroughDaemons,
  stopDaemons,
  stopDaemonIn,
  ensureCoordinator,
  coordinatorDir,
} from './serving/launch/daemon-control';
export { serveRootDaemon } from './serving/host/daemon-main';
export { CLIENT_HOST, ROOT_DAEMON_HOST, COORDINATOR_HOST, type Host } from './core/host';
export { commandOptions, handleServedRequest, linesError, type ServedRequest } from './serving/host/daemon-handler';
// The did-you-mean of the CLI surface (apps/cli: likelyVerb) measures with base's editDistance.
export { editDistance } from '@trufflepig/base/edit-distance';
