// The Anthropic wire's streamed replies: SSE events assembled into one Turn.
import type { Turn, WireDelta } from "./types";
import { byIndex, count, providerError, readJson, record, usageOf, type Json } from "./read";
import { turnOf } from "./anthropic-turn";

/** What a stream has delivered so far: content blocks by index, tool input JSON by index. */
interface Assembly {
  blocks: Map<number, Json>;
  json: Map<number, string>;
  prompt: number;
  completion: number;
  stop?: string;
  stopped: boolean;
}

function addDelta(a: Assembly, event: Json, onDelta: (delta: WireDelta) => void): void {
  const index = count(event.index);
  const block = a.blocks.get(index);
  const delta = record(event.delta);
  if (!block || !delta) return;
  // text and thinking are appended to the block's field of that name, and reported as they come
  let key: "text" | "thinking" | "" = "";
  if (delta.type === "text_delta") key = "text";
  else if (delta.type === "thinking_delta") key = "thinking";
  const piece = delta[key];
  if (key && typeof piece === "string") {
    block[key] = (typeof block[key] === "string" ? block[key] : "") + piece;
    if (piece !== "") onDelta({ type: key === "text" ? "text" : "reasoning", delta: piece });
  } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
    a.json.set(index, (a.json.get(index) ?? "") + delta.partial_json);
    // a call's arguments as they are written; server-side tool blocks stream theirs too but run no tool here
    if (block.type === "tool_use" && delta.partial_json !== "")
      onDelta({
        type: "tool_input",
        id: String(block.id ?? ""),
        name: String(block.name ?? ""),
        delta: delta.partial_json,
      });
  } else if (delta.type === "signature_delta" && typeof delta.signature === "string") {
    block.signature = delta.signature; // thinking blocks must go back to the API signed
  } else if (delta.type === "citations_delta" && delta.citation !== undefined) {
    block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
  }
}

function addEvent(a: Assembly, event: Json, type: string, onDelta: (delta: WireDelta) => void): void {
  switch (typeof event.type === "string" ? event.type : type) {
    case "content_block_start": {
      const block = record(event.content_block);
      if (block) a.blocks.set(count(event.index), { ...block });
      break;
    }
    case "content_block_delta":
      return addDelta(a, event, onDelta);
    case "message_start":
    case "message_delta": {
      const stop = record(event.delta)?.stop_reason;
      if (typeof stop === "string") a.stop = stop;
      // message_start's usage, then message_delta's: counts for the whole message that replace, never add
      const usage = record(event.usage ?? record(event.message)?.usage);
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

/** The blocks in the order of their index, with the input JSON each streamed. */
function assemble(a: Assembly): Turn {
  const blocks = byIndex(a.blocks);
  const streamed = blocks.map(([index]) => a.json.get(index));
  const content = blocks.map(([, block]) => block);
  return turnOf(content, usageOf(a.prompt, a.completion), a.stop, streamed);
}

export async function readStream(body: ReadableStream<Uint8Array>, onDelta: (delta: WireDelta) => void): Promise<Turn> {
  const a: Assembly = {
    blocks: new Map(),
    json: new Map(),
    prompt: 0,
    completion: 0,
    stopped: false,
  };
  await readJson(
    body,
    (event, sse) => {
      if (event && !a.stopped) addEvent(a, event, sse.event, onDelta);
    },
    () => a.stopped,
    "message_stop",
  );
  return assemble(a);
}
