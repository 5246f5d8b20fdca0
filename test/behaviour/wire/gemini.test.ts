// The Gemini wire on real recorded responses (test/fixtures/wire/gemini), replayed through run, stream and
// a durable halt; every follow-up request is checked field by field, thought signatures above all. The
// scenarios every recorded wire shares (a call run, approved or relayed; errors; a cut stream) are in
// recorded-calls.test.ts.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  jsonSchema,
  memoryStorage,
  type RunResult,
  type StreamEvent,
  type Tool,
} from "toolnexus";
import * as text from "../../fixtures/wire/gemini/text";
import * as toolCall from "../../fixtures/wire/gemini/tool-call";
import * as reasoning from "../../fixtures/wire/gemini/reasoning";
import * as thinkingCallSSE from "../../fixtures/wire/gemini/thinking-call-sse";
import * as thinkingReplySSE from "../../fixtures/wire/gemini/thinking-reply-sse";
import * as blockedSSE from "../../fixtures/wire/gemini/blocked-sse";
import * as shortReplySSE from "../../fixtures/wire/gemini/short-reply-sse";
import * as thinkingCall from "../../fixtures/wire/gemini/thinking-call";
import * as unknownModel from "../../fixtures/wire/gemini/unknown-model";
import * as parallelCalls from "../../fixtures/wire/gemini/parallel-calls";
import * as differentParallelCalls from "../../fixtures/wire/gemini/different-parallel-calls";
import * as mixedContentCalls from "../../fixtures/wire/gemini/mixed-content-calls";
import * as noArgsCall from "../../fixtures/wire/gemini/no-args-call";
import * as nullArgCall from "../../fixtures/wire/gemini/null-arg-call";
import * as callShortSSE from "../../fixtures/wire/gemini/call-short-sse";
import { collect, geminiSSE, json, replay, type Reply } from "../../support/recorded-replies";
import { geminiWire as wire } from "../../support/wire-internals";

const BASE = "http://127.0.0.1:9";
const KEY = "key1234";
const MODEL = "gemini-3-pro-preview";
const client = (fetch: typeof globalThis.fetch, extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl: BASE, style: "gemini", model: MODEL, apiKey: KEY, fetch, ...extra });

type Json = Record<string, any>;
const sse = (body: string): Reply => ({ body, type: "text/event-stream" });
/** The model content of a recorded unstreamed reply. */
const contentOf = (body: string): Json => JSON.parse(body).candidates[0].content;
const doneOf = (events: StreamEvent[]) => (events.at(-1) as Extract<StreamEvent, { type: "done" }>).result;

const weather = defineTool({
  name: "weather",
  description: "The weather in a city",
  inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
  execute: ({ location }) => `${String(location)}: 18°C, fog`,
});

