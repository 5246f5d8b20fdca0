// The OpenAI wire's streamed replies: SSE chunks assembled into one Turn.
import type { Usage } from "../types";
import {
  byIndex,
  firstOf,
  listOf,
  openaiUsage,
  readJson,
  str,
  record,
  textOf,
  thinkingOf,
  throwIfError,
  usageOf,
  type Json,
} from "./read";
import { callFromRaw, newTurn } from "./calls";
import type { Turn, WireDelta } from "./types";

interface Slot {
  id: string;
  name: string;
  args: string;
}

/** What a stream has delivered so far. */
interface Assembly {
  content: string;
  /** A refusal (`delta.refusal`): part of the turn's text, and kept in the message as `refusal`. */
  refusal: string;
  /** Reasoning deltas, kept under the field they came in (`reasoning_content` or `reasoning`). */
  reasoning: string;
  reasoningKey?: string;
  /** OpenRouter's `reasoning_details`, merged by `index`; `lastDetail` is the index of the last piece. */
  details: Map<number, Json>;
  lastDetail?: number;
  slots: Map<number, Slot>;
  last: number;
  usage: Usage;
  finish?: string;
  done: boolean;
}

// Tool-call deltas are assembled by `index`: `id` set when present, name and arguments concatenated;
// each piece of arguments is reported as it comes, under the call's id and name as known so far.
function addToolDeltas(a: Assembly, deltas: unknown[], onDelta: (delta: WireDelta) => void): void {
  for (const value of deltas) {
    const tc = record(value);
    if (!tc) continue;
    const id = str(tc.id);
    // servers that omit `index` start a new call with each id and continue the last one otherwise
    let index = id ? a.slots.size : Math.max(a.last, 0);
    if (typeof tc.index === "number") index = tc.index;
    let slot = a.slots.get(index);
    if (!slot) {
      slot = { id: "", name: "", args: "" };
      a.slots.set(index, slot);
    }
    a.last = index;
    if (id) slot.id = id;
    const fn = record(tc.function);
    slot.name += str(fn?.name);
    const piece = str(fn?.arguments);
    if (piece) {
      slot.args += piece;
      onDelta({ type: "tool_input", id: slot.id, name: slot.name, delta: piece });
    }
  }
}

const REASONING_KEYS = ["reasoning_content", "reasoning"] as const;
const JOINED = new Set(["text", "summary"]);

/**
 * Reasoning deltas of OpenAI-compatible servers: `reasoning_content` (DeepSeek, vLLM) or `reasoning`
 * (OpenRouter, newer vLLM, Ollama); never text. OpenRouter's `reasoning_details` pieces are merged by
 * `index` (`text` and `summary` joined, other fields replaced), so the signed details go back whole.
 */
function addReasoning(a: Assembly, delta: Json, onDelta: (delta: WireDelta) => void): void {
  for (const key of REASONING_KEYS) {
    const piece = delta[key];
    if (typeof piece !== "string") continue;
    a.reasoningKey ??= key; // even an empty one goes back: DeepSeek refuses a turn that lost the field
    if (piece === "") continue;
    a.reasoning += piece;
    onDelta({ type: "reasoning", delta: piece });
    break; // a server that sends both names sends the same text twice
  }
  if (!Array.isArray(delta.reasoning_details)) return;
  for (const value of delta.reasoning_details) {
    const detail = record(value);
    if (!detail) continue;
    // a piece without `index` continues the last item of its type, else starts the next one
    const last = a.lastDetail;
    let index = last !== undefined && a.details.get(last)?.type === detail.type ? last : (last ?? -1) + 1;
    if (typeof detail.index === "number") index = detail.index;
    a.lastDetail = index;
    const into = a.details.get(index) ?? {};
    for (const [key, v] of Object.entries(detail))
      into[key] = JOINED.has(key) && typeof v === "string" && typeof into[key] === "string" ? into[key] + v : v;
    a.details.set(index, into);
  }
}

/**
 * OpenAI sends usage once, at the end, and some servers send it in parts (summed). Others (Perplexity)
 * repeat the running total on every chunk — the same prompt count, a completion count that only grows:
 * then the last one is the turn's usage, and summing would count the prompt once per chunk.
 */
function nextUsage(so: Usage, u: Usage): Usage {
  const running =
    so.promptTokens > 0 && u.promptTokens === so.promptTokens && u.completionTokens >= so.completionTokens;
  if (running) return u;
  return usageOf(
    so.promptTokens + u.promptTokens,
    so.completionTokens + u.completionTokens,
    so.totalTokens + u.totalTokens,
  );
}

function addChunk(a: Assembly, chunk: Json, onDelta: (delta: WireDelta) => void): void {
  throwIfError(chunk);
  const usage = record(chunk.usage);
  if (usage) a.usage = nextUsage(a.usage, openaiUsage(usage));
  const choice = firstOf(chunk, "choices");
  if (!choice) return;
  if (typeof choice.finish_reason === "string") a.finish = choice.finish_reason;
  const delta = record(choice.delta);
  const text = textOf(delta?.content); // a string, or content parts (Mistral)
  if (text !== "") {
    a.content += text;
    onDelta({ type: "text", delta: text });
  }
  const refusal = str(delta?.refusal);
  if (refusal) {
    a.refusal += refusal;
    onDelta({ type: "text", delta: refusal });
  }
  const thinking = thinkingOf(delta?.content);
  if (thinking !== "") onDelta({ type: "reasoning", delta: thinking });
  if (delta) addReasoning(a, delta, onDelta);
  addToolDeltas(a, listOf(delta, "tool_calls"), onDelta);
}

function assemble(a: Assembly): Turn {
  const slots = byIndex(a.slots).map(([, slot]) => slot);
  const toolCalls = slots.map((s) => ({ id: s.id, type: "function", function: { name: s.name, arguments: s.args } }));
  const message: Record<string, unknown> = { role: "assistant", content: a.content || null };
  // reasoning goes back on the next request: DeepSeek's thinking mode refuses a tool-call turn without it
  if (a.reasoningKey) message[a.reasoningKey] = a.reasoning;
  if (a.details.size > 0) message.reasoning_details = byIndex(a.details).map(([, d]) => d);
  if (a.refusal) message.refusal = a.refusal;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const calls = slots.map((s) => callFromRaw(s.id, s.name, s.args));
  return newTurn(message, a.content + a.refusal, calls, a.usage, a.finish);
}

/** Reads an OpenAI SSE body to the end (see `Wire.readStream`). */
export async function readStream(body: ReadableStream<Uint8Array>, onDelta: (delta: WireDelta) => void): Promise<Turn> {
  const a: Assembly = {
    content: "",
    refusal: "",
    reasoning: "",
    details: new Map(),
    slots: new Map(),
    last: -1,
    usage: usageOf(0, 0),
    done: false,
  };
  await readJson(
    body,
    (chunk) => {
      if (a.done) return;
      if (chunk) addChunk(a, chunk, onDelta);
      else a.done = true;
    },
    () => a.done || a.finish !== undefined,
    "[DONE] or a finish_reason",
  );
  return assemble(a);
}
