// Real recorded provider responses (test/fixtures/wire, sources in its README) replayed through each wire
// and through run/stream with a played-back fetch: tool-argument deltas join to the call's arguments,
// reasoning streams as reasoning (never text), and what the model sent goes back on the next request.
import { describe, expect, it } from "vitest";
import { createClient, defineTool, type StreamEvent } from "toolnexus";
import { text as gpt4oToolCall } from "../../fixtures/wire/openai/gpt-4o-tool-call-chunks";
import { text as deepseekToolCall } from "../../fixtures/wire/openai-compatible/deepseek-reasoner-tool-call-chunks";
import { text as deepseekReasoning } from "../../fixtures/wire/openai-compatible/deepseek-reasoner-reasoning";
import { text as claudeCompat } from "../../fixtures/wire/openai-compatible/claude-compat-tool-call";
import { text as thinkingChunks } from "../../fixtures/wire/anthropic/thinking-signature-chunks";
import { text as thinkingJson } from "../../fixtures/wire/anthropic/thinking-signature";
import { text as inputJsonDelta } from "../../fixtures/wire/anthropic/input-json-delta-chunks";
import { text as toolNoArgs } from "../../fixtures/wire/anthropic/tool-no-args-chunks";
import { anthropicWire, openaiWire, type Turn, type WireDelta } from "../../support/wire-internals";
import { chunksAsSSE, replay } from "../../support/replay";
import { openaiSSE, streamOf } from "../../support/wire-streams";

const OPENAI = {
  baseUrl: "http://127.0.0.1:9/v1",
  style: "openai" as const,
  model: "m",
  apiKey: "sk-test",
  retries: 0,
};
const ANTHROPIC = { ...OPENAI, style: "anthropic" as const };
const FINAL_OPENAI_SSE = openaiSSE([{ choices: [{ index: 0, delta: { content: "Done." }, finish_reason: "stop" }] }]);
const FINAL_ANTHROPIC = JSON.stringify({
  type: "message",
  role: "assistant",
  content: [{ type: "text", text: "Done." }],
  stop_reason: "end_turn",
});

async function readWith(read: typeof openaiWire.readStream, sse: string, size?: number) {
  const deltas: WireDelta[] = [];
  const turn: Turn = await read(streamOf(sse, size), (d) => deltas.push(d));
  return { turn, deltas };
}

const joined = (deltas: readonly (StreamEvent | WireDelta)[], type: string, id?: string) =>
  deltas
    .filter((d) => d.type === type && (id === undefined || (d as { id?: string }).id === id))
    .map((d) => (d as { delta: string }).delta)
    .join("");

async function streamed(client: ReturnType<typeof createClient>, prompt: string, opts = {}) {
  const events: StreamEvent[] = [];
  for await (const e of client.stream(prompt, opts)) events.push(e);
  return events;
}

const weather = defineTool({ name: "weather", description: "Weather", execute: () => "sunny" });

describe("OpenAI, recorded (gpt-4o: text, then a tool call)", () => {
  const sse = chunksAsSSE(gpt4oToolCall);

  it("reports the call's argument deltas under its id and name; joined, they are its arguments", async () => {
    for (const size of [Number.POSITIVE_INFINITY, 7, 1]) {
      const { turn, deltas } = await readWith(openaiWire.readStream, sse, size);
      expect(joined(deltas, "text")).toBe("PRE_TOOL");
      const inputs = deltas.filter((d) => d.type === "tool_input");
      expect(inputs).toEqual([
        { type: "tool_input", id: "call_NZa7xqfefoaMI2YYHowVXVlU", name: "weather", delta: "{}" },
      ]);
      expect(turn.calls.map((c) => [c.id, c.name, c.raw])).toEqual([
        ["call_NZa7xqfefoaMI2YYHowVXVlU", "weather", "{}"],
      ]);
    }
  });

  it("streams tool_input before the tool_call it prepares, and sends the call back on the next request", async () => {
    const played = replay([{ body: sse }, { body: FINAL_OPENAI_SSE }]);
    const events = await streamed(createClient({ ...OPENAI, fetch: played.fetch }), "weather?", { toolkit: [weather] });
    const order = events.map((e) => e.type).filter((t) => t === "tool_input" || t === "tool_call");
    expect(order).toEqual(["tool_input", "tool_call"]);
    const sent = played.bodies[1]!.messages as Record<string, unknown>[];
    expect(sent.at(-2)).toEqual({
      role: "assistant",
      content: "PRE_TOOL",
      tool_calls: [
        { id: "call_NZa7xqfefoaMI2YYHowVXVlU", type: "function", function: { name: "weather", arguments: "{}" } },
      ],
    });
    expect(sent.at(-1)).toEqual({ role: "tool", tool_call_id: "call_NZa7xqfefoaMI2YYHowVXVlU", content: "sunny" });
  });

  it("reads a call that starts at index 1 (Anthropic's OpenAI-compatible endpoint)", async () => {
    const { turn, deltas } = await readWith(openaiWire.readStream, claudeCompat);
    expect(joined(deltas, "tool_input", "toolu_sanitized")).toBe('{"path": "a.txt"}');
    expect(turn.calls.map((c) => [c.name, c.raw])).toEqual([["read_file", '{"path": "a.txt"}']]);
  });
});

