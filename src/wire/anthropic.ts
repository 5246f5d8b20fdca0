// The Anthropic Messages wire: requests and JSON replies; SSE replies are assembled in
// anthropic-stream.ts.
import type { ToolOutcome, Turn, Wire } from "./types";
import { entryCalls, withEntryIds, type CallEntries } from "./calls";
import { headersWith, providerError, record, stripSlash, throwIfError, unusable, usageOf } from "./read";
import { anthropicPart, historyParts, promptContent, toolParts } from "./content";
import { readStream } from "./anthropic-stream";
import { turnOf } from "./anthropic-turn";

function parse(json: unknown): Turn {
  const data = record(json);
  if (data?.type === "error") throw providerError(data.error);
  throwIfError(data);
  if (!data || !Array.isArray(data.content)) throw unusable("content array", "anthropic", "/v1/messages");
  const usage = record(data.usage);
  return turnOf(data.content, usageOf(usage?.input_tokens, usage?.output_tokens), data.stop_reason);
}

function results(outcomes: readonly ToolOutcome[]): unknown[] {
  if (outcomes.length === 0) return [];
  // images and documents a tool returned go inside its tool_result, after its text
  const content = outcomes.map(({ call, result }) => {
    const parts = toolParts(result.content);
    return {
      type: "tool_result",
      tool_use_id: call.id,
      // the API refuses an empty text block
      content: parts.length
        ? [...(result.output ? [{ type: "text", text: result.output }] : []), ...parts.map(anthropicPart)]
        : result.output,
      is_error: result.isError,
    };
  });
  return [{ role: "user", content }];
}

const TOOL_USES: CallEntries = { list: "content", type: "tool_use", id: "id" };

/** The Anthropic Messages API (`/v1/messages`, `anthropic-version: 2023-06-01`). */
export const anthropicWire: Wire = {
  style: "anthropic",
  url(baseUrl) {
    const base = stripSlash(baseUrl);
    return base.endsWith("/v1") ? `${base}/messages` : `${base}/v1/messages`;
  },
  headers: (apiKey) => headersWith("x-api-key", apiKey, { "anthropic-version": "2023-06-01" }),
  start(_system, history, prompt) {
    const content = promptContent(prompt, anthropicPart);
    return [...historyParts(history, anthropicPart), { role: "user", content }];
  },
  body({ model, system, messages, tools, stream, output }) {
    const body: Record<string, unknown> = { model, max_tokens: 4096 };
    if (system) body.system = system; // an empty system is just noise: left out
    body.messages = messages;
    if (tools.length > 0) body.tools = tools;
    // structured outputs: the final text is JSON of the schema (constrained decoding; no beta header)
    if (output) body.output_config = { format: { type: "json_schema", schema: output } };
    if (stream) body.stream = true;
    return body;
  },
  declare: (toolkit) => toolkit?.toAnthropic() ?? [],
  parse,
  readStream,
  results,
  callsOf: (message) => entryCalls(message, TOOL_USES),
  withCallIds: (message, ids) => withEntryIds(message, ids, TOOL_USES),
};
