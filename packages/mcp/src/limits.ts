// Every limit of the MCP front end, in one place.

/**
 * The largest `budget` a tool call may ask for. The CLI takes any whole number, but an MCP
 * answer lands in a model's context: a budget beyond this is a mistake, answered with a
 * protocol error instead of a flood.
 */
export const MCP_BUDGET_MAX = 32_000;

/** The longest string argument (a query, a handle, a path): beyond it a call is refused. */
export const MCP_STRING_MAX_CHARS = 4_096;

/** The largest `limit` (files or rows per page) a call may ask for. */
export const MCP_LIMIT_MAX = 200;

/** How long a server whose stdin ended keeps answering the calls it had already read. */
export const MCP_DRAIN_MS = 30_000;
