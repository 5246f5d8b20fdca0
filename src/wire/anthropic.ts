// The Anthropic Messages wire: requests, JSON replies, SSE replies.
import { StreamError } from "../errors";
import type { SSEEvent } from "./sse";
import type { ToolCall, ToolOutcome, Turn, Wire } from "./types";
import { anthropicUsage, callFromRaw, callFromValue, count, cutOff, providerError, record, type Json } from "./common";
import { readSSE } from "./sse";

const stripSlash = (base: string): string => (base.endsWith("/") ? base.slice(0, -1) : base);

/** The turn in an Anthropic `content` array: joined `text` blocks and the `tool_use` calls, in order. */
function read(content: unknown[]): { text: string; calls: ToolCall[] } {
  let text = "";
  const calls: ToolCall[] = [];
  for (const value of content) {
    const block = record(value);
    if (block?.type === "text" && typeof block.text === "string") text += block.text;
    else if (block?.type === "tool_use") {
      const call = callFromValue(String(block.id ?? ""), String(block.name ?? ""), block.input);
      if (call.argsError) block.input = call.args; // refused input (not an object, or too deep) is sent back as {}
      calls.push(call);
    }
  }
  return { text, calls };
}

function parse(json: unknown): Turn {
  const data = record(json);
  if (data?.type === "error" || (data?.error !== undefined && data.error !== null)) throw providerError(data?.error);
  if (!data || !Array.isArray(data.content)) {
    throw new StreamError(
      'toolnexus: the reply has no content array — is baseUrl an Anthropic Messages API? (style "anthropic" posts to <baseUrl>/v1/messages)',
    );
  }
  const turn: Turn = {
    message: { role: "assistant", content: data.content },
    ...read(data.content),
    usage: anthropicUsage(data.usage),
  };
  if (typeof data.stop_reason === "string") turn.finishReason = data.stop_reason;
  return turn;
}

/** What a stream has delivered so far: content blocks by index, tool input JSON by index. */
interface Assembly {
  blocks: Map<number, Json>;
  json: Map<number, string>;
  prompt: number;
  completion: number;
  stop: string | undefined;
  stopped: boolean;
  events: number;
}

function addDelta(a: Assembly, event: Json, onText: (delta: string) => void): void {
  const index = count(event.index);
  const block = a.blocks.get(index);
  const delta = record(event.delta);
  if (!block || !delta) return;
  if (delta.type === "text_delta" && typeof delta.text === "string") {
    block.text = (typeof block.text === "string" ? block.text : "") + delta.text;
    if (delta.text !== "") onText(delta.text);
  } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
    a.json.set(index, (a.json.get(index) ?? "") + delta.partial_json);
  } else if (delta.type === "thinking_delta" && typeof delta.thinking === "string") {
    block.thinking = (typeof block.thinking === "string" ? block.thinking : "") + delta.thinking;
  } else if (delta.type === "signature_delta" && typeof delta.signature === "string") {
    block.signature = delta.signature; // thinking blocks must go back to the API signed
  } else if (delta.type === "citations_delta" && delta.citation !== undefined) {
    block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
  }
}

function addEvent(a: Assembly, sse: SSEEvent, onText: (delta: string) => void): void {
  if (a.stopped) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sse.data);
  } catch {
    return; // not JSON: nothing the protocol defines (a keep-alive); truncation is caught at the end
  }
  const event = record(parsed);
  if (!event) return;
  switch (typeof event.type === "string" ? event.type : sse.event) {
    case "message_start": {
      const usage = record(record(event.message)?.usage);
      a.prompt = count(usage?.input_tokens);
      a.completion = count(usage?.output_tokens);
      break;
    }
    case "content_block_start": {
      const block = record(event.content_block);
      if (block) a.blocks.set(count(event.index), { ...block });
      break;
    }
    case "content_block_delta":
      return addDelta(a, event, onText);
    case "message_delta": {
      const stop = record(event.delta)?.stop_reason;
      if (typeof stop === "string") a.stop = stop;
      // counts in message_delta are cumulative for the message: they replace, never add
      const usage = record(event.usage);
      if (typeof usage?.input_tokens === "number") a.prompt = count(usage.input_tokens);
      if (typeof usage?.output_tokens === "number") a.completion = count(usage.output_tokens);
      break;
    }
    case "message_stop":
      a.stopped = true;
      break;
    case "error":
      throw providerError(event.error);
    // "ping", "content_block_stop" and event types added later carry nothing the turn needs
  }
}

