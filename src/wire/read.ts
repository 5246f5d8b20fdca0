// What the wires (and translate) read out of provider JSON: objects, lists, text, token usage, the provider's
// error objects, and the event stream of JSON; and the request headers and URL every wire builds.
import { isPlainObject } from "../_internal/json";
import { redact } from "../_internal/redact";
import { capErrorBody, StreamError } from "../errors";
import type { Usage } from "../types";
import { readSSE, type SSEEvent } from "../_internal/sse";

export type Json = Record<string, unknown>;

/** `value` when it is a JSON object (not an array), else `undefined`. */
export function record(value: unknown): Json | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** Map entries in the order of their numeric keys (the providers' `index`). */
export const byIndex = <T>(map: Map<number, T>): [number, T][] => [...map].sort((x, y) => x[0] - y[0]);

/** `value` when it is a string, else `""`. */
export const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** `value[key]` when it is an array, else `[]`. */
export function listOf(value: unknown, key: string): unknown[] {
  const list = record(value)?.[key];
  return Array.isArray(list) ? list : [];
}

/** The first entry of `value[key]` when it is an object (a reply's first choice or candidate). */
export const firstOf = (value: unknown, key: string): Json | undefined => record(listOf(value, key)[0]);

/** JSON request headers, with the API key under `name` when there is one. */
export const headersWith = (
  name: string,
  key: string | undefined,
  extra?: Record<string, string>,
): Record<string, string> => ({
  ...(key ? { [name]: key } : {}),
  ...extra,
  "Content-Type": "application/json",
});

/** A base URL without its trailing slash, so a path can follow it. */
export const stripSlash = (base: string): string => (base.endsWith("/") ? base.slice(0, -1) : base);

/** A finite number as it is, anything else 0 (`Number.isFinite` does not coerce). */
export function count(value: unknown): number {
  return Number.isFinite(value) ? (value as number) : 0;
}

/**
 * OpenAI-style `content` as text: a string, or the joined `text` of its parts (Mistral sends
 * `[{ type: "text", text }]`, also in stream deltas); parts without a top-level `text` (thinking) add nothing.
 */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part) => str(record(part)?.text)).join("") : "";
}

/** The `thinking` parts of OpenAI-style `content` parts as text (Mistral's reasoning models send them): never the turn's text. */
export function thinkingOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  // a part's `thinking` is a string, or text parts of its own
  return content.map((part) => (record(part)?.type === "thinking" ? textOf((part as Json).thinking) : "")).join("");
}

/** Token usage from a provider's counts: missing ⇒ 0; a total the provider did not send is the sum. */
export function usageOf(prompt: unknown, completion: unknown, total?: unknown): Usage {
  const promptTokens = count(prompt);
  const completionTokens = count(completion);
  const totalTokens = Number.isFinite(total) ? (total as number) : promptTokens + completionTokens;
  return { promptTokens, completionTokens, totalTokens };
}

/** OpenAI chat `{ prompt_tokens, completion_tokens, total_tokens }`. */
export function openaiUsage(usage: unknown): Usage {
  const u = record(usage);
  return usageOf(u?.prompt_tokens, u?.completion_tokens, u?.total_tokens);
}

/** The text of a provider's error: a string as it is, an object's `message`, else the value as JSON. */
function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  const message = record(error)?.message;
  if (typeof message === "string") return message;
  return brief(error);
}

/**
 * Some JSON of `value` for an error's text, in bounded work whatever its shape: at most `left.nodes` values
 * visited (`…` past them), strings cut short, a getter that throws shown as `?`. JSON.stringify would recurse
 * through an error object nested 10,000 deep and throw a bare RangeError.
 */
function brief(value: unknown, left = { nodes: 40 }): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 100));
  if (value === null || typeof value !== "object") return String(value);
  if (--left.nodes < 0) return "…";
  try {
    const list = Array.isArray(value);
    const keys = list ? [] : Object.keys(value).slice(0, 8);
    const parts = list
      ? value.slice(0, 8).map((item) => brief(item, left))
      : keys.map((k) => `${JSON.stringify(k.slice(0, 40))}:${brief((value as Record<string, unknown>)[k], left)}`);
    return list ? `[${parts}]` : `{${parts}}`;
  } catch {
    return "?";
  }
}

/** The provider's error object (`{ message }`, a string, or anything else) as a StreamError, its text redacted and shortened. */
export function providerError(error: unknown): StreamError {
  return new StreamError(
    `toolnexus: the provider reported an error: ${capErrorBody(redact(errorText(error)))} — retry the run, or check the model name and the request`,
  );
}

/** Throws the provider's error when a reply or a stream's event carries one (`error`, not null). */
export function throwIfError(data: Json | undefined): void {
  if ((data?.error ?? null) !== null) throw providerError(data?.error);
}

/** A reply without the part `style` reads: most likely baseUrl points elsewhere. */
export function unusable(what: string, style: string, path: string): StreamError {
  return new StreamError(
    `toolnexus: the reply has no ${what} — does baseUrl serve style "${style}"? (it posts to <baseUrl>${path})`,
  );
}

/**
 * Reads a provider's event stream to its end, handing `add` each event's JSON object — `undefined` for
 * OpenAI's `[DONE]` — and throws a StreamError unless `ended()` says the provider's end marker came.
 * Data that is not JSON is skipped (a keep-alive); data of several lines (a server that ends events with
 * one newline) is read line by line. The event the stream cut off counts too: the spec drops an event that
 * lacks its closing blank line, but a complete last event in it is still read.
 */
export async function readJson(
  stream: ReadableStream<Uint8Array>,
  add: (json: Json | undefined, event: SSEEvent) => void,
  ended: () => boolean,
  marker: string,
): Promise<void> {
  let events = 0;
  const take = (data: string, event: SSEEvent): void => {
    if (data === "[DONE]") return add(undefined, event);
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      if (data.includes("\n")) for (const line of data.split("\n")) take(line.trim(), event);
      return;
    }
    const json = record(value);
    if (json) add(json, event);
  };
  const read = (event: SSEEvent): void => {
    events++;
    take(event.data, event);
  };
  const cut = await readSSE(stream, read);
  if (cut) read(cut);
  // the provider's end marker never came (or no event at all)
  if (!ended())
    throw new StreamError(
      events === 0
        ? "toolnexus: the provider's response carried no server-sent events — check baseUrl and style"
        : `toolnexus: the provider's stream ended before ${marker}, so no tool ran on half-received arguments — retry the run`,
    );
}
