// The OpenAI wire's streamed replies: SSE chunks assembled into one Turn. Loaded
// with the first streamed turn, so a run that never streams does not download it.
import type { Usage } from "../types";
import { callFromRaw, cutOff, openaiUsage, providerError, record, type Json } from "./common";
import { readSSE } from "./sse";
import type { Turn } from "./types";

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
    a.usage = {
      promptTokens: a.usage.promptTokens + u.promptTokens,
      completionTokens: a.usage.completionTokens + u.completionTokens,
      totalTokens: a.usage.totalTokens + u.totalTokens,
    };
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
  const message =
    toolCalls.length > 0
      ? { role: "assistant", content: a.content || null, tool_calls: toolCalls }
      : { role: "assistant", content: a.content || null };
  const turn: Turn = {
    message,
    text: a.content,
    calls: slots.map((s) => callFromRaw(s.id, s.name, s.args)),
    usage: a.usage,
  };
  if (a.finish !== undefined) turn.finishReason = a.finish;
  return turn;
}

/** Reads an OpenAI SSE body to the end (see `Wire.readStream`). */
export async function readStream(body: ReadableStream<Uint8Array>, onText: (delta: string) => void): Promise<Turn> {
  const a: Assembly = {
    content: "",
    slots: new Map(),
    last: -1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    finish: undefined,
    done: false,
    events: 0,
  };
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
