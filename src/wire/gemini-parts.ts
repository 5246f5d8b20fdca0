// Gemini parts read into a Turn, and content parts as Gemini parts: shared by the JSON reply (gemini.ts)
// and the stream reader (gemini-stream.ts).
import type { ContentPart } from "../types";
import { callFromValue, count, record, type Json } from "./common";
import type { ToolCall, Turn } from "./types";

/** A content part as a Gemini part: `text`, `inlineData` (base64 bytes) or `fileData` (a URI). */
export function geminiPart(part: ContentPart): Json {
  if (part.type === "text") return { text: part.text };
  if (part.url !== undefined) return { fileData: { mimeType: part.mediaType, fileUri: part.url } };
  return { inlineData: { mimeType: part.mediaType, data: part.data ?? "" } };
}

/**
 * `usageMetadata`: `candidatesTokenCount` leaves the thinking out, so completion tokens add
 * `thoughtsTokenCount` (as OpenAI's `output_tokens` include reasoning).
 */
export function geminiUsage(usage: unknown) {
  const u = record(usage);
  const promptTokens = count(u?.promptTokenCount);
  const completionTokens = count(u?.candidatesTokenCount) + count(u?.thoughtsTokenCount);
  const total = u?.totalTokenCount;
  return {
    promptTokens,
    completionTokens,
    totalTokens: typeof total === "number" && Number.isFinite(total) ? total : promptTokens + completionTokens,
  };
}

/** The turn a model content makes: its answer text (thought parts are reasoning, not text) and its calls. */
export function turnOf(parts: unknown[], usage: unknown, finish: string | undefined): Turn {
  let text = "";
  const calls: ToolCall[] = [];
  for (const value of parts) {
    const part = record(value);
    const call = record(part?.functionCall);
    if (call) {
      const id = typeof call.id === "string" ? call.id : "";
      calls.push(callFromValue(id, typeof call.name === "string" ? call.name : "", call.args ?? {}));
    } else if (typeof part?.text === "string" && part.thought !== true) text += part.text;
  }
  const turn: Turn = { message: { role: "model", parts }, text, calls, usage: geminiUsage(usage) };
  if (finish !== undefined) turn.finishReason = finish;
  return turn;
}

/** A candidate's `finishReason`, or why the prompt was blocked (a blocked prompt has no candidates). */
export function finishOf(data: Json, candidate: Json | undefined): string | undefined {
  if (typeof candidate?.finishReason === "string") return candidate.finishReason;
  const blocked = record(data.promptFeedback)?.blockReason;
  return typeof blocked === "string" ? blocked : undefined;
}

export const firstCandidate = (data: Json): Json | undefined =>
  record(Array.isArray(data.candidates) ? data.candidates[0] : undefined);
