// Every output limit of the retrieval spec (sections 4 and 6) that this package enforces.

/** Token budget of a response when `-b/--budget` is not given (docs/spec/retrieval.md §4). */
export const DEFAULT_BUDGET = 600;
/** Token budget of a `show` response when `-b/--budget` is not given (docs/spec/retrieval.md §4). */
export const DEFAULT_SHOW_BUDGET = 1200;
/** Hits per search page when `-n/--limit` is not given (docs/spec/retrieval.md §4). */
export const DEFAULT_LIMIT = 20;
/** A page keeps snippets while at least this many hits (or all remaining) fit with them. */
export const SNIPPET_KEEP_MIN = 8;
/** Source rows per `show` response (docs/spec/retrieval.md §6). */
export const SHOW_MAX_ROWS = 200;
/** Characters of an evidence line's text (a snippet), `…` cut markers included (docs/spec/retrieval.md §4). */
export const SNIPPET_MAX_CHARS = 160;
/** A hit's span: the smallest enclosing definition of at most this many lines holding its best match (docs/spec/retrieval.md §4). */
export const SPAN_DEFINITION_MAX_LINES = 80;
/**
 * Otherwise a window of at most this many lines around the best match (docs/spec/retrieval.md §4 allows 20;
 * 16 reads a key with its value or a call with its arguments and costs a fifth less).
 */
export const SPAN_WINDOW_MAX_LINES = 16;
/** Lines of a window above its best match (the rest of the window follows it). */
export const SPAN_WINDOW_LINES_BEFORE = 3;
/** A window starts at most this many lines above its match to take in the line opening the match's block. */
export const SPAN_WINDOW_BLOCK_LINES_BEFORE_MAX = 8;
/** Matching lines shown per hit of a `re:` or `"literal"` search, the best one included (docs/spec/retrieval.md §4). */
export const EVIDENCE_MATCHES_MAX = 5;
/** The `matches left:` footer names its files (most matches left first) when there are at most this many. */
export const MATCHES_LEFT_FILES_NAMED = 5;
/** Of one file, the `matches left:` footer lists the line numbers of its lines left, at most this many. */
export const MATCHES_LEFT_LINES_NAMED = 10;
/** Largest `-C N`: context lines before and after each evidence line. */
export const CONTEXT_LINES_MAX = 10;
/** Columns a tab stands for in a line's indentation (`-C` evidence, block-aware windows). */
export const EVIDENCE_TAB_COLUMNS = 4;
/** A page keeps every evidence line (further matches, context) while at least this many hits (or all remaining) fit with them. */
export const EVIDENCE_FULL_KEEP_MIN = 4;
/**
 * Characters of an error message, on stdout and stderr alike: a longer message (one that
 * quotes a 100,000-character regex, say) is cut to this with `…`.
 */
export const ERROR_MESSAGE_MAX_CHARS = 1000;
/** Lines after its first a `re:` match running past a line break shows of itself (context lines). */
export const MATCH_CONTINUATION_LINES_MAX = 3;
