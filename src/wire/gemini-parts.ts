// Gemini parts read into a Turn, and content parts as Gemini parts: shared by the JSON reply (gemini.ts)
// and the stream reader (gemini-stream.ts).
import type { ContentPart } from "../types";
import { callFromValue, newTurn } from "./calls";
import { count, record, str, usageOf, type Json } from "./read";
import type { ToolCall, Turn } from "./types";

/** A content part as a Gemini part: `text`, `inlineData` (base64 bytes) or `fileData` (a URI). */
export function geminiPart(part: ContentPart): Json {
  if (part.type === "text") return { text: part.text };
  if (part.url !== undefined) return { fileData: { mimeType: part.mediaType, fileUri: part.url } };
  return { inlineData: { mimeType: part.mediaType, data: part.data ?? "" } };
}

/** The id a function call came with, or a fresh one: Gemini's API sends calls without ids. */
export function callId(call: Json): string {
  return typeof call.id === "string" && call.id ? call.id : `call_${crypto.randomUUID()}`;
}

/**
 * The turn a model content makes: its answer text (thought parts are reasoning, not text) and its calls,
 * whose ids are `ids` (in call order; fresh ones where missing). Ids Gemini did not send are kept beside
 * the parts as `callIds`, never inside them: the parts go back exactly as they came.
 */
export function turnOf(parts: unknown[], usage: unknown, finish: string | undefined, ids: string[] = []): Turn {
  let text = "";
  const calls: ToolCall[] = [];
  let given = true;
  for (const value of parts) {
    const part = record(value);
    const call = record(part?.functionCall);
    if (call) {
      ids[calls.length] ??= callId(call);
      const id = ids[calls.length]!;
      if (id !== call.id) given = false;
      calls.push(callFromValue(id, str(call.name), call.args ?? {}));
    } else if (typeof part?.text === "string" && part.thought !== true) text += part.text;
  }
  const message = given ? { role: "model", parts } : { role: "model", parts, callIds: ids.slice(0, calls.length) };
  // `candidatesTokenCount` leaves the thinking out, so completion tokens add `thoughtsTokenCount` (as
  // OpenAI's `output_tokens` include reasoning)
  const u = record(usage);
  const completion = count(u?.candidatesTokenCount) + count(u?.thoughtsTokenCount);
  return newTurn(message, text, calls, usageOf(u?.promptTokenCount, completion, u?.totalTokenCount), finish);
}

/** A candidate's `finishReason`, or why the prompt was blocked (a blocked prompt has no candidates). */
export function finishOf(data: Json, candidate: Json | undefined): string | undefined {
  if (typeof candidate?.finishReason === "string") return candidate.finishReason;
  const blocked = record(data.promptFeedback)?.blockReason;
  return typeof blocked === "string" ? blocked : undefined;
}
