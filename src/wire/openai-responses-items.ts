// The Responses API's output items read into a Turn, and content parts as its input parts: shared by the
// JSON reply (openai-responses.ts) and the stream reader (openai-responses-stream.ts).
import type { ContentPart } from "../types";
import { callFromRaw, newTurn } from "./calls";
import { listOf, record, str, usageOf, type Json } from "./read";
import { dataUrl } from "./content";
import type { ToolCall, Turn } from "./types";

/** A part's URL as given, or its bytes as a `data:` URL. */
const source = (part: { data?: string; url?: string; mediaType: string }): string => part.url ?? dataUrl(part);

/** A content part as a Responses input part (`input_text`, `input_image`, `input_file`). */
export function inputPart(part: ContentPart): Json {
  if (part.type === "text") return { type: "input_text", text: part.text };
  if (part.type === "image") return { type: "input_image", image_url: source(part) };
  const file: Json = part.url
    ? { type: "input_file", file_url: part.url }
    : { type: "input_file", file_data: source(part) };
  if (part.filename) file.filename = part.filename;
  return file;
}

/** The text a message item shows: its `output_text` parts, and a refusal in its words. */
function messageText(item: Json): string {
  return listOf(item, "content")
    .map((value) => {
      const part = record(value);
      if (part?.type === "output_text") return str(part.text);
      return part?.type === "refusal" ? str(part.refusal) : "";
    })
    .join("");
}

const callOf = (item: Json): ToolCall =>
  callFromRaw(
    str(item.call_id),
    str(item.name),
    typeof item.arguments === "string" ? item.arguments : JSON.stringify(item.arguments ?? {}),
  );

/** The turn one response's `output` items make: the text of its messages, its function calls, in order. */
export function turnOf(output: unknown[], usage: unknown, finish: string | undefined): Turn {
  let text = "";
  const calls: ToolCall[] = [];
  for (const value of output) {
    const item = record(value);
    if (item?.type === "message") text += messageText(item);
    else if (item?.type === "function_call") calls.push(callOf(item));
  }
  const u = record(usage); // `output_tokens` already counts the reasoning tokens
  return newTurn(
    { role: "assistant", output },
    text,
    calls,
    usageOf(u?.input_tokens, u?.output_tokens, u?.total_tokens),
    finish,
  );
}

/** Why a response stopped: `incomplete_details.reason` (e.g. `max_output_tokens`), else its `status`. */
export function finishOf(response: Json): string | undefined {
  const reason = record(response.incomplete_details)?.reason;
  if (typeof reason === "string") return reason;
  return typeof response.status === "string" ? response.status : undefined;
}
