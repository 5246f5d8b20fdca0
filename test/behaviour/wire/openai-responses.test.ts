// The Responses API wire on real recorded responses (test/fixtures/wire/openai-responses), replayed through
// run, stream and a durable halt; every follow-up request is checked field by field. The scenarios every
// recorded wire shares (a call run, approved or relayed; errors; a cut stream) are in recorded-calls.test.ts.
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
import * as calculator from "../../fixtures/wire/openai-responses/reasoning-calculator";
import * as phase from "../../fixtures/wire/openai-responses/phase";
import * as quota from "../../fixtures/wire/openai-responses/quota-error";
import * as copilot from "../../fixtures/wire/openai-responses/copilot-id-rotation";
import * as lmstudio from "../../fixtures/wire/openai-responses/lmstudio-tool-call";
import { collect, json, replay, responsesSSE } from "../../support/recorded-replies";
import { openaiResponsesWire as wire } from "../../support/wire-internals";

const BASE = "http://127.0.0.1:9/v1";
const KEY = "sk-test-responses-1234";
const client = (fetch: typeof globalThis.fetch, extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl: BASE, style: "openai-responses", model: "gpt-5-mini", apiKey: KEY, fetch, ...extra });

type Json = Record<string, any>;
/** The `response` of a recorded stream's `response.completed` event. */
const completed = (events: readonly string[]): Json =>
  events.map((l) => JSON.parse(l)).find((e) => e.type === "response.completed").response;

const calc = defineTool({
  name: "calculator",
  description: "A minimal calculator",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" }, op: { type: "string" } },
    required: ["a", "b", "op"],
  },
  execute: ({ a, b, op }) => String(op === "add" ? Number(a) + Number(b) : Number(a) * Number(b)),
});

describe("openai-responses: requests", () => {
  it("posts to <baseUrl>/responses with a bearer key, the system prompt as instructions, and no state kept at OpenAI", async () => {
    const r = replay(json(phase.json));
    await client(r.fetch, { systemPrompt: "Be brief." }).run("hi", { toolkit: [calc] });
    const [{ url, headers, body }] = r.sent as [(typeof r.sent)[0]];
    expect(url).toBe(`${BASE}/responses`);
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(body).toEqual({
      model: "gpt-5-mini",
      instructions: "Be brief.",
      input: [{ role: "user", content: "hi" }],
      tools: [
        {
          type: "function",
          name: "calculator",
          description: "A minimal calculator",
          parameters: calc.inputSchema,
          strict: false,
        },
      ],
      tool_choice: "auto",
      store: false,
      include: ["reasoning.encrypted_content"],
    });
  });

  it("asks for encrypted reasoning only from a reasoning model (any other answers 400 to it)", () => {
    const body = (model: string) => wire.body({ model, system: "", messages: [], tools: [], stream: false });
    for (const model of ["gpt-5-mini", "gpt-5.1", "o3", "o4-mini", "openai/gpt-5", "gpt-5.3-codex"])
      expect(body(model).include, model).toEqual(["reasoning.encrypted_content"]);
    for (const model of [
      "gpt-4o",
      "gpt-4.1-mini",
      "gpt-5-chat-latest",
      "chatgpt-4o-latest",
      "omni-moderation-latest",
    ]) {
      expect(body(model), model).not.toHaveProperty("include");
      expect(body(model).store, model).toBe(false);
    }
  });

  it("asks for structured output through text.format with strict: true, and checks the answer against it", async () => {
    const r = replay(json(phase.json));
    // a schema strict mode accepts (strict-output.test.ts has the ones it refuses)
    const schema = {
      type: "object" as const,
      properties: { n: { type: "number" } },
      required: ["n"],
      additionalProperties: false,
    };
    const error = await client(r.fetch)
      .run("hi", { output: jsonSchema(schema) })
      .catch((e: unknown) => e);
    expect(r.sent[0]!.body.text).toEqual({ format: { type: "json_schema", name: "output", schema, strict: true } });
    // the recorded answer is prose, not JSON of the schema
    expect(error).toMatchObject({ name: "OutputError", code: "output" });
  });

  it("sends a user's images and files as input_image / input_file parts", () => {
    const [message] = wire.start(
      "",
      [],
      [
        { type: "text", text: "What is this?" },
        { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
        { type: "image", url: "https://example.test/cat.jpg", mediaType: "image/jpeg" },
        { type: "file", data: "JVBERi0=", mediaType: "application/pdf", filename: "a.pdf" },
      ],
    );
    expect(message).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "What is this?" },
        { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
        { type: "input_image", image_url: "https://example.test/cat.jpg" },
        { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" },
      ],
    });
  });
});

