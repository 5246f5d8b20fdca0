// The Anthropic Messages wire: request shape, JSON replies, streamed replies.
import { describe, expect, it } from "vitest";
import type { Toolkit } from "toolnexus";
import { anthropicWire as wire, type ToolCall } from "../../support/wire-internals";
import { anthropicSSE, everySplit, streamOf } from "../../support/wire-streams";

const STREAM_ERROR = { name: "StreamError", code: "stream" };
const weather = { name: "weather", description: "Weather", input_schema: { type: "object" } };
const toolkit = { toOpenAI: () => [], toAnthropic: () => [weather] } as unknown as Toolkit;

async function read(text: string, size?: number) {
  const deltas: string[] = [];
  const turn = await wire.readStream(streamOf(text, size), (d) => d.type === "text" && deltas.push(d.delta));
  return { turn, deltas };
}

describe("anthropicWire requests", () => {
  it("posts to /v1/messages, or /messages when the base already ends in /v1", () => {
    expect(wire.url("https://api.anthropic.com")).toBe("https://api.anthropic.com/v1/messages");
    expect(wire.url("https://api.anthropic.com/")).toBe("https://api.anthropic.com/v1/messages");
    expect(wire.url("https://proxy.example/anthropic/v1")).toBe("https://proxy.example/anthropic/v1/messages");
    expect(wire.url("https://proxy.example/anthropic/v1/")).toBe("https://proxy.example/anthropic/v1/messages");
  });

  it("sends x-api-key only when there is a key, and always the API version", () => {
    expect(wire.headers("k-1")).toEqual({
      "x-api-key": "k-1",
      "anthropic-version": "2023-06-01",
      "Content-Type": "application/json",
    });
    expect(wire.headers(undefined)).toEqual({ "anthropic-version": "2023-06-01", "Content-Type": "application/json" });
  });

  it("appends the user turn to the history and keeps the system prompt out of the messages", () => {
    const history = [
      { role: "user", content: "a" },
      { role: "assistant", content: [{ type: "text", text: "b" }] },
    ];
    expect(wire.start("Be brief.", history, "c")).toEqual([...history, { role: "user", content: "c" }]);
    expect(wire.start("Be brief.", [], "Hi")).toEqual([{ role: "user", content: "Hi" }]);
    expect(history).toHaveLength(2);
  });

  it("builds { model, max_tokens, system?, messages, tools?, stream? } in that order", () => {
    const messages = [{ role: "user", content: "Hi" }];
    const full = wire.body({ model: "claude", system: "Be brief.", messages, tools: [weather], stream: true });
    expect(Object.keys(full)).toEqual(["model", "max_tokens", "system", "messages", "tools", "stream"]);
    expect(full).toEqual({
      model: "claude",
      max_tokens: 4096,
      system: "Be brief.",
      messages,
      tools: [weather],
      stream: true,
    });
    const bare = wire.body({ model: "claude", system: "", messages, tools: [], stream: false });
    expect(bare).toEqual({ model: "claude", max_tokens: 4096, messages });
    expect(Object.keys(bare)).toEqual(["model", "max_tokens", "messages"]);
  });

  it("declares the toolkit's Anthropic tools, or none", () => {
    expect(wire.declare(toolkit)).toEqual([weather]);
    expect(wire.declare(undefined)).toEqual([]);
  });

  it("sends all of a turn's results in ONE user message, in call order", () => {
    const call = (id: string): ToolCall => ({ id, name: "weather", args: {}, raw: "{}" });
    expect(
      wire.results([
        { call: call("tu_1"), result: { output: "sunny", isError: false } },
        { call: call("tu_2"), result: { output: "boom", isError: true } },
      ]),
    ).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "tu_1", content: "sunny", is_error: false },
          { type: "tool_result", tool_use_id: "tu_2", content: "boom", is_error: true },
        ],
      },
    ]);
    expect(wire.results([])).toEqual([]);
  });
});

describe("anthropicWire.parse", () => {
  it("wraps content as the assistant message and reads text, tool_use calls, usage and stop reason", () => {
    const content = [
      { type: "text", text: "Checking " },
      { type: "tool_use", id: "tu_1", name: "weather", input: { city: "Paris" } },
      { type: "text", text: "now." },
    ];
    const turn = wire.parse({
      id: "msg_1",
      type: "message",
      role: "assistant",
      content,
      stop_reason: "tool_use",
      usage: { input_tokens: 20, output_tokens: 9 },
    });
    expect(turn.message).toEqual({ role: "assistant", content });
    expect(turn.text).toBe("Checking now.");
    expect(turn.calls).toEqual([{ id: "tu_1", name: "weather", args: { city: "Paris" }, raw: '{"city":"Paris"}' }]);
    expect(turn.usage).toEqual({ promptTokens: 20, completionTokens: 9, totalTokens: 29 });
    expect(turn.finishReason).toBe("tool_use");
  });

  it("reads a missing input as {} and a non-object input as an argsError", () => {
    const turn = wire.parse({
      content: [
        { type: "tool_use", id: "a", name: "t" },
        { type: "tool_use", id: "b", name: "t", input: [1] },
      ],
    });
    expect(turn.calls[0]).toEqual({ id: "a", name: "t", args: {}, raw: "{}" });
    expect(turn.calls[1]).toMatchObject({
      args: {},
      argsError: "Invalid arguments for t: not a JSON object: got array",
    });
    expect(turn.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });

  it("throws StreamError for an error reply or one without a content array", () => {
    const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    expect(() => wire.parse(overloaded)).toThrow("Overloaded");
    expect(() => wire.parse(overloaded)).toThrow(expect.objectContaining(STREAM_ERROR));
    expect(() => wire.parse({ choices: [] })).toThrow("no content array");
  });
});

// A realistic stream: text, then a tool_use whose input arrives in JSON pieces, then the stop.
const EVENTS = [
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [],
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "ping" },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me " } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "check é🙂." } },
  { type: "content_block_stop", index: 0 },
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "tu_1", name: "weather", input: {} },
  },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city": "Pa' } },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: 'ris"}' } },
  { type: "content_block_stop", index: 1 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 42 } },
  { type: "message_stop" },
];

