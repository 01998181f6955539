// @trufflepig/history: history as evidence (docs/history.md). Git is read directly, bounded
// (git.ts, limits.ts); parsers and range arithmetic are pure (parse-log, ranges, diff,
// origin, hunk-view); follow.ts walks a definition's commits across edits, renames and
// moves; blame.ts attributes its lines; change.ts reads a stored change back, verified;
// since.ts compares REV with the working tree (and, for `diff`, outside-hunks.ts the rest).
export const PACKAGE_NAME = '@trufflepig/history';

export * from './limits';
export { type HistoryError, type HistoryErrorCode, type Outcome } from './errors';
export { runGit, streamGit, type GitRun, type RunState, type StreamEnd } from './git';
export {
  openRepo,
  headStamp,
  gitPathOf,
  gitArg,
  encodedPath,
  decodedPath,
  rootPathOf,
  pathPrinter,
  type Repo,
} from './repo';
export {
  parseLogRecord,
  parseDiff,
  unquotePath,
  LOG_FORMAT,
  type Hunk,
  type FileDiff,
  type LogRecord,
} from './parse-log';
export { mapRangeBack, wholeFileCounts, type LineRange, type MappedRange } from './ranges';
export { diffLines, countEdits, hunksOf, type EditOp, type EditScript } from './diff';
export { chooseOrigin, lineSimilarity, linesOf, type Origin, type OriginCandidate } from './origin';
export { walkHistory, type HistTarget, type HistCommit, type HistSide, type HistWalk, type HistCut } from './follow';
export { mapToHead, type HeadMapping } from './head';
export {
  blameRange,
  parsePorcelain,
  runsOf,
  type Blame,
  type BlameRun,
  type BlameLine,
  type BlameCommit,
} from './blame';
export { blobId, readBlobs, objectTypes, type BlobRead } from './blob';
export { readChange, NO_WORKTREE_FILE, type ReadChange, type ReadSide } from './change';
export { hunkView, foldUnchanged, rowsOfRange, lineCount, type HunkRow, type HunkView } from './hunk-view';
export {
  renderChange,
  renderChangeSide,
  rowJson,
  rowLine,
  type ChangeShowInput,
  type ChangeSideName,
} from './render-change';
export {
  renderHistoryPage,
  sinceHitFields,
  sinceRow,
  sinceStatus,
  type HistoryPageInput,
  type HistoryVerb,
} from './render-page';
export { renderDiffPage, diffStatus, isOutsideHunk, type DiffPageInput, type DiffView } from './render-diff';
export { outsideHunks, type OutsideHunk } from './outside-hunks';
export { definitionChanges, type DefChange, type DefSpan } from './since-match';
export { resolveRevision, sinceRevision, type Revision, type Since, type SinceFile, type SinceOptions } from './since';
export { buildHistoryIndex, DEFAULT_INDEX_BOUNDS, type BuildReport, type IndexBounds } from './log-index-build';
export {
  loadHistoryIndex,
  followRecords,
  LoadedHistoryIndex,
  type RecordSource,
  type RecordRun,
} from './log-index-source';
export { historyIndexStatus, type HistoryIndexState, type HistoryIndexStatus } from './log-index-status';
export {
  historyIndexDir,
  historyIndexFile,
  readIndexFile,
  buildLockState,
  HISTORY_INDEX_DIR_NAME,
  HISTORY_INDEX_FILE_NAME,
  HISTORY_INDEX_LOCK_NAME,
  type IndexRead,
} from './log-index-store';
export {
  decodeIndex,
  encodeCommit,
  decodeCommit,
  HISTORY_INDEX_MAGIC,
  HISTORY_INDEX_VERSION,
  type IndexedCommit,
  type IndexedFile,
  type IndexCut,
  type SegmentMeta,
} from './log-index-format';
