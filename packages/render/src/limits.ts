// Every output limit of the retrieval spec (sections 4 and 6) that this package enforces.

/** Token budget of a response when `-b/--budget` is not given (spec 4). */
export const DEFAULT_BUDGET = 600;
/** Token budget of a `show` response when `-b/--budget` is not given (spec 4). */
export const DEFAULT_SHOW_BUDGET = 1500;
/** Hits per search page when `-n/--limit` is not given (spec 4). */
export const DEFAULT_LIMIT = 20;
/** A page keeps snippets while at least this many hits (or all remaining) fit with them. */
export const SNIPPET_KEEP_MIN = 8;
/** Source rows per `show` response (spec 6). */
export const SHOW_MAX_ROWS = 200;
/** Characters of a snippet's text, `…` cut markers included (spec 4). */
export const SNIPPET_MAX_CHARS = 120;
/**
 * Characters of an error message, on stdout and stderr alike: a longer message (one that
 * quotes a 100,000-character regex, say) is cut to this with `…`.
 */
export const ERROR_MESSAGE_MAX_CHARS = 1000;