const EXPECTED_MESSAGE = {
  role: "assistant",
  content: [
    { type: "text", text: "Let me check é🙂." },
    { type: "tool_use", id: "tu_1", name: "weather", input: { city: "Paris" } },
  ],
};

describe("anthropicWire.readStream", () => {
  it("forwards text deltas and rebuilds the content blocks", async () => {
    const { turn, deltas } = await read(anthropicSSE(EVENTS));
    expect(deltas).toEqual(["Let me ", "check é🙂."]);
    expect(turn.message).toEqual(EXPECTED_MESSAGE);
    expect(turn.text).toBe("Let me check é🙂.");
    expect(turn.calls).toEqual([{ id: "tu_1", name: "weather", args: { city: "Paris" }, raw: '{"city": "Paris"}' }]);
    expect(turn.finishReason).toBe("tool_use");
  });

  it("takes input tokens from message_start and the cumulative output count from message_delta", async () => {
    const { turn } = await read(anthropicSSE(EVENTS));
    expect(turn.usage).toEqual({ promptTokens: 25, completionTokens: 42, totalTokens: 67 });
    const withInput = EVENTS.map((e) =>
      e.type === "message_delta" ? { ...e, usage: { input_tokens: 25, output_tokens: 42 } } : e,
    );
    expect((await read(anthropicSSE(withInput))).turn.usage).toEqual({
      promptTokens: 25,
      completionTokens: 42,
      totalTokens: 67,
    });
  });

  it("rebuilds the same turn at every split point of the byte stream", async () => {
    const text = anthropicSSE(EVENTS.slice(1, 5).concat([{ type: "message_stop" }] as typeof EVENTS));
    for (const { at, stream } of everySplit(text)) {
      const deltas: string[] = [];
      const turn = await wire.readStream(stream(), (d) => d.type === "text" && deltas.push(d.delta));
      expect({ at, text: turn.text, deltas: deltas.join("") }).toEqual({
        at,
        text: "Let me check é🙂.",
        deltas: "Let me check é🙂.",
      });
    }
  });

  it("keeps a tool_use with no input deltas as its start input", async () => {
    const events = [
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "tu_0", name: "now", input: {} },
      },
      { type: "content_block_stop", index: 0 },
      { type: "message_stop" },
    ];
    const { turn } = await read(anthropicSSE(events));
    expect(turn.calls).toEqual([{ id: "tu_0", name: "now", args: {}, raw: "{}" }]);
    expect(turn.message).toEqual({
      role: "assistant",
      content: [{ type: "tool_use", id: "tu_0", name: "now", input: {} }],
    });
  });

  it("keeps thinking blocks with their signature, as the API needs them back", async () => {
    const events = [
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Hmm, " } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "weather." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig==" } },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Sunny." } },
      { type: "message_stop" },
    ];
    const { turn, deltas } = await read(anthropicSSE(events));
    expect(deltas).toEqual(["Sunny."]);
    expect(turn.message).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Hmm, weather.", signature: "sig==" },
        { type: "text", text: "Sunny." },
      ],
    });
  });

  it("marks tool input JSON that does not parse with argsError and sends {} back", async () => {
    const events = [
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "tu_1", name: "weather", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city": "Pa' } },
      { type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 5 } },
      { type: "message_stop" },
    ];
    const { turn } = await read(anthropicSSE(events));
    expect(turn.calls[0]).toMatchObject({ id: "tu_1", args: {}, raw: '{"city": "Pa' });
    expect(turn.calls[0]?.argsError).toMatch(/^Invalid arguments for weather: not a JSON object: /);
    expect(turn.message).toEqual({
      role: "assistant",
      content: [{ type: "tool_use", id: "tu_1", name: "weather", input: {} }],
    });
    expect(turn.finishReason).toBe("max_tokens");
  });

  it("throws StreamError when the stream ends before message_stop", async () => {
    const cut = anthropicSSE(EVENTS.slice(0, 9)); // mid tool input
    await expect(read(cut)).rejects.toMatchObject(STREAM_ERROR);
    await expect(read(cut)).rejects.toThrow("message_stop");
  });

  it("counts a message_stop whose closing blank line never came", async () => {
    const text = `${anthropicSSE(EVENTS.slice(0, -1))}event: message_stop\ndata: {"type":"message_stop"}`;
    expect((await read(text)).turn.message).toEqual(EXPECTED_MESSAGE);
  });

  it("throws StreamError with the provider's message for an error event", async () => {
    const text = anthropicSSE([
      EVENTS[0]!,
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } as (typeof EVENTS)[number],
    ]);
    await expect(read(text)).rejects.toMatchObject(STREAM_ERROR);
    await expect(read(text)).rejects.toThrow("Overloaded");
  });

  it("throws StreamError for a body that is not an event stream", async () => {
    await expect(read(JSON.stringify({ content: [] }))).rejects.toThrow("no server-sent events");
  });
});
