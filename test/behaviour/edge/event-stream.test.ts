// Run events over text/event-stream: out of an edge function (eventStreamResponse) and back in a page
// (readEventStream), exactly; page-safe results, errors on both sides of the first byte, cancellation.
import { describe, expect, it } from "vitest";
import {
  AnswerMismatchError,
  eventStreamResponse,
  InvalidAnswerError,
  isToolnexusError,
  LlmHttpError,
  NetworkError,
  readEventStream,
  ResumeTokenError,
  RunConflictError,
  RunNotFoundError,
  RunStateError,
  StorageError,
  StreamError,
  type ToolnexusError,
  type RunResult,
  type PendingRequest,
  type PendingResult,
  type StreamEvent,
} from "toolnexus";
import { cancellable, collect, streamOf } from "../../support/wire-streams";

const request: PendingRequest = {
  id: "q-1",
  kind: "question",
  prompt: "Which city?",
  data: { questions: [{ question: "Which city?" }] },
};
const result: PendingResult = {
  status: "pending",
  text: "Which city?",
  messages: [{ role: "user", content: "Weather?" }],
  toolCalls: [
    {
      id: "c1",
      name: "question",
      args: { q: "city" },
      output: "Which city?",
      isError: true,
      metadata: { internal: "tool-internals" },
    },
  ],
  toolCallCount: 1,
  turns: 1,
  usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
  model: "m",
  pending: request,
  requests: [request],
  runId: "run-1",
};

const EVENTS: StreamEvent[] = [
  { type: "text", delta: "Héllo 🙂\nline two\r\n" },
  { type: "tool_call", id: "c1", name: "question", args: { q: "city", nested: [1, null, { ok: true }] } },
  { type: "tool_result", id: "c1", name: "question", output: "data: not a field\n\n", isError: false },
  { type: "pending", request: result.pending, runId: "run-1" },
  { type: "usage", usage: result.usage },
  { type: "done", result },
];

async function* play(events: StreamEvent[], error?: unknown): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
  if (error !== undefined) throw error;
}

/** The events a page receives by default: the done result without its transcript or tool metadata. */
function pageSafe(events: StreamEvent[]): StreamEvent[] {
  return events.map((event) => {
    if (event.type !== "done") return event;
    const { messages: _, ...rest } = event.result;
    const toolCalls = rest.toolCalls.map(({ metadata: _m, ...call }) => call);
    return { type: "done", result: { ...rest, toolCalls } as RunResult };
  });
}

async function errorOf(promise: Promise<unknown>): Promise<ToolnexusError> {
  try {
    await promise;
  } catch (error) {
    expect(isToolnexusError(error)).toBe(true);
    return error as ToolnexusError;
  }
  throw new Error("expected a rejection");
}

// every error class, with the status a page gets before the first event
const ERRORS: [string, unknown, number, string][] = [
  [
    "InvalidAnswerError",
    new InvalidAnswerError("id", "toolnexus: invalid Answer: id is missing"),
    400,
    "invalid_answer",
  ],
  [
    "ResumeTokenError",
    new ResumeTokenError("run-1", "signature", "toolnexus: resume token refused: forged"),
    403,
    "resume_token",
  ],
  ["RunNotFoundError", new RunNotFoundError("run-9"), 404, "run_not_found"],
  ["RunConflictError", new RunConflictError("run-1", "toolnexus: already answered", "answered"), 409, "run_conflict"],
  [
    "AnswerMismatchError",
    new AnswerMismatchError({ id: "q-1", kind: "input", prompt: "?" }, { id: "q-2", ok: true }),
    409,
    "answer_mismatch",
  ],
  ["LlmHttpError", new LlmHttpError(503, "overloaded"), 502, "llm_http"],
  ["StreamError", new StreamError("toolnexus: the provider stream ended early"), 502, "stream"],
  ["NetworkError", new NetworkError("toolnexus: could not reach llm.test"), 502, "network"],
  ["RunStateError", new RunStateError("toolnexus: corrupt record", "run-1"), 500, "run_state"],
  ["StorageError", new StorageError("get", "run-1", new Error("driver said: password=hunter2")), 500, "storage"],
  ["a foreign error", new TypeError("Bearer sk-secret-123 rejected"), 500, "internal"],
];

