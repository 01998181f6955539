// @trufflepig/render: o200k_base budgets, JSON and lines renderers, snippets, coordinates.
// Pure: no file system or process I/O (the tokenizer ranks module is loaded lazily).

export const PACKAGE_NAME = '@trufflepig/render';

export {
  DEFAULT_BUDGET,
  DEFAULT_LIMIT,
  DEFAULT_SHOW_BUDGET,
  CONTEXT_LINES_MAX,
  ERROR_MESSAGE_MAX_CHARS,
  EVIDENCE_MATCHES_MAX,
  MATCHES_LEFT_FILES_NAMED,
  MATCHES_LEFT_LINES_NAMED,
  SPAN_DEFINITION_MAX_LINES,
  SPAN_WINDOW_MAX_LINES,
  SHOW_MAX_ROWS,
  SNIPPET_KEEP_MIN,
  SNIPPET_MAX_CHARS,
} from './limits';
export { countTokens, withinBudget, warmTokenizer, tokenizerLoaded, tokenizerSource } from './tokens';
export {
  type SourceRow,
  splitRows,
  rowsOfLines,
  lineStarts,
  lineOfOffset,
  lineRange,
  displayText,
  indentColumns,
} from './rows';
export {
  type Snippet,
  type SnippetOptions,
  pickSnippet,
  cutSnippet,
  docCommentLine,
  isCommentLine,
  isDecorationLine,
} from './snippet';
export { budgetTooSmall, largestFitting, normalizeBudget, type OutputFormat, type RenderResult } from './fit';
export { fitRowPage, rowPageFooter, rowPageNote, type RowPageFit, type SetRowsPage } from './row-page';
export {
  type PageHit,
  type SearchPageInput,
  type EvidenceLevel,
  renderSearchPage,
  setIdSlack,
  sourceMarker,
} from './page';
export {
  type Evidence,
  type EvidenceLine,
  type EvidenceMatch,
  type LineOwner,
  lineMatchRows,
  pickEvidence,
} from './evidence';
export {
  type LineExtent,
  type HitSpanChoice,
  type IndentOf,
  type LineTextOf,
  chooseHitSpan,
  constructWindow,
  lineWindow,
  printedLines,
} from './span';
export { type HitGroup, type GroupedPageInput, renderGroupedPage } from './groups';
export { type FoldedRows, type ShowInput, type ShownRow, isFolded, renderShow } from './show';
export { renderObject } from './object';
export {
  type RenderError,
  type FittedError,
  fitError,
  internalErrorOf,
  errorLine,
  boundedMessage,
  cutText,
} from './fit-error';
export { escapeLineField, escapeSourceLine, FIELD, jsonLine } from './escape';
export { printedPath, isPlainPathText } from './path';
export { counted } from './counted';
