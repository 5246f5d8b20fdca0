// Gemini's streamed replies (`alt=sse`): each event is a whole response holding only the new parts.
//
// Adjacent text pieces join into one part, as the unstreamed reply has them; a `thoughtSignature` stays
// on the part it came on (often a last, empty text part, which joins the text before it and signs it),
// and a signed part is never joined to what follows it. A function call arrives whole.
import { firstOf, listOf, readJson, record, str, throwIfError, type Json } from "./read";
import { callId, finishOf, turnOf } from "./gemini-parts";
import type { Turn, WireDelta } from "./types";

interface Assembly {
  parts: Json[];
  /** The calls' ids, in order, as their `tool_input` events named them. */
  ids: string[];
  usage?: unknown;
  finish?: string;
}

const isText = (part: Json | undefined): part is Json & { text: string } => typeof part?.text === "string";

/**
 * Joins `part` to the parts so far: text to an unsigned text part of the same kind, anything else appended.
 * An empty, unsigned text part (a closing chunk's) carries nothing and is dropped: Gemini refuses empty text.
 */
function addPart(a: Assembly, part: Json): void {
  if (part.text === "" && Object.keys(part).length === 1) return;
  const prev = a.parts[a.parts.length - 1];
  const joins =
    isText(prev) &&
    isText(part) &&
    prev.thoughtSignature === undefined &&
    (prev.thought === true) === (part.thought === true) &&
    Object.keys(part).every((k) => k === "text" || k === "thought" || k === "thoughtSignature");
  if (joins) a.parts[a.parts.length - 1] = { ...prev, ...part, text: prev.text + part.text };
  else a.parts.push({ ...part });
}

function addChunk(a: Assembly, chunk: Json, onDelta: (delta: WireDelta) => void): void {
  throwIfError(chunk);
  if (chunk.usageMetadata !== undefined) a.usage = chunk.usageMetadata; // cumulative: the last one counts
  const candidate = firstOf(chunk, "candidates");
  const finish = finishOf(chunk, candidate);
  if (finish !== undefined) a.finish = finish;
  for (const value of listOf(candidate?.content, "parts")) {
    const part = record(value);
    if (!part) continue;
    addPart(a, part);
    const call = record(part.functionCall);
    if (call) {
      const id = callId(call);
      a.ids.push(id);
      onDelta({ type: "tool_input", id, name: str(call.name), delta: JSON.stringify(call.args ?? {}) });
    } else if (isText(part) && part.text !== "") {
      onDelta({ type: part.thought === true ? "reasoning" : "text", delta: part.text });
    }
  }
}

/** Reads a Gemini SSE body to the end (see `Wire.readStream`). */
export async function readStream(body: ReadableStream<Uint8Array>, onDelta: (delta: WireDelta) => void): Promise<Turn> {
  const a: Assembly = { parts: [], ids: [] };
  // the last chunk names why the reply ended; without it the reply was cut off
  await readJson(
    body,
    (chunk) => {
      if (chunk) addChunk(a, chunk, onDelta);
    },
    () => a.finish !== undefined,
    "a finishReason",
  );
  return turnOf(a.parts, a.usage, a.finish, a.ids);
}
