// The Responses API's streamed replies: typed SSE events assembled into one Turn.
//
// Items are joined by `output_index`, never by item id: some servers (GitHub Copilot) give every event of
// one item a new id. A finished item (`response.output_item.done`) replaces what its deltas built, so a
// reasoning item keeps the `encrypted_content` of its final form.
import { byIndex, count, providerError, readJson, record, str, type Json } from "./read";
import { finishOf, turnOf } from "./openai-responses-items";
import type { Turn, WireDelta } from "./types";

interface Assembly {
  /** The output items by `output_index`: as added, then as finished. */
  items: Map<number, Json>;
  /** Text and argument deltas by `output_index`, for items that never arrive finished. */
  text: Map<number, string>;
  /** The final response (`response.completed` / `response.incomplete`), once it came. */
  response?: Json;
}

function append(a: Assembly, at: number, delta: string): void {
  a.text.set(at, (a.text.get(at) ?? "") + delta);
}

/** An item whose `.done` never came, completed from its deltas. */
function built(a: Assembly, at: number, item: Json): Json {
  const text = a.text.get(at);
  if (text === undefined) return item;
  if (item.type === "function_call") return { ...item, arguments: text };
  if (item.type === "message") return { ...item, content: [{ type: "output_text", text, annotations: [] }] };
  return item;
}

function addEvent(a: Assembly, event: Json, onDelta: (delta: WireDelta) => void): void {
  const at = count(event.output_index);
  const delta = str(event.delta);
  switch (event.type) {
    case "response.output_item.added":
    case "response.output_item.done": {
      const item = record(event.item);
      if (item) a.items.set(at, item);
      if (event.type === "response.output_item.done") a.text.delete(at);
      return;
    }
    case "response.output_text.delta":
    case "response.refusal.delta":
      append(a, at, delta);
      if (delta) onDelta({ type: "text", delta });
      return;
    case "response.function_call_arguments.delta": {
      append(a, at, delta);
      const item = a.items.get(at);
      if (delta) onDelta({ type: "tool_input", id: str(item?.call_id), name: str(item?.name), delta });
      return;
    }
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_text.delta":
      if (delta) onDelta({ type: "reasoning", delta });
      return;
    case "error":
      throw providerError(event.error ?? event);
    case "response.failed":
      throw providerError(record(event.response)?.error ?? "the response failed");
    case "response.completed":
    case "response.incomplete":
      a.response = record(event.response) ?? {};
      return;
  }
}

/** Reads a Responses API SSE body to the end (see `Wire.readStream`). */
export async function readStream(body: ReadableStream<Uint8Array>, onDelta: (delta: WireDelta) => void): Promise<Turn> {
  const a: Assembly = { items: new Map(), text: new Map() };
  await readJson(
    body,
    (event) => {
      if (event && !a.response) addEvent(a, event, onDelta);
    },
    () => a.response !== undefined,
    "response.completed",
  );
  const response = a.response!;
  // the final response lists the same items; it is the authority when it carries them
  const output =
    Array.isArray(response.output) && response.output.length > 0
      ? response.output
      : byIndex(a.items).map(([at, item]) => built(a, at, item));
  return turnOf(output, response.usage, finishOf(response));
}
