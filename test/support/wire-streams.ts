// Byte streams for the SSE and wire tests: a text cut at chosen points, byte by byte, or at every
// split point, so line endings, CRLF pairs and multi-byte UTF-8 characters land across chunk edges.
const encoder = new TextEncoder();

export function bytesOf(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A stream that delivers `bytes` as the given pieces (each a copy), then closes. */
export function streamOfPieces(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]!.slice());
      else controller.close();
    },
  });
}

/** `bytes` cut at the given offsets (ascending). */
export function cutAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const at of offsets) {
    pieces.push(bytes.subarray(from, at));
    from = at;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

/** A stream of `text` in pieces of `size` bytes (the last may be shorter). */
export function streamOf(text: string | Uint8Array, size = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
  const bytes = typeof text === "string" ? bytesOf(text) : text;
  const offsets: number[] = [];
  for (let at = size; at < bytes.length; at += size) offsets.push(at);
  return streamOfPieces(cutAt(bytes, offsets));
}

/** `text` as a stream split once at every byte offset: one stream per split point. */
export function everySplit(text: string): { at: number; stream: () => ReadableStream<Uint8Array> }[] {
  const bytes = bytesOf(text);
  const out: { at: number; stream: () => ReadableStream<Uint8Array> }[] = [];
  for (let at = 0; at <= bytes.length; at++) out.push({ at, stream: () => streamOfPieces(cutAt(bytes, [at])) });
  return out;
}

/** A stream that records whether its consumer cancelled it. */
export function cancellable(text: string): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  const bytes = bytesOf(text);
  let cancelled = false;
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(bytes);
      }
      // then never closes: only a cancel ends it
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

/** OpenAI-style SSE from chunk objects: `data: <json>\n\n` each, then `data: [DONE]\n\n` unless `done` is false. */
export function openaiSSE(chunks: readonly unknown[], done = true): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");
}

/** Anthropic-style SSE: `event: <type>\ndata: <json>\n\n` for each event object. */
export function anthropicSSE(events: readonly { type: string; [key: string]: unknown }[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
