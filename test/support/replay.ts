// A provider played back from recorded replies: each request gets the next reply, and its JSON body is
// kept so a test can check, field by field, what the SDK sent on the following turn.

/** A `.chunks.txt` recording (one JSON chunk a line) as server-sent events; Anthropic's carry their `event:` name. */
export function chunksAsSSE(chunks: string, named = false): string {
  return chunks
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) =>
      named ? `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n` : `data: ${line}\n\n`,
    )
    .join("");
}

export interface Reply {
  body: string;
  /** Default: `text/event-stream` when the body starts with `data:` or `event:`, else JSON. */
  type?: string;
}

export interface Replayed {
  fetch: typeof fetch;
  /** The JSON bodies of the requests made so far, in order. */
  bodies: Record<string, unknown>[];
  /** The raw text of each request body, as sent. */
  raw: string[];
}

/** A fetch answering the n-th request with `replies[n]` (a request past the last one fails the test). */
export function replay(replies: readonly Reply[]): Replayed {
  const bodies: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const play = (async (_url: unknown, init?: RequestInit) => {
    const text = String(init?.body ?? "");
    raw.push(text);
    bodies.push(JSON.parse(text) as Record<string, unknown>);
    const reply = replies[bodies.length - 1];
    if (!reply) throw new Error(`replay: request ${bodies.length} has no recorded reply`);
    const sse = /^(data|event):/.test(reply.body);
    return new Response(reply.body, {
      status: 200,
      headers: { "content-type": reply.type ?? (sse ? "text/event-stream" : "application/json") },
    });
  }) as unknown as typeof globalThis.fetch;
  return { fetch: play, bodies, raw };
}
