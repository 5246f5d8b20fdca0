// The OpenAI chat-completions wire: requests and JSON replies; SSE replies
// are assembled in openai-stream.ts.
import type { ToolCall, ToolOutcome, Turn, Wire } from "./types";
import { callFromRaw, callFromValue, newTurn } from "./calls";
import {
  firstOf,
  headersWith,
  listOf,
  openaiUsage,
  record,
  str,
  stripSlash,
  textOf,
  thinkingOf,
  throwIfError,
  unusable,
} from "./read";
import { historyParts, openaiPart, orNote, promptContent, toolParts } from "./content";
import { readStream } from "./openai-stream";

/** One entry of `tool_calls` (`{ id, function: { name, arguments } }`) as a ToolCall. */
export function callOf(value: unknown): ToolCall {
  const tc = record(value);
  const fn = record(tc?.function);
  const id = str(tc?.id);
  const name = str(fn?.name);
  const args = fn?.arguments;
  if (args === undefined || args === null || typeof args === "string") return callFromRaw(id, name, args ?? "");
  return callFromValue(id, name, args); // some compatible servers send the arguments as an object
}

const toolCallsOf = (message: unknown): (Record<string, unknown> | undefined)[] =>
  listOf(message, "tool_calls").map(record);

function parse(json: unknown): Turn {
  const data = record(json);
  throwIfError(data);
  const choice = firstOf(data, "choices");
  const message = record(choice?.message);
  if (!data || !message) throw unusable("choices[0].message", "openai", "/chat/completions");
  const calls = listOf(message, "tool_calls").map(callOf);
  // a refusal (`message.refusal`, content null) is the turn's text, as it is when streamed
  const text = textOf(message.content) + str(message.refusal);
  const reasoning = message.reasoning_content ?? message.reasoning ?? thinkingOf(message.content);
  return newTurn(message, text, calls, openaiUsage(data.usage), choice?.finish_reason, reasoning);
}

/**
 * Tool messages carry text only. The images and files the turn's tools returned follow the last tool
 * message in one user message, each tool's parts after a line naming the call they came from.
 */
function results(outcomes: readonly ToolOutcome[]): unknown[] {
  const messages: unknown[] = outcomes.map(({ call, result }) => ({
    role: "tool",
    tool_call_id: call.id,
    content: result.output,
  }));
  const attached = outcomes.flatMap(({ call, result }) => {
    const parts = toolParts(result.content);
    if (parts.length === 0) return [];
    return [
      { type: "text", text: `Output of tool ${call.name} (${call.id}):` },
      ...parts.map((part) => orNote(() => openaiPart(part))),
    ];
  });
  if (attached.length > 0) messages.push({ role: "user", content: attached });
  return messages;
}

/** OpenAI chat completions, and every server that speaks it (OpenRouter, vLLM, Ollama, llama.cpp, …). */
export const openaiWire: Wire = {
  style: "openai",
  url: (baseUrl) => `${stripSlash(baseUrl)}/chat/completions`,
  headers: (apiKey) => headersWith("Authorization", apiKey && `Bearer ${apiKey}`),
  start(system, history, prompt) {
    const content = promptContent(prompt, openaiPart);
    let messages: unknown[] = system ? [{ role: "system", content: system }] : [];
    if (history.length > 0) messages = historyParts(history, openaiPart);
    messages.push({ role: "user", content });
    return messages;
  },
  body({ model, messages, tools, stream, output, strict }) {
    const body: Record<string, unknown> = { model, messages };
    if (tools.length > 0) {
      body.tools = tools;
      body.tool_choice = "auto";
    }
    if (output)
      body.response_format = {
        type: "json_schema",
        json_schema: { name: "output", schema: output, ...(strict ? { strict: true } : {}) },
      };
    if (stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    return body;
  },
  declare: (toolkit) => toolkit?.toOpenAI() ?? [],
  parse,
  readStream,
  callsOf: (message) =>
    toolCallsOf(message).map((tc) => ({ id: String(tc?.id ?? ""), name: String(record(tc?.function)?.name ?? "") })),
  withCallIds: (message, ids) => ({
    ...record(message),
    tool_calls: toolCallsOf(message).map((tc, i) => ({ ...tc, id: ids[i] ?? tc?.id })),
  }),
  results,
};
