// A verb's answer as an MCP tool result: pure. The text is what the CLI prints on stdout
// (lines, within the budget); the structured content is the JSON view of the same answer.
import type { VerbAnswer } from './execute';

/** The one line every coded error prints: `trufflepig: CODE: message` (docs/spec/retrieval.md section 4). */
const ERROR_LINE = /^trufflepig: ([a-z][a-z0-9_]*): (.*)$/;

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/** The MCP `CallToolResult` this server returns (the SDK's type is wider; this is what we send). */
export interface ToolResult {
  readonly content: TextBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** The coded error of a failed verb, from its one `trufflepig: CODE: message` line. */
export function errorOf(stderr: string): { code: string; message: string } {
  const line = stderr.split('\n').find((l) => ERROR_LINE.test(l)) ?? '';
  const m = ERROR_LINE.exec(line);
  return m
    ? { code: m[1], message: m[2] }
    : { code: 'internal_error', message: stderr.trim().split('\n')[0] || 'the verb failed without a message' };
}

function parsedObject(json: string | undefined): Record<string, unknown> | undefined {
  if (json === undefined || json.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A tool error: the CLI's one coded line as text, `{ error: { code, message } }` as structure. */
export function toolError(error: { readonly code: string; readonly message: string }): ToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `trufflepig: ${error.code}: ${error.message}` }],
    structuredContent: { error: { code: error.code, message: error.message } },
  };
}

/**
 * The tool result of an answer. A failed verb is a tool error (isError) whose text is its
 * coded line and whose structured content is `{ error: { code, message } }`. Notes the CLI
 * prints on stderr beside a good answer (a retry hint under a tiny budget, a warning) follow
 * as a second text block: the budget bounds the answer, as on the command line.
 */
export function toolResult(answer: VerbAnswer): ToolResult {
  if (answer.exitCode !== 0) return toolError(errorOf(answer.stderr));
  const content: TextBlock[] = [{ type: 'text', text: answer.stdout }];
  const notes = answer.stderr.trim();
  if (notes) content.push({ type: 'text', text: notes });
  const structured = parsedObject(answer.json);
  return { content, ...(structured ? { structuredContent: structured } : {}) };
}
