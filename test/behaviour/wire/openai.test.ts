// The OpenAI chat-completions wire: request shape, JSON replies, streamed replies.
import { describe, expect, it } from "vitest";
import type { Toolkit } from "toolnexus";
import { openaiWire as wire, type ToolCall } from "../../support/wire-internals";
import { everySplit, openaiSSE, streamOf } from "../../support/wire-streams";

const STREAM_ERROR = { name: "StreamError", code: "stream" };
const weather = {
  type: "function",
  function: { name: "weather", description: "Weather", parameters: { type: "object" } },
};
const toolkit = { toOpenAI: () => [weather], toAnthropic: () => [] } as unknown as Toolkit;

async function read(text: string, size?: number) {
  const deltas: string[] = [];
  const turn = await wire.readStream(streamOf(text, size), (d) => d.type === "text" && deltas.push(d.delta));
  return { turn, deltas };
}

describe("openaiWire requests", () => {
  it("posts to <baseUrl>/chat/completions, stripping one trailing slash", () => {
    expect(wire.url("https://api.openai.com/v1")).toBe("https://api.openai.com/v1/chat/completions");
    expect(wire.url("http://127.0.0.1:8080/v1/")).toBe("http://127.0.0.1:8080/v1/chat/completions");
  });

  it("sends a bearer key only when there is one", () => {
    expect(wire.headers("sk-test")).toEqual({ Authorization: "Bearer sk-test", "Content-Type": "application/json" });
    expect(wire.headers(undefined)).toEqual({ "Content-Type": "application/json" });
  });

  it("starts with the system prompt, or with a copy of the history and no new system message", () => {
    expect(wire.start("Be brief.", [], "Hi")).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
    expect(wire.start("", [], "Hi")).toEqual([{ role: "user", content: "Hi" }]);
    const history = [
      { role: "system", content: "old" },
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
    ];
    const messages = wire.start("Be brief.", history, "c");
    expect(messages).toEqual([...history, { role: "user", content: "c" }]);
    expect(history).toHaveLength(3); // the caller's array is untouched
  });

  it("orders body keys model, messages, tools, tool_choice, stream, stream_options and adds tools, tool_choice and stream options only when used", () => {
    const messages = [{ role: "user", content: "Hi" }];
    const full = wire.body({ model: "m", system: "s", messages, tools: [weather], stream: true });
    expect(Object.keys(full)).toEqual(["model", "messages", "tools", "tool_choice", "stream", "stream_options"]);
    expect(full).toEqual({
      model: "m",
      messages,
      tools: [weather],
      tool_choice: "auto",
      stream: true,
      stream_options: { include_usage: true },
    });
    const bare = wire.body({ model: "m", system: "s", messages, tools: [], stream: false });
    expect(bare).toEqual({ model: "m", messages });
    expect(Object.keys(bare)).toEqual(["model", "messages"]);
  });

  it("declares the toolkit's OpenAI tools, or none", () => {
    expect(wire.declare(toolkit)).toEqual([weather]);
    expect(wire.declare(undefined)).toEqual([]);
  });

  it("sends one tool message per outcome, in call order", () => {
    const call = (id: string): ToolCall => ({ id, name: "weather", args: {}, raw: "{}" });
    const out = wire.results([
      { call: call("c1"), result: { output: "sunny", isError: false } },
      { call: call("c2"), result: { output: "boom", isError: true } },
    ]);
    expect(out).toEqual([
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "tool", tool_call_id: "c2", content: "boom" },
    ]);
  });
});

