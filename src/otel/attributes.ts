// The attributes of each span, after the GenAI semantic conventions. Content — messages, the system prompt,
// tool arguments and results, a request's prompt — only when the host turned `recordContent` on; an API
// key or a header value never reaches here (the core does not hand them to a telemetry).
import type { Attributes } from "@opentelemetry/api";
import type { ModelCallReport, RunResult, ToolCallReport } from "../index";
import * as n from "./names";

/** `error.type`: a toolnexus error's code, else the error's name; never its message. */
export function errorType(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | null | undefined;
  if (typeof e?.code === "string" && e.code) return e.code;
  return typeof e?.name === "string" && e.name ? e.name : "Error";
}

/** The port a URL without one means, by its protocol. */
const DEFAULT_PORTS: Partial<Record<string, number>> = { "https:": 443, "http:": 80 };

/** `server.address` and `server.port` of a URL: its host and port alone, never a path or query. */
export function serverOf(url: string): Attributes {
  try {
    const { hostname, port, protocol } = new URL(url);
    const number = port ? Number(port) : DEFAULT_PORTS[protocol];
    return { [n.SERVER_ADDRESS]: hostname, ...(number ? { [n.SERVER_PORT]: number } : {}) };
  } catch {
    return {};
  }
}

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
};

/** A string property of the provider's reply (its `model`, its `id`), when it has one. */
const replied = (response: unknown, key: "model" | "id"): string | undefined => {
  const value = (response as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === "string" && value ? value : undefined;
};

/** What a finished model call adds to its `chat` span. */
export function modelAttributes(report: ModelCallReport, content: boolean): Attributes {
  const out: Attributes = {};
  const { turn, response } = report;
  if (content) {
    out[n.INPUT_MESSAGES] = json(report.messages);
    if (report.system) out[n.SYSTEM_INSTRUCTIONS] = json([{ type: "text", content: report.system }]);
  }
  if (!turn) return out;
  const model = replied(response, "model");
  const id = replied(response, "id");
  if (model) out[n.RESPONSE_MODEL] = model;
  if (id) out[n.RESPONSE_ID] = id;
  out[n.INPUT_TOKENS] = turn.usage.promptTokens;
  out[n.OUTPUT_TOKENS] = turn.usage.completionTokens;
  if (turn.finishReason) out[n.FINISH_REASONS] = [turn.finishReason];
  if (content) {
    const parts = [
      ...(turn.text ? [{ type: "text", content: turn.text }] : []),
      ...turn.calls.map((c) => ({ type: "tool_call", id: c.id, name: c.name, arguments: c.args })),
    ];
    out[n.OUTPUT_MESSAGES] = json([
      { role: "assistant", parts, ...(turn.finishReason ? { finish_reason: turn.finishReason } : {}) },
    ]);
  }
  return out;
}

/** `gen_ai.tool.type`: a tool that calls out to another system is an extension; the host's own code a function. */
const REMOTE = new Set(["mcp", "http", "a2a"]);

/** The attributes of an `execute_tool` span. */
export function toolAttributes(report: ToolCallReport, content: boolean): Attributes {
  const { tool, request, result } = report;
  const source = tool?.source;
  const out: Attributes = {
    [n.OPERATION]: "execute_tool",
    [n.TOOL_NAME]: report.name,
    [n.TOOL_CALL_ID]: report.id,
    [n.TOOL_TYPE]: source && REMOTE.has(source) ? "extension" : "function",
  };
  if (source) out[n.TOOL_SOURCE] = source;
  if (tool?.description) out[n.TOOL_DESCRIPTION] = tool.description;
  if (tool?.server) {
    out[n.MCP_SERVER] = tool.server.name;
    out[n.SERVER_ADDRESS] = tool.server.address;
    if (tool.server.port) out[n.SERVER_PORT] = tool.server.port;
    if (source === "mcp") out[n.MCP_METHOD] = "tools/call";
  }
  if (request) out[n.REQUEST_KIND] = request.kind;
  else if (result.isError) out[n.ERROR_TYPE] = "tool_error";
  if (content) {
    out[n.TOOL_ARGUMENTS] = json(report.args);
    if (!request) out[n.TOOL_RESULT] = result.output;
  }
  return out;
}

/** What a finished run adds to its `invoke_agent` span: its status, `error`, or `cancelled` (its caller left). */
export function runAttributes(result: RunResult | undefined, error: unknown): Attributes {
  if (!result) return { [n.RUN_STATUS]: error === undefined ? "cancelled" : "error" };
  return {
    [n.RUN_STATUS]: result.status,
    ...(result.status === "incomplete" ? { [n.RUN_LIMIT]: result.limit } : {}),
  };
}
