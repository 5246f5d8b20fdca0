// Run events over text/event-stream: out of an edge function (eventStreamResponse) and back in a page
// (readEventStream), exactly; errors and cancellation included.
import { describe, expect, it } from "vitest";
import {
  eventStreamResponse,
  readEventStream,
  RunNotFoundError,
  StreamError,
  type RunResult,
  type StreamEvent,
} from "toolnexus";
import { cancellable, collect, streamOf } from "../support/wire-streams";

const result: RunResult = {
  status: "pending",
  text: "Which city?",
  messages: [{ role: "user", content: "Weather?" }],
  toolCalls: [{ id: "c1", name: "question", args: { q: "city" }, output: "Which city?", isError: true }],
  toolCallCount: 1,
  turns: 1,
  usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
  model: "m",
  pending: { id: "q-1", kind: "question", prompt: "Which city?", data: { questions: [{ question: "Which city?" }] } },
  runId: "run-1",
};

const EVENTS: StreamEvent[] = [
  { type: "text", delta: "Héllo 🙂\nline two\r\n" },
  { type: "tool_call", id: "c1", name: "question", args: { q: "city", nested: [1, null, { ok: true }] } },
  { type: "tool_result", id: "c1", name: "question", output: "data: not a field\n\n", isError: false },
  { type: "pending", request: result.pending!, runId: "run-1" },
  { type: "usage", usage: result.usage },
  { type: "done", result },
];

async function* play(events: StreamEvent[], error?: unknown): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
  if (error !== undefined) throw error;
}

describe("eventStreamResponse", () => {
  it("answers with text/event-stream, no-cache, and one event: / data: frame per event", async () => {
    const res = eventStreamResponse(play(EVENTS.slice(0, 1)));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe(`event: text\ndata: ${JSON.stringify(EVENTS[0])}\n\n`);
  });

  it("keeps the caller's init: status, extra headers, its own cache-control", async () => {
    const res = eventStreamResponse(play([]), { status: 201, headers: { "x-run": "r1", "cache-control": "no-store" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-run")).toBe("r1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  it("ends with an error event carrying a ToolnexusError's code and message", async () => {
    const res = eventStreamResponse(play(EVENTS.slice(0, 1), new RunNotFoundError("run-9")));
    const text = await res.text();
    const frames = text.split("\n\n");
    expect(frames[1]).toBe(
      `event: error\ndata: ${JSON.stringify({ code: "run_not_found", message: new RunNotFoundError("run-9").message })}`,
    );
    expect(frames[2]).toBe("");
    expect(frames).toHaveLength(3);
  });

  it("never sends another error's message or stack", async () => {
    const res = eventStreamResponse(play([], new TypeError("Bearer sk-secret-123 rejected")));
    const text = await res.text();
    expect(text).toMatch(/^event: error\ndata: \{"code":"internal","message":"toolnexus: [^"]+"\}\n\n$/);
    expect(text).not.toContain("sk-secret");
    expect(text).not.toContain("TypeError");
  });

  it("reports an event JSON cannot carry as an error and closes the events", async () => {
    let closed = false;
    async function* cyclic(): AsyncGenerator<StreamEvent> {
      try {
        const args: Record<string, unknown> = {};
        args.self = args;
        yield { type: "tool_call", id: "c1", name: "t", args };
        yield { type: "text", delta: "never sent" };
      } finally {
        closed = true;
      }
    }
    const text = await eventStreamResponse(cyclic()).text();
    expect(text).toMatch(/^event: error\ndata: \{"code":"internal",/);
    expect(text).not.toContain("never sent");
    expect(closed).toBe(true);
  });

  it("closes the events (return()) when the client goes away", async () => {
    let closed = false;
    async function* forever(): AsyncGenerator<StreamEvent> {
      try {
        for (;;) yield { type: "text", delta: "." };
      } finally {
        closed = true;
      }
    }
    const reader = eventStreamResponse(forever()).body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    expect(closed).toBe(true);
  });
});

describe("readEventStream", () => {
  it("reads back exactly the events that were sent", async () => {
    expect(await collect(readEventStream(eventStreamResponse(play(EVENTS))))).toEqual(EVENTS);
  });

  it("reads a body stream too, in chunks of any size", async () => {
    const text = await eventStreamResponse(play(EVENTS)).text();
    for (const size of [1, 3, 64]) expect(await collect(readEventStream(streamOf(text, size)))).toEqual(EVENTS);
  });

  it("yields the events before an error event, then throws StreamError with its code and message", async () => {
    const got: StreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of readEventStream(
        eventStreamResponse(play(EVENTS.slice(0, 2), new RunNotFoundError("run-9"))),
      ))
        got.push(event);
    } catch (error) {
      caught = error;
    }
    expect(got).toEqual(EVENTS.slice(0, 2));
    expect(caught).toBeInstanceOf(StreamError);
    expect(caught).toMatchObject({
      code: "stream",
      cause: { code: "run_not_found", message: new RunNotFoundError("run-9").message },
    });
    expect((caught as Error).message).toContain("run_not_found");
  });

  it("throws StreamError when the stream ends before its done event", async () => {
    await expect(collect(readEventStream(eventStreamResponse(play(EVENTS.slice(0, 3)))))).rejects.toThrow(
      "ended before its done event",
    );
    await expect(
      collect(readEventStream(streamOf('event: text\ndata: {"type":"text","delta":"a"}\n\nevent: done\ndata: {"ty'))),
    ).rejects.toBeInstanceOf(StreamError);
  });

  it("throws StreamError naming the status of a non-2xx response", async () => {
    const reading = collect(readEventStream(new Response("nope", { status: 502 })));
    await expect(reading).rejects.toBeInstanceOf(StreamError);
    await expect(collect(readEventStream(new Response("nope", { status: 502 })))).rejects.toThrow("HTTP 502");
  });

  it("throws StreamError for a response that is not an event stream", async () => {
    const html = new Response("<html></html>", { headers: { "content-type": "text/html" } });
    await expect(collect(readEventStream(html))).rejects.toThrow(
      "expected a text/event-stream response, got text/html",
    );
    await expect(collect(readEventStream(streamOf("event: text\ndata: {not json\n\n")))).rejects.toThrow("not JSON");
  });

  it("cancels the stream when the reader stops early", async () => {
    const { stream, cancelled } = cancellable(`event: text\ndata: ${JSON.stringify(EVENTS[0])}\n\n`);
    for await (const event of readEventStream(stream)) {
      expect(event).toEqual(EVENTS[0]);
      break;
    }
    expect(cancelled()).toBe(true);
  });

  it("stopping early closes the server's events, end to end", async () => {
    let closed = false;
    let onClosed!: () => void;
    const closing = new Promise<void>((resolve) => (onClosed = resolve));
    async function* forever(): AsyncGenerator<StreamEvent> {
      try {
        for (;;) yield { type: "text", delta: "." };
      } finally {
        closed = true;
        onClosed();
      }
    }
    for await (const event of readEventStream(eventStreamResponse(forever()))) {
      expect(event).toEqual({ type: "text", delta: "." });
      break;
    }
    await closing; // the cancel travels reader → response body → return() asynchronously
    expect(closed).toBe(true);
  });
});
