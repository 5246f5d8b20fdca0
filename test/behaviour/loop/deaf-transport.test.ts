// An abort (the caller's signal, a deadline, a stop) ends a run at the model call in flight also when the
// model's transport does not honour the signal — an injected `fetch`, a proxy — whether it has not answered
// yet or is streaming: the run is `incomplete` with what had streamed, and nothing after the abort is seen.
import { describe, expect, it } from "vitest";
import { createClient, type StreamEvent } from "toolnexus";

const encoder = new TextEncoder();
const chunk = (content: string) =>
  encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`);
const base = { baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m", apiKey: "k", retries: 0 } as const;

describe("a transport that ignores the abort signal", () => {
  it("a reply that never comes: the abort ends the run at once, incomplete (aborted)", async () => {
    let asked = 0;
    const fetch = (() => {
      asked++;
      return new Promise<Response>(() => {}); // never answers, whatever the signal says
    }) as typeof globalThis.fetch;
    const controller = new AbortController();
    const running = createClient({ ...base, fetch }).run("hi", { signal: controller.signal });
    while (asked === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    expect(await running).toMatchObject({ status: "incomplete", limit: "aborted", text: "" });
  });

  it("a stream that goes on: no event after the abort, the run keeps what streamed before it", async () => {
    const released: (() => void)[] = [];
    const tokens = ["Hello", " world", " and more"];
    const held = tokens.map(() => new Promise<void>((resolve) => released.push(resolve)));
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        await held[at];
        c.enqueue(chunk(tokens[at++]!));
        if (at === tokens.length) c.close();
      },
    });
    const fetch = (async () =>
      new Response(body, { headers: { "content-type": "text/event-stream" } })) as typeof globalThis.fetch;
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    released[0]!();
    for await (const event of createClient({ ...base, fetch }).stream("hi", { signal: controller.signal })) {
      events.push(event);
      if (event.type === "text") {
        controller.abort();
        for (const release of released) release(); // the transport streams on
      }
    }
    expect(events.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.delta : ""))).toEqual(["Hello"]);
    expect(events.at(-1)).toMatchObject({
      type: "done",
      result: { status: "incomplete", limit: "aborted", text: "Hello" },
    });
  });
});