describe("gemini: requests", () => {
  it("posts to generateContent with the key in x-goog-api-key, the system prompt as systemInstruction", async () => {
    const r = replay(json(text.json));
    await client(r.fetch, { systemPrompt: "Be brief." }).run("How many r in strawberry?", { toolkit: [weather] });
    const [{ url, headers, body }] = r.sent as [(typeof r.sent)[0]];
    expect(url).toBe(`${BASE}/v1beta/models/${MODEL}:generateContent`);
    expect(headers["x-goog-api-key"]).toBe(KEY);
    expect(headers.authorization).toBeUndefined();
    expect(body).toEqual({
      contents: [{ role: "user", parts: [{ text: "How many r in strawberry?" }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      tools: [
        {
          functionDeclarations: [
            { name: "weather", description: "The weather in a city", parametersJsonSchema: weather.inputSchema },
          ],
        },
      ],
    });
  });

  it("streams from streamGenerateContent?alt=sse; a base URL that already names the version is kept", async () => {
    const r = replay(sse(shortReplySSE.body));
    await collect(
      createClient({
        baseUrl: `${BASE}/v1beta/`,
        style: "gemini",
        model: "models/gemini-2.5-flash",
        apiKey: KEY,
        fetch: r.fetch,
      }).stream("hi"),
    );
    expect(r.sent[0]!.url).toBe(`${BASE}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`);
  });

  it("asks for structured output with responseMimeType and responseJsonSchema", async () => {
    const r = replay(json(text.json));
    const schema = { type: "object" as const, properties: { n: { type: "number" } }, required: ["n"] };
    const error = await client(r.fetch)
      .run("hi", { output: jsonSchema(schema) })
      .catch((e: unknown) => e);
    expect(r.sent[0]!.body.generationConfig).toEqual({
      responseMimeType: "application/json",
      responseJsonSchema: schema,
    });
    expect(error).toMatchObject({ name: "OutputError" }); // the recorded answer is prose
  });

  it("sends a user's images and files as inlineData (bytes) or fileData (a URI)", () => {
    const [message] = wire.start(
      "",
      [],
      [
        { type: "text", text: "What is this?" },
        { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
        {
          type: "file",
          url: "https://generativelanguage.googleapis.com/v1beta/files/abc",
          mediaType: "application/pdf",
        },
      ],
    );
    expect(message).toEqual({
      role: "user",
      parts: [
        { text: "What is this?" },
        { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
        {
          fileData: {
            mimeType: "application/pdf",
            fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc",
          },
        },
      ],
    });
  });

  it("a tool's images follow the functionResponse parts in the same user turn", () => {
    expect(
      wire.results([
        {
          call: { id: "call_1", name: "chart", args: {}, raw: "{}" },
          result: {
            output: "here",
            isError: false,
            content: [{ type: "image", data: "AAAA", mediaType: "image/png" }],
          },
        },
        { call: { id: "call_2", name: "fail", args: {}, raw: "{}" }, result: { output: "boom", isError: true } },
      ]),
    ).toEqual([
      {
        role: "user",
        parts: [
          { functionResponse: { name: "chart", response: { result: "here" } } },
          { functionResponse: { name: "fail", response: { error: "boom" } } },
          { inlineData: { mimeType: "image/png", data: "AAAA" } },
        ],
      },
    ]);
  });
});

describe("gemini: recorded text replies", () => {
  it("run: the text, and usage with the thinking tokens counted as completion", async () => {
    const result = await client(replay(json(text.json)).fetch).run("How many r in strawberry?");
    const { usageMetadata: u } = JSON.parse(text.json);
    expect(result.text).toBe(contentOf(text.json).parts[0].text);
    expect(result.usage).toEqual({
      promptTokens: u.promptTokenCount,
      completionTokens: u.candidatesTokenCount + u.thoughtsTokenCount,
      totalTokens: u.totalTokenCount,
    });
  });

  it("stream: the deltas make the text; the closing empty part's signature lands on the text, and goes back with it", async () => {
    const first = replay(geminiSSE(text.chunks));
    const done = doneOf(await collect(client(first.fetch).stream("How many r in strawberry?")));
    const chunks = text.chunks.map((l) => JSON.parse(l).candidates[0].content.parts[0]);
    expect(done.text).toBe(chunks.map((p: Json) => p.text).join(""));
    const model = { role: "model", parts: [{ text: done.text, thoughtSignature: chunks.at(-1).thoughtSignature }] };
    expect(done.messages.at(-1)).toEqual(model);

    const next = replay(json(text.json));
    await client(next.fetch).run("And in raspberry?", { history: done.messages });
    expect(next.sent[0]!.body.contents).toEqual([
      { role: "user", parts: [{ text: "How many r in strawberry?" }] },
      model,
      { role: "user", parts: [{ text: "And in raspberry?" }] },
    ]);
  });

  it("thought parts stream as reasoning, never as text (raw SSE, CRLF framing)", async () => {
    const events = await collect(client(replay(sse(thinkingReplySSE.body)).fetch).stream("Why is the sky blue?"));
    const reasoningText = events.flatMap((e) => (e.type === "reasoning" ? [e.delta] : [])).join("");
    expect(reasoningText).toMatch(/^\*\*Exploring Sky Color\*\*/);
    const done = doneOf(events);
    expect(done.text).toMatch(/^The sky is blue because/);
    expect(done.text).not.toContain("Exploring Sky Color");
    expect(done.usage.totalTokens).toBe(598); // the last chunk's usage: it is cumulative, never summed
  });

  it("reasoning recorded unstreamed: the text only", async () => {
    const result = await client(replay(json(reasoning.json)).fetch).run("How many r in strawberry?");
    expect(result.text).toBe(contentOf(reasoning.json).parts.find((p: Json) => !p.thought).text);
  });

  it("a prompt blocked for safety (no candidates) ends the run with no text", async () => {
    const done = doneOf(await collect(client(replay(sse(blockedSSE.body)).fetch).stream("…")));
    expect(done.status).toBe("done");
    expect(done.text).toBe("");
  });
});

describe("gemini: recorded function calls and their signatures", () => {
  it("stream: a call arrives whole (one tool_input event); the signed call goes back on its own part", async () => {
    const r = replay(geminiSSE(toolCall.chunks), geminiSSE(text.chunks));
    const events = await collect(client(r.fetch).stream("Weather in SF?", { toolkit: [weather] }));
    expect(events.filter((e) => e.type === "tool_input")).toMatchObject([
      { type: "tool_input", name: "weather", delta: '{"location":"San Francisco"}' },
    ]);
    // Gemini sends no call id: the wire gives one, the same on the tool_input and the tool_call
    const input = events.find((e) => e.type === "tool_input") as Extract<StreamEvent, { type: "tool_input" }>;
    expect(input.id).not.toBe("");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ id: input.id, name: "weather" });
    const signed = JSON.parse(toolCall.chunks[0]!).candidates[0].content.parts[0];
    expect((r.sent[1]!.body.contents as Json[])[1]).toEqual({ role: "model", parts: [signed] });
  });

  it("halted on an approval and resumed by another client: the resumed request carries the thought signature unchanged", async () => {
    const storage = memoryStorage();
    const now: Tool = {
      ...defineTool({ name: "now", description: "The current time", execute: () => "2025-12-02T13:00:00Z" }),
      needsApproval: true,
    };
    const first = replay(sse(thinkingCallSSE.body));
    const halted = doneOf(
      await collect(client(first.fetch, { storage }).stream("Days until New Year?", { toolkit: [now] })),
    );
    expect(halted.status).toBe("pending");
    const pending = halted as Extract<RunResult, { status: "pending" }>;

    const later = replay(json(text.json));
    const resumed = await client(later.fetch, { storage }).resume(
      pending.runId,
      answerOutput(pending.pending.id, "ok"),
      {
        toolkit: [now],
      },
    );
    expect(resumed.status).toBe("done");
    const signature = /"thoughtSignature": "([^"]+)"/.exec(thinkingCallSSE.body)![1];
    const contents = later.sent[0]!.body.contents as Json[];
    expect(contents[1]!.role).toBe("model");
    expect(contents[1]!.parts.at(-1)).toEqual({ functionCall: { name: "now", args: {} }, thoughtSignature: signature });
    expect(contents[1]).not.toHaveProperty("callIds");
    expect(contents[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "now", response: { result: "2025-12-02T13:00:00Z" } } }],
    });
  });

  it("unstreamed thinking and a signed call (gemini-2.5-flash): thoughts are not text, the part keeps its signature", async () => {
    const now = defineTool({ name: "now", description: "The current time", execute: () => "2025-12-02T13:00:00Z" });
    const r = replay(json(thinkingCall.json), json(text.json));
    await client(r.fetch).run("Days until New Year?", { toolkit: [now] });
    expect((r.sent[1]!.body.contents as Json[])[1]).toEqual(contentOf(thinkingCall.json));
  });
});

