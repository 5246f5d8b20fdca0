// The OpenAI chat-completions wire (upstream contract §1.8–1.9): requests, JSON replies, SSE replies.
import { StreamError } from "../errors";
import type { Usage } from "../types";
import type { ToolCall, Turn, Wire } from "./types";
import { callFromRaw, callFromValue, cutOff, openaiUsage, providerError, record, type Json } from "./common";

const stripSlash = (base: string): string => (base.endsWith("/") ? base.slice(0, -1) : base);

/** `message.content` as text: a string, or the joined `text` of content parts; `""` otherwise. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content) {
    const t = record(part)?.text;
    if (typeof t === "string") text += t;
  }
  return text;
}

function callOf(value: unknown): ToolCall {
  const tc = record(value);
  const fn = record(tc?.function);
  const id = typeof tc?.id === "string" ? tc.id : "";
  const name = typeof fn?.name === "string" ? fn.name : "";
  const args = fn?.arguments;
  if (args === undefined || args === null || typeof args === "string") return callFromRaw(id, name, args ?? "");
  return callFromValue(id, name, args); // some compatible servers send the arguments as an object
}

function parse(json: unknown): Turn {
  const data = record(json);
  if (data?.error !== undefined && data.error !== null) throw providerError(data.error);
  const choice = record(Array.isArray(data?.choices) ? data.choices[0] : undefined);
  const message = record(choice?.message);
  if (!data || !message) {
    throw new StreamError('toolnexus: the reply has no choices[0].message — is baseUrl an OpenAI-compatible API? (style "openai" posts to <baseUrl>/chat/completions)');
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.map(callOf) : [];
  const turn: Turn = { message, text: textOf(message.content), calls, usage: openaiUsage(data.usage) };
  if (typeof choice?.finish_reason === "string") turn.finishReason = choice.finish_reason;
  return turn;
}

interface Slot {
  id: string;
  name: string;
  args: string;
}

/** What a stream has delivered so far. */
interface Assembly {
  content: string;
  slots: Map<number, Slot>;
  last: number;
  usage: Usage;
  finish: string | undefined;
  done: boolean;
  events: number;
}

// Tool-call deltas are assembled by `index`: `id` set when present, name and arguments concatenated.
function addToolDeltas(a: Assembly, deltas: unknown[]): void {
  for (const value of deltas) {
    const tc = record(value);
    if (!tc) continue;
    const id = typeof tc.id === "string" && tc.id ? tc.id : undefined;
    // servers that omit `index` start a new call with each id and continue the last one otherwise
    const index = typeof tc.index === "number" ? tc.index : id !== undefined ? a.slots.size : Math.max(a.last, 0);
    let slot = a.slots.get(index);
    if (!slot) a.slots.set(index, (slot = { id: "", name: "", args: "" }));
    a.last = index;
    if (id !== undefined) slot.id = id;
    const fn = record(tc.function);
    if (typeof fn?.name === "string") slot.name += fn.name;
    if (typeof fn?.arguments === "string") slot.args += fn.arguments;
  }
}

function addChunk(a: Assembly, chunk: Json, onText: (delta: string) => void): void {
  if (chunk.error !== undefined && chunk.error !== null) throw providerError(chunk.error);
  const usage = record(chunk.usage);
  if (usage) {
    const u = openaiUsage(usage);
    a.usage = { promptTokens: a.usage.promptTokens + u.promptTokens, completionTokens: a.usage.completionTokens + u.completionTokens, totalTokens: a.usage.totalTokens + u.totalTokens };
  }
  const choice = record(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined);
  if (!choice) return;
  if (typeof choice.finish_reason === "string") a.finish = choice.finish_reason;
  const delta = record(choice.delta);
  if (typeof delta?.content === "string" && delta.content !== "") {
    a.content += delta.content;
    onText(delta.content);
  }
  if (Array.isArray(delta?.tool_calls)) addToolDeltas(a, delta.tool_calls);
}

// One event's data: a JSON chunk, or `[DONE]`. Data that is not JSON is skipped (keep-alives some
// servers send); data holding several lines (a server that ends events with one newline) is read line by line.
function addData(a: Assembly, data: string, onText: (delta: string) => void): void {
  if (a.done) return;
  if (data === "[DONE]") {
    a.done = true;
    return;
  }
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    if (data.includes("\n")) for (const line of data.split("\n")) addData(a, line.trim(), onText);
    return;
  }
  const json = record(chunk);
  if (json) addChunk(a, json, onText);
}

function assemble(a: Assembly): Turn {
  const slots = [...a.slots.entries()].sort((x, y) => x[0] - y[0]).map(([, slot]) => slot);
  const toolCalls = slots.map((s) => ({ id: s.id, type: "function", function: { name: s.name, arguments: s.args } }));
  const message = toolCalls.length > 0 ? { role: "assistant", content: a.content || null, tool_calls: toolCalls } : { role: "assistant", content: a.content || null };
  const turn: Turn = { message, text: a.content, calls: slots.map((s) => callFromRaw(s.id, s.name, s.args)), usage: a.usage };
  if (a.finish !== undefined) turn.finishReason = a.finish;
  return turn;
}

async function readStream(body: ReadableStream<Uint8Array>, onText: (delta: string) => void): Promise<Turn> {
  const a: Assembly = { content: "", slots: new Map(), last: -1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, finish: undefined, done: false, events: 0 };
  const { readSSE } = await import("./sse"); // the SSE parser loads with the first streamed turn
  const cut = await readSSE(body, (event) => {
    a.events++;
    addData(a, event.data, onText);
  });
  // The spec drops an event that lacks its closing blank line; a complete end marker in it still counts.
  if (cut) {
    a.events++;
    addData(a, cut.data, onText);
  }
  if (!a.done && a.finish === undefined) throw cutOff("[DONE] or a finish_reason", a.events);
  return assemble(a);
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
    const messages: unknown[] = history.length > 0 ? history.slice() : system ? [{ role: "system", content: system }] : [];
    messages.push({ role: "user", content: prompt });
    return messages;
  },
  body({ model, messages, tools, stream }) {
    const body: Record<string, unknown> = { model, messages };
    if (tools.length > 0) {
      body.tools = tools;
      body.tool_choice = "auto";
    }
    if (stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    return body;
  },
  declare: (toolkit) => toolkit?.toOpenAI() ?? [],
  parse,
  readStream,
  results: (outcomes) => outcomes.map(({ call, result }) => ({ role: "tool", tool_call_id: call.id, content: result.output })),
};
