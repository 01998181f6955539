export * from './limits';
// Owned by @trufflepig/base (the walk and the runtime's watcher share it); re-exported for callers of this entry.
export { ALWAYS_SKIPPED_DIRS } from '@trufflepig/base';
export * from './errors';
export * from './paths';
export { quoteInput } from './quote';
export * from './classify';
export { readInsideRoot, type InsideRead, type ReadRefusal } from './read/inside-root';
export { revisionOf } from './revision';
export {
  linesThatMayHold,
  literalIndexIn,
  tokenIndexIn,
  literalMatchesCase,
  readIndexedBytes,
  readLiveFile,
  liveReadBound,
  type IndexedRevision,
  type LiveRead,
  type RegexHelper,
} from './query/live';
export { ScanPool, sharedScanPool } from './query/scan-pool';
export { walkRoot, type WalkedFile, type WalkResult } from './walk';
export { trackedDirsUnderSkipped } from './walk/git';
export type { SkipClass, SkippedDir, SkipSummary } from './walk/skipped';
export { definitionsParsedCleanly, extractFile, extractOccurrences } from './extract/extract';
export { goImportName } from './extract/lang/go';
export { ROLE, roleNames, type RoleName } from './extract/facts';
export type { Definition, NameUse, Region, Extraction, ParseStatus, ImportFact, Occurrence } from './extract/facts';
export { decodeText, lineStartOffsets, lineAt, lineNumberAt } from './extract/text';
export {
  reconcile,
  type ReconcileOptions,
  type ReconcileProgress,
  type ReconcileReport,
  type SeedOutcome,
} from './reconcile';
export {
  parseQuery,
  symbolQuery,
  hasFilters,
  definitionKinds,
  spelledWord,
  QUERY_KINDS,
  type ParsedQuery,
  type QueryMode,
} from './query/parse';
export { FUNCTION_KINDS } from './extract/raw';
export { createPathMatcher, type PathMatcher } from './query/pathmatch';
export { fileEligibility, type FileFilters, type FilterFacts } from './query/eligibility';
export {
  IndexReader,
  coverageState,
  indexCommandHint,
  type OpenOptions,
  type FileTable,
  type CoverageState,
  type DefinitionSpan,
  type IndexedFile,
  type IndexCoverage,
  type IndexedDefinition,
  type IndexedImport,
} from './query/reader';
export { searchIndex, type SearchOptions } from './query/search';
export { byPath, type PathRow } from './query/file-rows';
export { dottedAsOwned, ownedMemberOf } from './query/dotted';
export { compileRegex, type RegexMatcher } from './query/regex-engine';
export { GIT_LOG_TAG, COMMIT_PATH_PREFIX } from './query/commits';
export { commitExists, readCommitMessage, commitDocument, type GitLogState } from './reconcile/git-log';
export {
  declarationRank,
  definitionHomeRank,
  isCallableKind,
  isEnclosingKind,
  namesItsLines,
  enclosingDefinitions,
  kindTier,
  OWNER_KINDS,
} from './query/lanes';
export { tooLargeCodeMentioning, unparsedCodeMentioning } from './query/mentions';
export type { SearchHit, SearchOutcome, FilterDiagnosis, ScopeGroup, Truncation, RegexScanReport } from './query/hit';
export { qualifiedName } from './extract/facts';
export { indexPath, removeWriterLockOfThread } from './store/publish';
export { publishedStamp, releaseStampProbe } from './store/database';
export {
  lockFileState,
  processAlive,
  readReconcileFailure,
  type ReconcileFailure,
  type WriterLockState,
} from './store/health';
export { rootIdentity } from './store/root-owner';
export { nearestDefinedNames } from './query/nearest-names';
export { nearestPaths } from './query/nearest-paths';
// The BM25 of matchinfo('pcnalx') the lanes rank by: tools/bench/storage scores other engines' rows with it.
export { bm25 } from './query/fts';