describe("openaiWire.parse", () => {
  it("keeps choices[0].message verbatim and reads text, calls, usage and finish reason", () => {
    const message = {
      role: "assistant",
      content: "Checking.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      refusal: null,
    };
    const turn = wire.parse({
      choices: [{ index: 0, message, finish_reason: "tool_calls" }],
      usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
    });
    expect(turn.message).toBe(message);
    expect(turn.text).toBe("Checking.");
    expect(turn.calls).toEqual([{ id: "call_1", name: "weather", args: { city: "Paris" }, raw: '{"city":"Paris"}' }]);
    expect(turn.usage).toEqual({ promptTokens: 11, completionTokens: 5, totalTokens: 16 });
    expect(turn.finishReason).toBe("tool_calls");
  });

  it("falls back to the sum for a missing total and to 0 for missing counts", () => {
    const reply = (usage: unknown) =>
      wire.parse({ choices: [{ message: { role: "assistant", content: "x" } }], usage }).usage;
    expect(reply({ prompt_tokens: 3, completion_tokens: 2 })).toEqual({
      promptTokens: 3,
      completionTokens: 2,
      totalTokens: 5,
    });
    expect(reply(undefined)).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });

  it("reads null content as no text", () => {
    expect(wire.parse({ choices: [{ message: { role: "assistant", content: null } }] }).text).toBe("");
  });

  it("turns unusable arguments into {} with an argsError for the model, never a throw", () => {
    const turn = wire.parse({
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "a", type: "function", function: { name: "t", arguments: '{"x":' } },
              { id: "b", type: "function", function: { name: "t", arguments: "[1,2]" } },
              { id: "c", type: "function", function: { name: "t", arguments: "" } },
              { id: "d", type: "function", function: { name: "t", arguments: '"text"' } },
            ],
          },
        },
      ],
    });
    const [bad, array, empty, text] = turn.calls;
    expect(bad).toMatchObject({ id: "a", args: {}, raw: '{"x":' });
    expect(bad?.argsError).toMatch(/^Invalid arguments for t: not a JSON object: ./);
    expect(array).toMatchObject({
      args: {},
      raw: "[1,2]",
      argsError: "Invalid arguments for t: not a JSON object: got array",
    });
    expect(empty).toEqual({ id: "c", name: "t", args: {}, raw: "" });
    expect(text?.argsError).toBe("Invalid arguments for t: not a JSON object: got string");
  });

  it("throws StreamError for an error object or a reply without choices[0].message", () => {
    expect(() => wire.parse({ error: { message: "model not found", type: "invalid_request_error" } })).toThrow(
      "model not found",
    );
    expect(() => wire.parse({ error: { message: "x" } })).toThrow(expect.objectContaining(STREAM_ERROR));
    expect(() => wire.parse({ choices: [] })).toThrow(expect.objectContaining(STREAM_ERROR));
    expect(() => wire.parse("<html>")).toThrow("choices[0].message");
  });
});

// A realistic stream: text, two parallel tool calls whose deltas interleave, a usage chunk, [DONE].
const CHUNKS = [
  { choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }], usage: null },
  { choices: [{ index: 0, delta: { content: "Let me " }, finish_reason: null }], usage: null },
  { choices: [{ index: 0, delta: { content: "check é🙂." }, finish_reason: null }], usage: null },
  {
    choices: [
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "wea", arguments: "" } }] },
      },
    ],
  },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: "ther", arguments: '{"ci' } }] } }] },
  {
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "time", arguments: '{"tz":' } }],
        },
      },
    ],
  },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '"CET"}' } }] } }] },
  { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  { choices: [], usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } },
];