describe("openai-responses: recorded text replies", () => {
  const recorded = JSON.parse(phase.json) as Json;
  const texts = recorded.output.map((m: Json) => m.content[0].text).join("");

  it("run: the text of every message item, in order (commentary then final answer), and the usage", async () => {
    const result = await client(replay(json(phase.json)).fetch).run("news?");
    expect(result.status).toBe("done");
    expect(result.text).toBe(texts);
    expect(result.usage).toEqual({
      promptTokens: recorded.usage.input_tokens,
      completionTokens: recorded.usage.output_tokens,
      totalTokens: recorded.usage.total_tokens,
    });
  });

  it("stream: the run's text is what streamed, and the turn is kept as the items the provider finished", async () => {
    const events = await collect(client(replay(responsesSSE(phase.events)).fetch).stream("news?"));
    const text = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    // the recording keeps only the first deltas of each message; the finished items are whole, and are the turn
    expect(text).toBe("Got itHere are a few **AI");
    expect(done.result.text).toBe(
      completed(phase.events)
        .output.map((m: Json) => m.content[0].text)
        .join(""),
    );
    expect(done.result.messages.at(-1)).toEqual({ role: "assistant", output: completed(phase.events).output });
  });

  it("a server that gives every event a new item id (GitHub Copilot): items joined by output_index", async () => {
    const events = await collect(client(replay(responsesSSE(copilot.events)).fetch).stream("how many r?"));
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    const reasoning = events.flatMap((e) => (e.type === "reasoning" ? [e.delta] : [])).join("");
    expect(reasoning).toBe("**Counting character occurrences**");
    expect(done.result.text).toMatch(/^There are \*\*3\*\* letter/);
    expect(done.result.text).toBe(events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join(""));
  });
});

describe("openai-responses: a recorded tool loop with reasoning (gpt-5-mini, store: false)", () => {
  const turns = [calculator.turn1, calculator.turn2, calculator.turn3, calculator.turn4];
  const script = () => replay(...turns.map(responsesSSE));

  it("streams reasoning and tool_input deltas, runs each call, and ends with the recorded answer", async () => {
    const r = script();
    const events = await collect(client(r.fetch).stream("12+7, times 3, times 10", { toolkit: [calc] }));
    const first = completed(calculator.turn1).output;
    const call = first[1] as Json;
    const input = events.flatMap((e) => (e.type === "tool_input" && e.id === call.call_id ? [e.delta] : []));
    expect(input.join("")).toBe(call.arguments);
    expect(events.some((e) => e.type === "reasoning" && e.delta.length > 0)).toBe(true);
    const results = events.flatMap((e) => (e.type === "tool_result" ? [e.output] : []));
    expect(results).toEqual(["19", "57", "570"]);
    const done = (events.at(-1) as Extract<StreamEvent, { type: "done" }>).result;
    expect(done.text).toBe(completed(calculator.turn4).output[0].content[0].text);
    expect(done.usage.totalTokens).toBe(turns.reduce((n, t) => n + completed(t).usage.total_tokens, 0));
  });

  it("the next request carries the reasoning item whole, the call without its stored id, and its output by call_id", async () => {
    const r = script();
    await collect(client(r.fetch).stream("12+7, times 3, times 10", { toolkit: [calc] }));
    expect(r.sent).toHaveLength(4);
    const [reasoning, call] = completed(calculator.turn1).output as [Json, Json];
    const { id: _fc, ...callSent } = call;
    expect(r.sent[1]!.body.input).toEqual([
      { role: "user", content: "12+7, times 3, times 10" },
      reasoning,
      callSent,
      { type: "function_call_output", call_id: call.call_id, output: "19" },
    ]);
    expect((r.sent[1]!.body.input as Json[])[1]!.encrypted_content).toBe(reasoning.encrypted_content);
    const second = completed(calculator.turn2).output[0] as Json;
    expect((r.sent[2]!.body.input as Json[]).slice(4)).toEqual([
      {
        type: "function_call",
        call_id: second.call_id,
        name: "calculator",
        arguments: second.arguments,
        status: "completed",
      },
      { type: "function_call_output", call_id: second.call_id, output: "57" },
    ]);
  });

  it("halted on an approval and resumed by another client: the resumed request carries the encrypted reasoning item unchanged", async () => {
    const storage = memoryStorage();
    const guarded: Tool = { ...calc, needsApproval: true };
    const first = replay(responsesSSE(calculator.turn1));
    const halted = (await collect(client(first.fetch, { storage }).stream("12+7…", { toolkit: [guarded] }))).at(
      -1,
    ) as Extract<StreamEvent, { type: "done" }>;
    expect(halted.result.status).toBe("pending");
    const pending = halted.result as Extract<RunResult, { status: "pending" }>;
    expect(pending.pending.kind).toBe("approval");

    const later = replay(json(calculator.json));
    const resumed = await client(later.fetch, { storage }).resume(
      pending.runId,
      answerOutput(pending.pending.id, "yes"),
      {
        toolkit: [guarded],
      },
    );
    expect(resumed.status).toBe("done");
    const [reasoning, call] = completed(calculator.turn1).output as [Json, Json];
    const input = later.sent[0]!.body.input as Json[];
    expect(input[1]).toEqual(reasoning);
    expect(input[1]!.encrypted_content).toBe(reasoning.encrypted_content);
    expect(input[3]).toEqual({ type: "function_call_output", call_id: call.call_id, output: "19" });
    expect(later.sent[0]!.body.store).toBe(false);
  });
});

