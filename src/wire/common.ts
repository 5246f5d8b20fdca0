// What both wires (and translate) read out of provider JSON: text, token usage, tool-call arguments, error objects.
import { isPlainObject, typeName } from "../_internal/json";
import { redact } from "../_internal/redact";
import { capErrorBody, StreamError } from "../errors";
import type { Usage } from "../types";
import { readSSE, type SSEEvent } from "./sse";
import type { ToolCall } from "./types";

export type Json = Record<string, unknown>;

/** `value` when it is a JSON object (not an array), else `undefined`. */
export function record(value: unknown): Json | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** A base URL without its trailing slash, so a path can follow it. */
export const stripSlash = (base: string): string => (base.endsWith("/") ? base.slice(0, -1) : base);

export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/**
 * OpenAI-style `content` as text: a string, or the joined `text` of its parts (Mistral sends
 * `[{ type: "text", text }]`, also in stream deltas); parts without a top-level `text` (thinking) add nothing.
 */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content) {
    const t = record(part)?.text;
    if (typeof t === "string") text += t;
  }
  return text;
}

/** The `thinking` parts of OpenAI-style `content` parts as text (Mistral's reasoning models send them): never the turn's text. */
export function thinkingOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content) {
    const thinking = record(part)?.type === "thinking" ? (part as Json).thinking : undefined;
    text += typeof thinking === "string" ? thinking : textOf(thinking);
  }
  return text;
}

/** OpenAI `{ prompt_tokens, completion_tokens, total_tokens }`; total falls back to the sum; missing ⇒ 0. */
export function openaiUsage(usage: unknown): Usage {
  const u = record(usage);
  const promptTokens = count(u?.prompt_tokens);
  const completionTokens = count(u?.completion_tokens);
  const total = u?.total_tokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: typeof total === "number" && Number.isFinite(total) ? total : promptTokens + completionTokens,
  };
}

/** Anthropic `{ input_tokens, output_tokens }`; total is their sum; missing ⇒ 0. */
export function anthropicUsage(usage: unknown): Usage {
  const u = record(usage);
  const promptTokens = count(u?.input_tokens);
  const completionTokens = count(u?.output_tokens);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

function argsError(name: string, reason: string): string {
  return `Invalid arguments for ${name}: not a JSON object: ${reason}`;
}

/**
 * A tool call from the arguments string the model sent: `JSON.parse(raw || "{}")`. Anything but a JSON
 * object leaves `args: {}` and sets `argsError`, so the loop answers the model instead of running the tool.
 */
export function callFromRaw(id: string, name: string, raw: string): ToolCall {
  let value: unknown;
  try {
    value = JSON.parse(raw || "{}");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      id,
      name,
      args: {},
      raw,
      argsError: argsError(name, reason.length > 120 ? `${reason.slice(0, 120)}…` : reason),
    };
  }
  return checked(id, name, raw, value);
}

const MAX_ARGS_DEPTH = 64;

/** Nesting depth of a JSON value, stopping as soon as it passes `limit` (so it never recurses deeply). */
function deeperThan(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length; depth++) {
    if (depth > limit) return true;
    const next: unknown[] = [];
    for (const v of level) if (typeof v === "object" && v !== null) next.push(...Object.values(v));
    level = next;
  }
  return false;
}

/** Arguments must be a JSON object no deeper than 64 levels; anything else is refused before a tool sees it. */
function checked(id: string, name: string, raw: string, value: unknown): ToolCall {
  const args = record(value);
  if (!args) return { id, name, args: {}, raw, argsError: argsError(name, `got ${typeName(value)}`) };
  if (deeperThan(args, MAX_ARGS_DEPTH))
    return { id, name, args: {}, raw: "{}", argsError: argsError(name, `nested deeper than ${MAX_ARGS_DEPTH} levels`) };
  return { id, name, args, raw };
}

/** A tool call from arguments that arrived already parsed (Anthropic `input`, or OpenAI-compatible servers sending an object). */
export function callFromValue(id: string, name: string, value: unknown): ToolCall {
  if (deeperThan(value, MAX_ARGS_DEPTH))
    return { id, name, args: {}, raw: "{}", argsError: argsError(name, `nested deeper than ${MAX_ARGS_DEPTH} levels`) };
  return checked(id, name, JSON.stringify(value ?? {}), value ?? {});
}

/** The text of a provider's error object (`{ message }`, a string, or anything else), redacted and shortened. */
export function errorText(error: unknown): string {
  const message = record(error)?.message;
  const text =
    typeof error === "string"
      ? error
      : typeof message === "string"
        ? message
        : (JSON.stringify(error) ?? typeName(error));
  return capErrorBody(redact(text));
}

export function providerError(error: unknown): StreamError {
  return new StreamError(
    `toolnexus: the provider reported an error: ${errorText(error)} — retry the run; if it persists, check the model name and the request`,
  );
}

/** The stream ended without the provider's end marker (or carried no events at all). */
export function cutOff(marker: string, events: number): StreamError {
  return new StreamError(
    events === 0
      ? "toolnexus: the provider's response carried no server-sent events — check baseUrl and style; a streaming request must be answered with text/event-stream"
      : `toolnexus: the provider's stream ended before ${marker} — the reply was cut off, so no tool ran on half-received arguments; retry the run`,
  );
}

/**
 * Reads a provider's event stream to its end, handing `add` each event — the one the stream cut off too: the
 * spec drops an event that lacks its closing blank line, but a complete last event in it still counts — and
 * resolves with how many events there were (what a reader says of a stream that ended too soon).
 */
export async function readEvents(stream: ReadableStream<Uint8Array>, add: (event: SSEEvent) => void): Promise<number> {
  let events = 0;
  const cut = await readSSE(stream, (event) => {
    events++;
    add(event);
  });
  if (cut) {
    events++;
    add(cut);
  }
  return events;
}
