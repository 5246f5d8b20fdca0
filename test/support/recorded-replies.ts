// Replaying recorded provider responses: a fetch that answers each request with the next recording and
// keeps every request it was sent (URL, headers, parsed body), so a test can check what went out.

export interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface Reply {
  status?: number;
  /** The response body as the provider sent it. */
  body: string;
  /** Default: `text/event-stream` for `sse`, else `application/json`. */
  type?: string;
}

export interface Replay {
  fetch: typeof globalThis.fetch;
  sent: Sent[];
}

const encoder = new TextEncoder();

/** `text` as a byte stream in pieces of `size` bytes, so events and CRLF pairs land across chunk edges. */
function pieces(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** A fetch answering the n-th request with `replies[n]` (a stream in 7-byte pieces for an event stream). */
export function replay(...replies: Reply[]): Replay {
  const sent: Sent[] = [];
  const answer = (async (input: unknown, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    sent.push({ url: String(input), headers, body: JSON.parse(String(init?.body ?? "{}")) });
    const reply = replies[sent.length - 1];
    if (!reply) throw new Error(`replay: no recording left for request ${sent.length}`);
    const type = reply.type ?? (reply.body.startsWith("{") ? "application/json" : "text/event-stream");
    const body = type === "text/event-stream" ? pieces(reply.body, 7) : reply.body;
    return new Response(body, { status: reply.status ?? 200, headers: { "content-type": type } });
  }) as typeof globalThis.fetch;
  return { fetch: answer, sent };
}

/** Responses API event payloads (one JSON per line) framed as OpenAI sends them: `event:` + `data:`. */
export function responsesSSE(events: readonly string[]): Reply {
  const body = events
    .map((data) => `event: ${(JSON.parse(data) as { type: string }).type}\ndata: ${data}\n\n`)
    .join("");
  return { body, type: "text/event-stream" };
}

/** Gemini chunks (one JSON per line) framed as Gemini sends them: `data:` lines ending with CRLF pairs. */
export function geminiSSE(chunks: readonly string[]): Reply {
  return { body: chunks.map((data) => `data: ${data}\r\n\r\n`).join(""), type: "text/event-stream" };
}

/** A recorded JSON body, answered with `status`. */
export const json = (body: string, status = 200): Reply => ({ body, status, type: "application/json" });

/** The events of a stream, collected. */
export async function collect<E>(events: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const e of events) out.push(e);
  return out;
}
