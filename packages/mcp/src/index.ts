export const PACKAGE_NAME = '@trufflepig/mcp';
export { serveMcp, serveProcessStdio, type McpServeOptions } from './server';
export { runCall, servesWorkspace, type ServeTarget, type VerbAnswer } from './execute';
export { toolResult, toolError, errorOf, type ToolResult, type TextBlock } from './result';
export { checkArguments, type VerbCall } from './tools/arguments';
export {
  TOOLS,
  SINGLE_ROOT_TOOLS,
  toolNamed,
  inputSchema,
  type ToolName,
  type ToolSpec,
  type ArgumentSchema,
} from './tools/table';
export * from './limits';