describe("OpenAI-compatible reasoning, recorded (deepseek-reasoner)", () => {
  const sse = chunksAsSSE(deepseekToolCall);

  it("streams reasoning_content as reasoning, never as text, and argument deltas that join to the arguments", async () => {
    const { turn, deltas } = await readWith(openaiWire.readStream, sse, 13);
    const reasoning = joined(deltas, "reasoning");
    expect(reasoning.length).toBeGreaterThan(20);
    expect(turn.text).toBe("");
    expect(joined(deltas, "text")).toBe("");
    const [call] = turn.calls;
    expect(call).toBeDefined();
    expect(joined(deltas, "tool_input", call!.id)).toBe(call!.raw);
    expect(call!.raw.length).toBeGreaterThan(2);
    // the assistant message keeps the reasoning under the field it came in, to go back as DeepSeek asks
    expect((turn.message as { reasoning_content?: string }).reasoning_content).toBe(reasoning);
  });

  it("sends the assistant turn back with its reasoning_content on the request after the tool ran", async () => {
    const { turn } = await readWith(openaiWire.readStream, sse);
    const tool = defineTool({ name: turn.calls[0]!.name, description: "t", execute: () => "ok" });
    const played = replay([{ body: sse }, { body: FINAL_OPENAI_SSE }]);
    const events = await streamed(createClient({ ...OPENAI, fetch: played.fetch }), "go", { toolkit: [tool] });
    const sent = (played.bodies[1]!.messages as Record<string, unknown>[]).find((m) => m.role === "assistant");
    expect(sent?.reasoning_content).toBe(joined(events, "reasoning"));
    expect(sent?.tool_calls).toEqual((turn.message as { tool_calls: unknown }).tool_calls);
    const done = events.at(-1);
    expect(done?.type === "done" && done.result.text).toBe("Done.");
  });

  it("a non-streamed reply: the answer is the text, the reasoning stays in the transcript", async () => {
    const played = replay([{ body: deepseekReasoning }]);
    const result = await createClient({ ...OPENAI, fetch: played.fetch }).run("How many r's in strawberry?");
    const reply = JSON.parse(deepseekReasoning).choices[0].message;
    expect(result.text).toBe(reply.content);
    expect(result.messages.at(-1)).toEqual(reply);
  });

  it("a stream answered with one JSON reply yields its reasoning as one reasoning event, then its text", async () => {
    const json = JSON.parse(deepseekReasoning);
    const fetch = (async () =>
      ({
        ok: true,
        status: 200,
        headers: new Headers({ "content-type": "application/json" }),
        body: null,
        json: async () => json,
      }) as unknown as Response) as unknown as typeof globalThis.fetch;
    const events = await streamed(createClient({ ...OPENAI, fetch }), "How many r's?");
    const deltas = events.filter((e) => e.type === "reasoning" || e.type === "text");
    expect(deltas).toEqual([
      { type: "reasoning", delta: json.choices[0].message.reasoning_content },
      { type: "text", delta: json.choices[0].message.content },
    ]);
  });
});

describe("Anthropic, recorded", () => {
  it("thinking streams as reasoning; the block keeps its signature, as the non-streamed reply has it", async () => {
    const sse = chunksAsSSE(thinkingChunks, true);
    const { turn, deltas } = await readWith(anthropicWire.readStream, sse, 11);
    const reasoning = joined(deltas, "reasoning");
    expect(reasoning).toBe("The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185");
    expect(turn.text).toBe("925 ÷ 5 = 185");
    expect(joined(deltas, "text")).toBe(turn.text);
    const [thinking] = (turn.message as { content: Record<string, unknown>[] }).content;
    expect(Object.keys(thinking!)).toEqual(Object.keys(JSON.parse(thinkingJson).content[0]));
    expect(thinking).toEqual({ type: "thinking", thinking: reasoning, signature: expect.stringMatching(/^EvQBCkYI/) });
  });

  it("a non-streamed thinking reply: text is the answer, reasoning is the thinking, the block unchanged", () => {
    const json = JSON.parse(thinkingJson);
    const turn = anthropicWire.parse(json);
    expect(turn.text).toBe("925 ÷ 5 = 185");
    expect(turn.reasoning).toBe("925 divided by 5 = 185");
    expect((turn.message as { content: unknown[] }).content[0]).toEqual(json.content[0]);
  });

  it("input_json_delta pieces are tool_input events; joined, they are the call's arguments", async () => {
    const sse = chunksAsSSE(inputJsonDelta, true);
    const { turn, deltas } = await readWith(anthropicWire.readStream, sse, 5);
    const [call] = turn.calls;
    expect(call?.id).toBe("toolu_01KFbKqPYSuAKujiL6mTfzYA");
    const inputs = deltas.filter((d) => d.type === "tool_input");
    expect(inputs.every((d) => d.type === "tool_input" && d.id === call!.id && d.name === "json")).toBe(true);
    expect(joined(deltas, "tool_input")).toBe(call!.raw);
    expect(JSON.parse(call!.raw).elements[0].location).toBe("San Francisco");
  });

  it("a call with no arguments streams no tool_input (its one delta is empty) and its arguments are {}", async () => {
    const sse = chunksAsSSE(toolNoArgs, true);
    const { turn, deltas } = await readWith(anthropicWire.readStream, sse);
    expect(deltas.filter((d) => d.type === "tool_input")).toEqual([]);
    expect(turn.calls.map((c) => [c.name, c.args])).toEqual([["updateIssueList", {}]]);
  });

  it("the signed thinking block goes back unchanged on the next request", async () => {
    const events = chunksAsSSE(thinkingChunks, true);
    const played = replay([{ body: events }, { body: FINAL_ANTHROPIC }]);
    const client = createClient({ ...ANTHROPIC, fetch: played.fetch });
    const done = (await streamed(client, "925 / 5?")).at(-1);
    if (done?.type !== "done") throw new Error("the stream did not finish");
    const first = done.result;
    const next = await client.run("and then?", { history: first.messages });
    expect(next.text).toBe("Done.");
    const block = (first.messages.at(-1) as { content: unknown[] }).content[0];
    expect(played.raw[1]).toContain(JSON.stringify(block));
  });
});