describe("eventStreamResponse", () => {
  it("answers with text/event-stream, no-cache, and one event: / data: frame per event", async () => {
    const res = await eventStreamResponse(play(EVENTS.slice(0, 1)));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe(`event: text\ndata: ${JSON.stringify(EVENTS[0])}\n\n`);
  });

  it("keeps the caller's status and headers, its own cache-control too", async () => {
    const res = await eventStreamResponse(play([]), {
      status: 201,
      headers: { "x-run": "r1", "cache-control": "no-store" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-run")).toBe("r1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  it("the done event carries no transcript and no tool metadata by default", async () => {
    const text = await (await eventStreamResponse(play(EVENTS))).text();
    expect(text).not.toContain('"messages"');
    expect(text).not.toContain("Weather?"); // the user message of the transcript
    expect(text).not.toContain("tool-internals");
    const done = JSON.parse(text.split("\n\n").at(-2)!.split("data: ")[1]!);
    expect(done).toEqual(pageSafe(EVENTS).at(-1));
  });

  it("includeMessages: true sends the whole result", async () => {
    const res = await eventStreamResponse(play(EVENTS), { includeMessages: true });
    expect(await collect(readEventStream(res))).toEqual(EVENTS);
  });

  /** A conflict's `reason`, which its body and its rebuilt error carry too (nothing for another error). */
  const reasonOf = (error: unknown) => (error instanceof RunConflictError ? { reason: error.reason } : {});

  for (const [name, error, status, code] of ERRORS) {
    it(`${name} before the first event: HTTP ${status} with { error: { code: "${code}", message } }`, async () => {
      const res = await eventStreamResponse(play([], error), { headers: { "x-cors": "yes" } });
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("x-cors")).toBe("yes");
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body).toEqual({ error: { code, ...reasonOf(error), message: expect.any(String) } });
      if (code !== "internal" && code !== "storage") expect(body.error.message).toBe((error as Error).message);
    });

    it(`${name} after the first event: an error event { type, code: "${code}", message }`, async () => {
      const text = await (await eventStreamResponse(play(EVENTS.slice(0, 1), error))).text();
      const frames = text.split("\n\n");
      expect(frames).toHaveLength(3);
      expect(frames[2]).toBe("");
      expect(frames[1]).toMatch(/^event: error\ndata: /);
      const data = JSON.parse(frames[1]!.slice("event: error\ndata: ".length));
      expect(data).toEqual({ type: "error", code, ...reasonOf(error), message: expect.any(String) });
    });

    it(`${name}: readEventStream throws a ToolnexusError with code "${code}", before and after the first event`, async () => {
      const before = await errorOf(collect(readEventStream(await eventStreamResponse(play([], error)))));
      const got: StreamEvent[] = [];
      const after = await errorOf(
        (async () => {
          for await (const event of readEventStream(await eventStreamResponse(play(EVENTS.slice(0, 2), error))))
            got.push(event);
        })(),
      );
      expect([before.code, after.code]).toEqual([code, code]);
      expect([{ ...reasonOf(before) }, { ...reasonOf(after) }]).toEqual([reasonOf(error), reasonOf(error)]);
      expect(after.message).toBe(before.message);
      expect(got).toEqual(EVENTS.slice(0, 2));
    });
  }

  it("never sends a foreign error's message or stack, nor a storage driver's text", async () => {
    for (const error of [new TypeError("Bearer sk-secret-123 rejected"), ERRORS[9]![1]]) {
      const before = await (await eventStreamResponse(play([], error))).text();
      const after = await (await eventStreamResponse(play(EVENTS.slice(0, 1), error))).text();
      for (const text of [before, after]) {
        expect(text).not.toMatch(/sk-secret|hunter2|TypeError|at play/);
      }
    }
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
    const text = await (await eventStreamResponse(cyclic())).text();
    expect(text).toMatch(/^event: error\ndata: \{"type":"error","code":"internal",/);
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
    const reader = (await eventStreamResponse(forever())).body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    expect(closed).toBe(true);
  });
});

describe("readEventStream", () => {
  it("reads back the events that were sent, the done result page-safe", async () => {
    expect(await collect(readEventStream(await eventStreamResponse(play(EVENTS))))).toEqual(pageSafe(EVENTS));
  });

  it("reads a body stream too, in chunks of any size", async () => {
    const text = await (await eventStreamResponse(play(EVENTS))).text();
    for (const size of [1, 3, 64])
      expect(await collect(readEventStream(streamOf(text, size)))).toEqual(pageSafe(EVENTS));
  });

  it("reads CRLF line ends (one cut between chunks too), comments, unknown fields, a frame without data, data over lines", async () => {
    const text = (await (await eventStreamResponse(play(EVENTS))).text()).replaceAll("\n", "\r\n");
    for (const size of [1, 2, 5])
      expect(await collect(readEventStream(streamOf(text, size)))).toEqual(pageSafe(EVENTS));
    const done = { type: "done", result: { status: "done", text: "a" } };
    const odd = `: keep-alive\nretry: 10\nid: 1:1\nevent: x\n\ndata: {"type":"text",\ndata:"delta":"a"}\n\nevent: done\ndata: ${JSON.stringify(done)}\n\n`;
    expect(await collect(readEventStream(streamOf(odd, 7)))).toEqual([{ type: "text", delta: "a" }, done]);
  });

  it("throws StreamError when the stream ends before its done event", async () => {
    await expect(collect(readEventStream(await eventStreamResponse(play(EVENTS.slice(0, 3)))))).rejects.toThrow(
      "ended before its done event",
    );
    await expect(
      collect(readEventStream(streamOf('event: text\ndata: {"type":"text","delta":"a"}\n\nevent: done\ndata: {"ty'))),
    ).rejects.toBeInstanceOf(StreamError);
  });

  it("throws StreamError naming the status of a non-2xx response without an error body", async () => {
    const reading = collect(readEventStream(new Response("nope", { status: 502 })));
    await expect(reading).rejects.toBeInstanceOf(StreamError);
    await expect(collect(readEventStream(new Response("nope", { status: 502 })))).rejects.toThrow("HTTP 502");
  });

  it("a connection lost mid-stream is a NetworkError; an abort stays an abort", async () => {
    const first = new TextEncoder().encode(`event: text\ndata: ${JSON.stringify(EVENTS[0])}\n\n`);
    const dropping = (reason: unknown) =>
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(first);
        },
        pull(c) {
          c.error(reason);
        },
      });
    const lost = await errorOf(collect(readEventStream(dropping(new TypeError("network error")))));
    expect(lost).toBeInstanceOf(NetworkError);
    expect(lost.code).toBe("network");
    const abort = new DOMException("The user aborted a request.", "AbortError");
    await expect(collect(readEventStream(dropping(abort)))).rejects.toBe(abort);
  });

  it("throws StreamError for a response that is not an event stream", async () => {
    const html = new Response("<html></html>", { headers: { "content-type": "text/html" } });
    await expect(collect(readEventStream(html))).rejects.toThrow(
      "expected StreamEvents (from eventStreamResponse), got a text/html response",
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
    for await (const event of readEventStream(await eventStreamResponse(forever()))) {
      expect(event).toEqual({ type: "text", delta: "." });
      break;
    }
    await closing; // the cancel travels reader → response body → return() asynchronously
    expect(closed).toBe(true);
  });
});
