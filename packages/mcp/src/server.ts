// The MCP server over stdio: lists the tools of the table, checks each call's arguments,
// runs it as the CLI would (daemons first), and answers with text and structured content.
// Nothing but protocol messages ever reaches the transport's stdout.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { internalErrorResult, stopDaemonIn } from '@trufflepig/workspace';
import { runCall, servesWorkspace, type ServeTarget } from './execute';
import { toolError, toolResult, type ToolResult } from './result';
import { MCP_DRAIN_MS } from './limits';
import { checkArguments } from './tools/arguments';
import { inputSchema, SINGLE_ROOT_TOOLS, TOOLS, toolNamed, type ToolSpec } from './tools/table';

export interface McpServeOptions {
  readonly target: ServeTarget;
  /** The version the server reports in its handshake (the CLI's). */
  readonly version: string;
  readonly stdin: Readable;
  /** The protocol's channel: only JSON-RPC messages are written here. */
  readonly stdout: Writable;
  /** Where the server's own trouble is reported (one line each). */
  readonly log: (line: string) => void;
  /** Ends the session at once (calls in flight are dropped): a signal to the process. */
  readonly abort?: AbortSignal;
  /**
   * Send each answer's JSON view as `structuredContent` beside the lines text (`trufflepig
   * --json mcp`). Off by default: Claude Code, Codex and OpenCode hand the model
   * `JSON.stringify(structuredContent)` instead of the text whenever it is present, so the
   * model read the JSON view (byte offsets, URIs, revisions: 1.6 times the tokens over an
   * agent trial, 2.4 times for show) fitted to the budget on its own, and under a small
   * budget only `{"status":"budget_too_small"}` where the text held evidence.
   */
  readonly structured?: boolean;
}

const INSTRUCTIONS =
  'Trufflepig answers code questions with ranked, token-budgeted evidence from an index of this repository (or workspace). ' +
  'Start with search (or show sym:NAME for a known definition), read a hit with show HANDLE, page with more CURSOR, follow callers with refs and outlines with map. ' +
  'Handles are verified against the bytes on disk; a coverage line says what was indexed and left out.';

/**
 * A JSON-RPC error the protocol sends as written: `code` and `data` are what the SDK reads
 * off a thrown error. Not the SDK's McpError, whose message already starts "MCP error
 * -32602: ", which a client's McpError prefixes again.
 */
class ProtocolError extends Error {
  readonly code = ErrorCode.InvalidParams;
  readonly data: { readonly code: string };
  constructor(code: string, message: string) {
    super(`${code}: ${message}`);
    this.data = { code };
  }
}

/** Serve until stdin ends or the client disconnects; then stop the daemons this session started, and resolve. Never throws. */
export async function serveMcp(opts: McpServeOptions): Promise<void> {
  // Daemons this session started (not ones it found running): stopped when it ends, so a
  // server that goes away leaves nothing behind that it brought up.
  const started = new Set<string>();
  const server = new Server(
    { name: 'trufflepig', title: 'Trufflepig', version: opts.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  // The tools this session lists and checks calls against, decided once (a client lists them
  // once): `member` only where a workspace is served.
  let served: readonly ToolSpec[] | undefined;
  const tools = (): readonly ToolSpec[] => (served ??= servesWorkspace(opts.target) ? TOOLS : SINGLE_ROOT_TOOLS);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools().map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputSchema(t),
      // Every tool only reads (an index, files, the result cache) inside the served root.
      annotations: {
        title: t.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    })),
  }));
  // Calls in flight: stdin that ends (a script piping its requests) still gets their answers.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<ToolResult> => {
    inFlight++;
    try {
      return await answerCall(req.params.name, req.params.arguments);
    } finally {
      // After the protocol has sent this answer (it does so once the handler resolves).
      if (--inFlight === 0 && drained) setImmediate(drained);
    }
  });
  const answerCall = async (name: string, args: unknown): Promise<ToolResult> => {
    const tool = toolNamed(name, tools());
    if (!tool)
      throw new ProtocolError(
        'unknown_tool',
        `no tool ${JSON.stringify(name.slice(0, 60))}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`,
      );
    const call = checkArguments(tool, args);
    // A call whose arguments do not fit the schema is a tool error, not a protocol error: the
    // model sees it and can correct the call (SEP-1303, MCP 2025-11-25: clients keep
    // protocol errors to themselves). An unknown tool stays a protocol error.
    if (!call.ok) return toolError(call.error);
    try {
      return toolResult(await runCall(call.value, opts.target, (dir) => started.add(dir), opts.structured === true));
    } catch (err) {
      // A verb that threw: one coded tool error, no stack (the CLI's internal_error rule).
      return toolResult(internalErrorResult(err, call.value.budget));
    }
  };

  const transport = new StdioServerTransport(opts.stdin, opts.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // A line that is not JSON-RPC: the transport drops it; JSON-RPC wants a parse error with a null id.
  transport.onerror = (err: Error) => {
    opts.log(`trufflepig mcp: ${err.message.split('\n')[0]}`);
    if (err instanceof SyntaxError || err.name === 'ZodError') {
      transport
        .send({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: ErrorCode.ParseError,
            message: `parse_error: not a JSON-RPC message (${err.message.split('\n')[0].slice(0, 120)})`,
          },
        } as never)
        .catch(() => undefined);
    }
  };
  const shut = () => {
    server.close().catch(() => undefined);
  };
  // The end of stdin: answer the calls already read (at most MCP_DRAIN_MS), then close.
  const drainThenShut = () => {
    // The protocol starts a handler a microtask after its message is read: look once they have.
    setImmediate(() => {
      if (inFlight === 0) return shut();
      const timer = setTimeout(shut, MCP_DRAIN_MS);
      drained = () => {
        clearTimeout(timer);
        shut();
      };
    });
  };
  opts.abort?.addEventListener('abort', shut, { once: true });
  opts.stdin.once('end', drainThenShut);
  opts.stdin.once('close', drainThenShut);
  // A client that went away mid-answer: EPIPE on stdout ends the session at once.
  opts.stdout.on('error', shut);
  // A call's work can wait on nothing Node counts (a WebAssembly compile): hold the event loop
  // open until the session closes, or a script's stdin that ended would end the process first.
  const hold = setInterval(() => undefined, 60_000);
  await server.connect(transport);
  await closed;
  clearInterval(hold);
  await Promise.all([...started].map((dir) => stopDaemonIn(dir).catch(() => undefined)));
}

/**
 * Serve on this process's stdin and stdout. The protocol gets its own channel to fd 1 and
 * every other write to process.stdout (a library's stray console.log) goes to stderr, so
 * nothing outside the protocol can corrupt the stream.
 */
export function serveProcessStdio(
  target: ServeTarget,
  version: string,
  options: { readonly structured?: boolean } = {},
): Promise<void> {
  const toFd1 = process.stdout.write.bind(process.stdout) as (
    chunk: Buffer | string,
    cb: (err?: Error | null) => void,
  ) => boolean;
  const channel = new Writable({
    write(chunk: Buffer, _encoding, cb) {
      toFd1(chunk, (err) => cb(err ?? undefined));
    },
  });
  process.stdout.on('error', (err) => channel.destroy(err));
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  // A client that ends the server with a signal gets the same clean end as a closed stdin:
  // the daemons this session started are stopped before the process goes.
  const abort = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => abort.abort());
  return serveMcp({
    target,
    version,
    stdin: process.stdin,
    stdout: channel,
    log: (line) => process.stderr.write(`${line}\n`),
    abort: abort.signal,
    structured: options.structured === true,
  });
}
