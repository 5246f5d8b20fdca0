// An MCP `tools/call` result as a ToolResult, mapped the way the toolnexus family maps it: an error result
// joins its non-blank text parts, `structuredContent` wins over the text as JSON, otherwise the text parts
// are joined by newlines. Non-text parts (images, audio, resources) are not carried yet.
import type { ToolResult } from "../index";

interface McpContent {
  type?: unknown;
  text?: unknown;
}
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

const texts = (content: unknown): string[] =>
  Array.isArray(content)
    ? content
        .filter((c: McpContent) => c?.type === "text" && typeof c.text === "string")
        .map((c: McpContent) => c.text as string)
    : [];

export function toToolResult(server: string, result: McpCallResult): ToolResult {
  const metadata = { server };
  if (result.isError === true) {
    const parts = texts(result.content).filter((t) => t.trim() !== "");
    return { output: parts.length ? parts.join("\n\n") : "MCP tool returned an error", isError: true, metadata };
  }
  if (result.structuredContent !== undefined)
    return { output: JSON.stringify(result.structuredContent), isError: false, metadata };
  return { output: texts(result.content).join("\n"), isError: false, metadata };
}

/** A failure that happened around the call (transport, protocol): data for the model, never a crash. */
export function failure(server: string, message: string, code?: number): ToolResult {
  return { output: message, isError: true, metadata: code === undefined ? { server } : { server, code } };
}
