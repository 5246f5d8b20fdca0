// The OpenAI chat-completions wire: requests and JSON replies; SSE replies
// are assembled in openai-stream.ts, loaded with the first streamed turn.
import { StreamError } from "../errors";
import type { ToolCall, Turn, Wire } from "./types";
import { callFromRaw, callFromValue, openaiUsage, providerError, record, textOf } from "./common";

const stripSlash = (base: string): string => (base.endsWith("/") ? base.slice(0, -1) : base);

function callOf(value: unknown): ToolCall {
  const tc = record(value);
  const fn = record(tc?.function);
  const id = typeof tc?.id === "string" ? tc.id : "";
  const name = typeof fn?.name === "string" ? fn.name : "";
  const args = fn?.arguments;
  if (args === undefined || args === null || typeof args === "string") return callFromRaw(id, name, args ?? "");
  return callFromValue(id, name, args); // some compatible servers send the arguments as an object
}

const toolCallsOf = (message: unknown): (Record<string, unknown> | undefined)[] => {
  const calls = record(message)?.tool_calls;
  return Array.isArray(calls) ? calls.map(record) : [];
};

function parse(json: unknown): Turn {
  const data = record(json);
  if (data?.error !== undefined && data.error !== null) throw providerError(data.error);
  const choice = record(Array.isArray(data?.choices) ? data.choices[0] : undefined);
  const message = record(choice?.message);
  if (!data || !message) {
    throw new StreamError(
      'toolnexus: the reply has no choices[0].message — is baseUrl an OpenAI-compatible API? (style "openai" posts to <baseUrl>/chat/completions)',
    );
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.map(callOf) : [];
  // a refusal (`message.refusal`, content null) is the turn's text, as it is when streamed
  const text = textOf(message.content) + (typeof message.refusal === "string" ? message.refusal : "");
  const turn: Turn = { message, text, calls, usage: openaiUsage(data.usage) };
  if (typeof choice?.finish_reason === "string") turn.finishReason = choice.finish_reason;
  return turn;
}

/** OpenAI chat completions, and every server that speaks it (OpenRouter, vLLM, Ollama, llama.cpp, …). */
export const openaiWire: Wire = {
  style: "openai",
  url: (baseUrl) => `${stripSlash(baseUrl)}/chat/completions`,
  headers(apiKey) {
    const headers: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
    headers["Content-Type"] = "application/json";
    return headers;
  },
  start(system, history, prompt) {
    const messages: unknown[] =
      history.length > 0 ? history.slice() : system ? [{ role: "system", content: system }] : [];
    messages.push({ role: "user", content: prompt });
    return messages;
  },
  body({ model, messages, tools, stream, output }) {
    const body: Record<string, unknown> = { model, messages };
    if (tools.length > 0) {
      body.tools = tools;
      body.tool_choice = "auto";
    }
    if (output) body.response_format = { type: "json_schema", json_schema: { name: "output", schema: output } };
    if (stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    return body;
  },
  declare: (toolkit) => toolkit?.toOpenAI() ?? [],
  parse,
  // the stream assembler (and the SSE parser) load with the first streamed turn
  readStream: async (body, onDelta) => (await import("./openai-stream")).readStream(body, onDelta),
  callsOf: (message) =>
    toolCallsOf(message).map((tc) => ({ id: String(tc?.id ?? ""), name: String(record(tc?.function)?.name ?? "") })),
  withCallIds: (message, ids) => ({
    ...record(message),
    tool_calls: toolCallsOf(message).map((tc, i) => ({ ...tc, id: ids[i] ?? tc?.id })),
  }),
  results: (outcomes) =>
    outcomes.map(({ call, result }) => ({ role: "tool", tool_call_id: call.id, content: result.output })),
};