describe("gemini: recorded parallel calls and arguments (Vertex AI recordings, the same reply shape)", () => {
  /** A tool that answers with its name and arguments, and counts its calls. */
  const arithmetic = (name: string, op: (x: number, y: number) => number) => {
    const seen: Json[] = [];
    const tool = defineTool({
      name,
      description: `${name} of x and y`,
      inputSchema: {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
      },
      execute: (args) => {
        seen.push(args);
        return String(op(Number(args.x), Number(args.y)));
      },
    });
    return { tool, seen };
  };
  const userTurn = (body: Json) => (body.contents as Json[]).at(-1)!;

  it("three calls of one function: each runs once with its own arguments, the answers go back in call order", async () => {
    const sum = arithmetic("sum", (x, y) => x + y);
    const r = replay(json(parallelCalls.json), json(text.json));
    const result = await client(r.fetch).run("Sums?", { toolkit: [sum.tool] });
    expect(sum.seen).toEqual([
      { x: 2, y: 1 },
      { x: 4, y: 3 },
      { x: 6, y: 5 },
    ]);
    // the wire gives each call its own id, though the three share a name
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(3);
    const contents = r.sent[1]!.body.contents as Json[];
    expect(contents[1]).toEqual(contentOf(parallelCalls.json)); // the parts exactly as they came, no callIds
    expect(userTurn(r.sent[1]!.body)).toEqual({
      role: "user",
      parts: ["3", "7", "11"].map((result) => ({ functionResponse: { name: "sum", response: { result } } })),
    });
  });

  it("three different functions in one reply: each answer goes back under its own name, in call order", async () => {
    const tools = [
      arithmetic("sum", (x, y) => x + y),
      arithmetic("multiply", (x, y) => x * y),
      arithmetic("subtract", (x, y) => x - y),
    ];
    const r = replay(json(differentParallelCalls.json), json(text.json));
    await client(r.fetch).run("Do the maths", { toolkit: tools.map((t) => t.tool) });
    expect(tools.map((t) => t.seen)).toEqual([[{ x: 2, y: 1 }], [{ x: 4, y: 3 }], [{ x: 6, y: 5 }]]);
    expect(userTurn(r.sent[1]!.body).parts).toEqual([
      { functionResponse: { name: "sum", response: { result: "3" } } },
      { functionResponse: { name: "multiply", response: { result: "12" } } },
      { functionResponse: { name: "subtract", response: { result: "1" } } },
    ]);
  });

  it("halted on the second of three parallel calls and resumed elsewhere: every answer goes back, in order", async () => {
    const storage = memoryStorage();
    const multiply: Tool = { ...arithmetic("multiply", (x, y) => x * y).tool, needsApproval: true };
    const sum = arithmetic("sum", (x, y) => x + y);
    const subtract = arithmetic("subtract", (x, y) => x - y);
    const toolkit = [sum.tool, multiply, subtract.tool];
    const first = replay(json(differentParallelCalls.json));
    const halted = await client(first.fetch, { storage }).run("Do the maths", { toolkit });
    expect(halted.status).toBe("pending");
    const { runId, pending } = halted as Extract<RunResult, { status: "pending" }>;

    const later = replay(json(text.json));
    const resumed = await client(later.fetch, { storage }).resume(runId, answerOutput(pending.id, "ok"), { toolkit });
    expect(resumed.status).toBe("done");
    expect([sum.seen, subtract.seen]).toEqual([[{ x: 2, y: 1 }], [{ x: 6, y: 5 }]]); // each ran once in all
    const contents = later.sent[0]!.body.contents as Json[];
    expect(contents[1]).toEqual(contentOf(differentParallelCalls.json));
    expect(contents[2]!.parts.map((p: Json) => p.functionResponse.name)).toEqual(["sum", "multiply", "subtract"]);
    expect(contents[2]!.parts[1].functionResponse.response).toEqual({ result: "12" });
  });

  it("text between calls is the answer's text; the model turn goes back with text and calls interleaved as they came", async () => {
    const sum = arithmetic("sum", (x, y) => x + y);
    const r = replay(json(mixedContentCalls.json), json(text.json));
    await client(r.fetch).run("Sum of [1, 2, 3]?", { toolkit: [sum.tool] });
    expect(sum.seen).toEqual([
      { x: 2, y: 1 },
      { x: 3, y: 3 },
    ]);
    expect((r.sent[1]!.body.contents as Json[])[1]).toEqual(contentOf(mixedContentCalls.json));
  });

  it("a call with `args: {}` and one with no `args` at all both run with {}", async () => {
    for (const body of [noArgsCall.json, noArgsCall.noArgs]) {
      const seen: unknown[] = [];
      const now = defineTool({
        name: "current_time",
        description: "The time",
        execute: (args) => {
          seen.push(args);
          return "13:00";
        },
      });
      const r = replay(json(body), json(text.json));
      await client(r.fetch).run("Time?", { toolkit: [now] });
      expect(seen).toEqual([{}]);
      expect((r.sent[1]!.body.contents as Json[])[1]).toEqual(contentOf(body));
    }
  });

  it("a null argument reaches the tool as null", async () => {
    const seen: unknown[] = [];
    const lookup = defineTool({
      name: "functionName",
      description: "Look up a title",
      inputSchema: {
        type: "object",
        properties: { original_title: { type: "string" }, season: { type: ["integer", "null"] } },
      },
      execute: (args) => {
        seen.push(args);
        return "found";
      },
    });
    const r = replay(json(nullArgCall.json), json(text.json));
    const result = await client(r.fetch).run("Find it", { toolkit: [lookup] });
    expect(seen).toEqual([{ original_title: "String", season: null }]);
    expect(result.usage.promptTokens).toBeGreaterThanOrEqual(774);
  });

  it("stream: a whole call in a single raw SSE event (CRLF) is one tool_input and one tool_call", async () => {
    const getTemperature = defineTool({
      name: "getTemperature",
      description: "The temperature in a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      execute: ({ city }) => `${String(city)}: 21°C`,
    });
    const r = replay(sse(callShortSSE.body), geminiSSE(text.chunks));
    const events = await collect(client(r.fetch).stream("Temperature in San Jose?", { toolkit: [getTemperature] }));
    expect(events.filter((e) => e.type === "tool_input")).toMatchObject([
      { name: "getTemperature", delta: '{"city":"San Jose"}' },
    ]);
    expect(events.filter((e) => e.type === "tool_result")).toMatchObject([{ output: "San Jose: 21°C" }]);
    expect(userTurn(r.sent[1]!.body).parts).toEqual([
      { functionResponse: { name: "getTemperature", response: { result: "San Jose: 21°C" } } },
    ]);
  });
});

describe("gemini: recorded errors", () => {
  const options = { retries: 1, retryBaseMs: 0 };

  it("404 NOT_FOUND (an unknown model) is not retried", async () => {
    const r = replay(json(unknownModel.json, 404), json(text.json));
    await expect(client(r.fetch, options).run("hi")).rejects.toMatchObject({ name: "LlmHttpError", status: 404 });
    expect(r.sent).toHaveLength(1);
  });
});
