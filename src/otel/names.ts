// The OpenTelemetry names the spans use. The GenAI ones are the values `@opentelemetry/semantic-conventions`
// (incubating) exports as ATTR_GEN_AI_*; they are written out here because every one of them is marked
// experimental and deprecated there (moved to the GenAI conventions' own repository, which publishes no
// package), and the strings alone keep that package out of a user's bundle. A test compares them.

export const OPERATION = "gen_ai.operation.name";
export const PROVIDER = "gen_ai.provider.name";
export const REQUEST_MODEL = "gen_ai.request.model";
export const AGENT_NAME = "gen_ai.agent.name";
export const RESPONSE_MODEL = "gen_ai.response.model";
export const RESPONSE_ID = "gen_ai.response.id";
export const FINISH_REASONS = "gen_ai.response.finish_reasons";
export const INPUT_TOKENS = "gen_ai.usage.input_tokens";
export const OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
export const TOOL_NAME = "gen_ai.tool.name";
export const TOOL_CALL_ID = "gen_ai.tool.call.id";
export const TOOL_TYPE = "gen_ai.tool.type";
export const TOOL_DESCRIPTION = "gen_ai.tool.description";
/** Content: only with `recordContent`. */
export const TOOL_ARGUMENTS = "gen_ai.tool.call.arguments";
export const TOOL_RESULT = "gen_ai.tool.call.result";
export const INPUT_MESSAGES = "gen_ai.input.messages";
export const OUTPUT_MESSAGES = "gen_ai.output.messages";
export const SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions";

export const ERROR_TYPE = "error.type";
export const SERVER_ADDRESS = "server.address";
export const SERVER_PORT = "server.port";
export const MCP_METHOD = "mcp.method.name";

/** What toolnexus adds beyond the conventions. */
export const RUN_STATUS = "toolnexus.run.status";
export const RUN_LIMIT = "toolnexus.run.limit";
export const WAIT_MS = "toolnexus.resume.wait_ms";
export const REQUEST_KIND = "toolnexus.request.kind";
export const REQUEST_ID = "toolnexus.request.id";
export const REQUEST_PROMPT = "toolnexus.request.prompt";
export const TOOL_SOURCE = "toolnexus.tool.source";
export const MCP_SERVER = "toolnexus.mcp.server";

/** `gen_ai.provider.name` of each wire style. */
export const PROVIDERS: Record<string, string> = {
  openai: "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  gemini: "gcp.gemini",
};

/** The numeric values of @opentelemetry/api's SpanKind and SpanStatusCode that the spans use. */
export const SPAN_KIND_INTERNAL = 0;
export const SPAN_KIND_CLIENT = 2;
export const STATUS_ERROR = 2;