describe("openai-responses: a compatible server's recorded call (LM Studio)", () => {
  it("a final response that lists no items: the turn is the items as they streamed", async () => {
    const bare = lmstudio.events.map((line) => {
      const event = JSON.parse(line);
      return event.type === "response.completed"
        ? JSON.stringify({ ...event, response: { ...event.response, output: [] } })
        : line;
    });
    const events = await collect(
      client(replay(responsesSSE(bare), responsesSSE(phase.events)).fetch).stream("weather in SF?", {
        toolkit: [defineTool({ name: "weather", description: "Weather", execute: () => "fog" })],
      }),
    );
    const call = completed(lmstudio.events).output.find((i: Json) => i.type === "function_call");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({
      id: call.call_id,
      args: JSON.parse(call.arguments),
    });
    expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("")).toContain(
      "I'll get the current weather",
    );
  });

  it("stream: the same call, assembled from its events", async () => {
    const weather = defineTool({ name: "weather", description: "Weather", execute: () => "18°C, fog" });
    const r = replay(responsesSSE(lmstudio.events), responsesSSE(phase.events));
    const events = await collect(client(r.fetch).stream("weather in SF?", { toolkit: [weather] }));
    const call = events.find((e) => e.type === "tool_call");
    expect(call).toMatchObject({ name: "weather", args: { location: "San Francisco" } });
    expect((r.sent[1]!.body.input as Json[]).at(-1)).toMatchObject({
      type: "function_call_output",
      output: "18°C, fog",
    });
  });
});

describe("openai-responses: suspensions on a recorded call", () => {
  it("inline: waitFor answers the approval and the loop goes on", async () => {
    const guarded: Tool = { ...calc, needsApproval: true };
    const r = replay(...[calculator.turn1, calculator.turn2, calculator.turn3, calculator.turn4].map(responsesSSE));
    const events = await collect(
      client(r.fetch, { waitFor: async (request: { id: string }) => answerOutput(request.id, "yes") }).stream("12+7…", {
        toolkit: [guarded],
      }),
    );
    expect((events.at(-1) as Extract<StreamEvent, { type: "done" }>).result.toolCalls.map((c) => c.output)).toEqual([
      "19",
      "57",
      "570",
    ]);
  });
});

describe("openai-responses: tool results with images", () => {
  it("a tool's images go back in function_call_output as input parts after its text", () => {
    const [item] = wire.results([
      {
        call: { id: "call_1", name: "chart", args: {}, raw: "{}" },
        result: { output: "here", isError: false, content: [{ type: "image", data: "AAAA", mediaType: "image/png" }] },
      },
    ]);
    expect(item).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "here" },
        { type: "input_image", image_url: "data:image/png;base64,AAAA" },
      ],
    });
  });
});

describe("openai-responses: recorded errors", () => {
  it("a quota failure inside a 200 stream (error, response.failed) is a stream error with the provider's words, not an empty answer", async () => {
    const streamed = collect(client(replay(responsesSSE(quota.events)).fetch).stream("hi"));
    await expect(streamed).rejects.toMatchObject({ name: "StreamError", code: "stream" });
    await expect(streamed).rejects.toThrow(/exceeded your current quota/);
  });
});
