// A provider stream is bounded: one line longer than maxStreamLineBytes (an upstream that never ends a line)
// and a silence longer than streamIdleTimeoutMs (an upstream that hangs without closing) each end the run's
// model call with a StreamError saying which bound it passed, and the provider's body is cancelled.
import { describe, expect, it } from "vitest";
import { ConfigError, createClient, StreamError, type ClientOptions } from "toolnexus";

const encoder = new TextEncoder();
const chunk = (text: string) =>
  encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`);

/** A provider whose stream sends `parts`, then ends — or, with `hang`, never sends again; `cancelled` says it was let go. */
function provider(parts: Uint8Array[], hang = false) {
  const seen = { cancelled: false };
  const fetch = (async () => {
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < parts.length) return controller.enqueue(parts[at++]!);
        if (hang) return new Promise<void>(() => {});
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      },
      cancel: () => void (seen.cancelled = true),
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const base = { baseUrl: "http://127.0.0.1:9/v1", style: "openai" as const, model: "m", apiKey: "sk-x", retries: 0 };

async function streamed(opts: Partial<ClientOptions>, fetch: typeof globalThis.fetch) {
  const client = createClient({ ...base, ...opts, fetch });
  let text = "";
  try {
    for await (const event of client.stream("hi")) if (event.type === "text") text += event.delta;
    return { text };
  } catch (error) {
    return { text, error };
  }
}

describe("provider stream bounds", () => {
  it("a line over maxStreamLineBytes is a StreamError, whether it comes in one chunk or many", async () => {
    const long = `data: ${"x".repeat(3000)}`;
    for (const parts of [[encoder.encode(long)], [...long].map((c) => encoder.encode(c))]) {
      const p = provider([chunk("before "), ...parts, chunk("never")]);
      const { text, error } = await streamed({ maxStreamLineBytes: 2048 }, p.fetch);
      expect(error).toBeInstanceOf(StreamError);
      expect((error as StreamError).message).toContain("over 2048 bytes");
      expect(text).toBe("before ");
      expect(p.seen.cancelled).toBe(true);
    }
  });

  it("lines under the bound stream as they are", async () => {
    const p = provider([chunk("a".repeat(1500)), chunk("b")]);
    const { text, error } = await streamed({ maxStreamLineBytes: 2048 }, p.fetch);
    expect(error).toBeUndefined();
    expect(text).toBe(`${"a".repeat(1500)}b`);
  });

  it("a stream that stops sending ends with a StreamError after streamIdleTimeoutMs", async () => {
    const p = provider([chunk("partial")], true);
    const { text, error } = await streamed({ streamIdleTimeoutMs: 30 }, p.fetch);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).message).toContain("sent nothing for 30 ms");
    expect(text).toBe("partial");
    expect(p.seen.cancelled).toBe(true);
  });

  it("bad bounds are ConfigErrors", () => {
    for (const opts of [{ streamIdleTimeoutMs: -1 }, { streamIdleTimeoutMs: 1.5 }, { maxStreamLineBytes: 0 }]) {
      expect(() => createClient({ ...base, ...opts })).toThrow(ConfigError);
    }
  });
});
