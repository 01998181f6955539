// The server on this process's stdio, as `trufflepig mcp` runs it: what the tests' SDK
// Client talks to over a real stdio transport. TP_NO_DAEMON=1 keeps every call in-process;
// TP_MCP_STRUCTURED=1 sends structured content (`trufflepig --json mcp`).
const { serveProcessStdio } = require('../dist');

const target = {
  cwd: process.cwd(),
  noDaemon: process.env.TP_NO_DAEMON === '1',
  ...(process.env.TP_CACHE ? { cache: process.env.TP_CACHE } : {}),
};
serveProcessStdio(target, '0.0.0-test', { structured: process.env.TP_MCP_STRUCTURED === '1' }).then(() =>
  process.exit(0),
);