const EXPECTED_MESSAGE = {
  role: "assistant",
  content: "Let me check é🙂.",
  tool_calls: [
    { id: "call_a", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
    { id: "call_b", type: "function", function: { name: "time", arguments: '{"tz":"CET"}' } },
  ],
};

describe("openaiWire.readStream", () => {
  it("forwards text deltas and assembles tool calls by index", async () => {
    const { turn, deltas } = await read(openaiSSE(CHUNKS));
    expect(deltas).toEqual(["Let me ", "check é🙂."]);
    expect(turn.message).toEqual(EXPECTED_MESSAGE);
    expect(turn.text).toBe("Let me check é🙂.");
    expect(turn.calls).toEqual([
      { id: "call_a", name: "weather", args: { city: "Paris" }, raw: '{"city":"Paris"}' },
      { id: "call_b", name: "time", args: { tz: "CET" }, raw: '{"tz":"CET"}' },
    ]);
    expect(turn.usage).toEqual({ promptTokens: 20, completionTokens: 9, totalTokens: 29 });
    expect(turn.finishReason).toBe("tool_calls");
  });

  it("assembles the same turn at every split point of the byte stream", async () => {
    const text = openaiSSE(
      CHUNKS.slice(1, 5).concat([{ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }]),
    );
    const whole = await read(text);
    for (const { at, stream } of everySplit(text)) {
      const deltas: string[] = [];
      const turn = await wire.readStream(stream(), (d) => d.type === "text" && deltas.push(d.delta));
      expect({ at, message: turn.message, text: deltas.join("") }).toEqual({
        at,
        message: whole.turn.message,
        text: whole.turn.text,
      });
    }
  });

  it("omits tool_calls and uses null content when the model sent neither", async () => {
    const { turn } = await read(openaiSSE([{ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }]));
    expect(turn.message).toEqual({ role: "assistant", content: null });
    expect(turn.message).not.toHaveProperty("tool_calls");
    expect(turn.calls).toEqual([]);
    expect(turn.text).toBe("");
  });

  it("sums usage chunks", async () => {
    const { turn } = await read(
      openaiSSE([
        { choices: [{ index: 0, delta: { content: "a" } }], usage: { prompt_tokens: 2, completion_tokens: 1 } },
        {
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
          usage: { prompt_tokens: 0, completion_tokens: 4, total_tokens: 4 },
        },
      ]),
    );
    expect(turn.usage).toEqual({ promptTokens: 2, completionTokens: 5, totalTokens: 7 });
  });

  it("throws StreamError when the stream ends with neither [DONE] nor a finish_reason", async () => {
    const cut = openaiSSE(CHUNKS.slice(0, 6), false); // mid tool-call arguments
    await expect(read(cut)).rejects.toMatchObject(STREAM_ERROR);
    await expect(read(cut)).rejects.toThrow("no tool ran on half-received arguments");
  });

  it("accepts a finish_reason without [DONE], and [DONE] without a finish_reason", async () => {
    const finished = await read(
      openaiSSE([{ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }], false),
    );
    expect(finished.turn.text).toBe("ok");
    const done = await read(openaiSSE([{ choices: [{ index: 0, delta: { content: "ok" } }] }]));
    expect(done.turn.text).toBe("ok");
  });

  it("counts a [DONE] whose closing blank line never came", async () => {
    const { turn } = await read(`data: ${JSON.stringify({ choices: [{ delta: { content: "hi" } }] })}\n\ndata: [DONE]`);
    expect(turn.text).toBe("hi");
  });

  it("reads a server that ends events with a single newline", async () => {
    const text = `${CHUNKS.map((c) => `data: ${JSON.stringify(c)}\n`).join("")}data: [DONE]\n`;
    const { turn } = await read(text);
    expect(turn.message).toEqual(EXPECTED_MESSAGE);
  });

  it("skips comments and data that is not JSON", async () => {
    const text = `: OPENROUTER PROCESSING\n\ndata: keep-alive\n\n${openaiSSE(CHUNKS)}`;
    expect((await read(text)).turn.message).toEqual(EXPECTED_MESSAGE);
  });

  it("throws StreamError with the provider's message for an error chunk", async () => {
    const text = openaiSSE([
      { choices: [{ index: 0, delta: { content: "a" } }] },
      { error: { message: "Rate limit reached", type: "tokens" } },
    ]);
    await expect(read(text)).rejects.toMatchObject(STREAM_ERROR);
    await expect(read(text)).rejects.toThrow("Rate limit reached");
  });

  it("throws StreamError for a body that is not an event stream", async () => {
    const json = JSON.stringify({ choices: [{ message: { role: "assistant", content: "hi" } }] });
    await expect(read(json)).rejects.toMatchObject(STREAM_ERROR);
    await expect(read(json)).rejects.toThrow("no server-sent events");
  });

  it("marks streamed arguments that are not a JSON object with argsError", async () => {
    const { turn } = await read(
      openaiSSE([
        {
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, id: "c", function: { name: "t", arguments: '{"a":1' } }] } },
          ],
        },
        { choices: [{ index: 0, delta: {}, finish_reason: "length" }] },
      ]),
    );
    expect(turn.calls[0]).toMatchObject({ id: "c", name: "t", args: {}, raw: '{"a":1' });
    expect(turn.calls[0]?.argsError).toMatch(/^Invalid arguments for t: not a JSON object: /);
    expect(turn.finishReason).toBe("length");
  });
});
