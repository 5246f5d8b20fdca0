// `toolnexus/mcp`: remote MCP tools over streamable HTTP, with MCP elicitation as a toolnexus suspension.
export { connectMcp } from "./connect";
export type { ConnectMcpOptions, McpConnection, McpStatus } from "./connect";
export type { McpApproval } from "./approval";
export { sanitize } from "./names";