function assemble(a: Assembly): Turn {
  const content: Json[] = [];
  const calls: ToolCall[] = [];
  let text = "";
  for (const [index, block] of [...a.blocks.entries()].sort((x, y) => x[0] - y[0])) {
    const raw = a.json.get(index);
    if (block.type === "tool_use" || raw !== undefined || "input" in block) {
      // tool_use, and server-side tool blocks that stream their input the same way
      const id = String(block.id ?? "");
      const name = String(block.name ?? "");
      const call = raw ? callFromRaw(id, name, raw) : callFromValue(id, name, block.input);
      block.input = call.args; // the API wants an object back, even when the JSON was bad
      if (block.type === "tool_use") calls.push(call);
    } else if (block.type === "text" && typeof block.text === "string") text += block.text;
    content.push(block);
  }
  const usage = { promptTokens: a.prompt, completionTokens: a.completion, totalTokens: a.prompt + a.completion };
  const turn: Turn = { message: { role: "assistant", content }, text, calls, usage };
  if (a.stop !== undefined) turn.finishReason = a.stop;
  return turn;
}

async function readStream(body: ReadableStream<Uint8Array>, onText: (delta: string) => void): Promise<Turn> {
  const a: Assembly = {
    blocks: new Map(),
    json: new Map(),
    prompt: 0,
    completion: 0,
    stop: undefined,
    stopped: false,
    events: 0,
  };
  const cut = await readSSE(body, (event) => {
    a.events++;
    addEvent(a, event, onText);
  });
  // The spec drops an event that lacks its closing blank line; a complete message_stop in it still counts.
  if (cut) {
    a.events++;
    addEvent(a, cut, onText);
  }
  if (!a.stopped) throw cutOff("message_stop", a.events);
  return assemble(a);
}

function results(outcomes: readonly ToolOutcome[]): unknown[] {
  if (outcomes.length === 0) return [];
  const content = outcomes.map(({ call, result }) => ({
    type: "tool_result",
    tool_use_id: call.id,
    content: result.output,
    is_error: result.isError,
  }));
  return [{ role: "user", content }];
}

/** The Anthropic Messages API (`/v1/messages`, `anthropic-version: 2023-06-01`). */
export const anthropicWire: Wire = {
  style: "anthropic",
  url(baseUrl) {
    const base = stripSlash(baseUrl);
    return base.endsWith("/v1") ? `${base}/messages` : `${base}/v1/messages`;
  },
  headers: (apiKey) => ({
    ...(apiKey ? { "x-api-key": apiKey } : {}),
    "anthropic-version": "2023-06-01",
    "Content-Type": "application/json",
  }),
  start: (_system, history, prompt) => [...history, { role: "user", content: prompt }],
  body({ model, system, messages, tools, stream }) {
    const body: Record<string, unknown> = { model, max_tokens: 4096 };
    if (system) body.system = system; // an empty system is just noise: left out
    body.messages = messages;
    if (tools.length > 0) body.tools = tools;
    if (stream) body.stream = true;
    return body;
  },
  declare: (toolkit) => toolkit?.toAnthropic() ?? [],
  parse,
  readStream,
  results,
  callsOf: (message) =>
    toolUses(message).map(({ block }) => ({ id: String(block.id ?? ""), name: String(block.name ?? "") })),
  withCallIds(message, ids) {
    const content = contentOf(message).slice();
    toolUses(message).forEach(({ block, at }, i) => {
      content[at] = { ...block, id: ids[i] ?? block.id };
    });
    return { ...record(message), content };
  },
};

function contentOf(message: unknown): unknown[] {
  const content = record(message)?.content;
  return Array.isArray(content) ? content : [];
}

function toolUses(message: unknown): { block: Record<string, unknown>; at: number }[] {
  return contentOf(message).flatMap((b, at) => {
    const block = record(b);
    return block?.type === "tool_use" ? [{ block, at }] : [];
  });
}
