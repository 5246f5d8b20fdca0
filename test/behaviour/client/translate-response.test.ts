// translate: either provider's response back to one result, a round trip through both, and images and files.
// Pure; nothing is executed.
import { describe, expect, it } from "vitest";
import { openAIMessagesToAnthropic, StreamError, translateBody, translateResponse } from "../../support/internals";
import { anthropicWire, openaiWire } from "../../support/wire-internals";
import { countingToolkit } from "../../support/translate";

describe("translateResponse: openai", () => {
  const response = (
    message: unknown,
    finish_reason: unknown = "stop",
    usage: unknown = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  ) => ({
    model: "gpt-x-2025",
    choices: [{ index: 0, message, finish_reason }],
    usage,
  });

  it("keeps parallel calls in provider order with their text and argument strings byte for byte", () => {
    const json = response(
      {
        role: "assistant",
        content: "On it.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "weather", arguments: '{ "city":"Paris" }' } },
          { id: "c2", type: "function", function: { name: "lookup", arguments: '{"q":"tea"}' } },
        ],
      },
      "tool_calls",
    );
    const out = translateResponse(openaiWire, "gpt-x", json);
    expect(out).toEqual({
      text: "On it.",
      toolCalls: [
        { id: "c1", name: "weather", arguments: '{ "city":"Paris" }' },
        { id: "c2", name: "lookup", arguments: '{"q":"tea"}' },
      ],
      finishReason: "tool_calls",
      usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 },
      model: "gpt-x",
      raw: json,
    });
    expect(out.raw).toBe(json);
  });

  for (const [reason, mapped] of [
    ["stop", "stop"],
    ["length", "length"],
    ["content_filter", "content_filter"],
    ["tool_calls", "stop"], // claimed but no call present
    [null, "stop"],
    ["something_new", "stop"],
  ] as const) {
    it(`maps finish_reason ${JSON.stringify(reason)} without calls to "${mapped}"`, () => {
      expect(
        translateResponse(openaiWire, "m", response({ role: "assistant", content: "x" }, reason)).finishReason,
      ).toBe(mapped);
    });
  }

  it("a refusal is content_filter and its text is kept", () => {
    const out = translateResponse(
      openaiWire,
      "m",
      response({ role: "assistant", content: null, refusal: "I can't help with that." }, "stop"),
    );
    expect(out).toMatchObject({ text: "I can't help with that.", finishReason: "content_filter" });
  });

  it("derives total tokens when missing and reads no usage as zeros", () => {
    expect(
      translateResponse(openaiWire, "m", response({ content: "x" }, "stop", { prompt_tokens: 2, completion_tokens: 4 }))
        .usage,
    ).toEqual({ promptTokens: 2, completionTokens: 4, totalTokens: 6 });
    expect(translateResponse(openaiWire, "m", response({ content: "x" }, "stop", null)).usage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
    });
  });

  it("an unusable response is a StreamError that carries no credential", () => {
    expect(() => translateResponse(openaiWire, "m", { choices: [] })).toThrow(StreamError);
    const echoed = { error: { message: "Incorrect API key provided: sk-proj-SECRET1234" } };
    expect(() => translateResponse(openaiWire, "m", echoed)).toThrow(/Incorrect API key provided/);
    expect(() => translateResponse(openaiWire, "m", echoed)).not.toThrow(/SECRET1234/);
  });
});

describe("translateResponse: anthropic", () => {
  const message = (content: unknown[], stop_reason: string) => ({
    id: "msg_1",
    model: "claude-x-2025",
    content,
    stop_reason,
    usage: { input_tokens: 11, output_tokens: 7 },
  });

  it("turns tool_use into OpenAI tool calls, joins text, sums usage", () => {
    const json = message(
      [
        { type: "text", text: "Let me " },
        { type: "text", text: "check." },
        { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
        { type: "tool_use", id: "toolu_2", name: "lookup" },
      ],
      "tool_use",
    );
    expect(translateResponse(anthropicWire, "claude-x", json)).toEqual({
      text: "Let me check.",
      toolCalls: [
        { id: "toolu_1", name: "weather", arguments: '{"city":"Paris"}' },
        { id: "toolu_2", name: "lookup", arguments: "{}" },
      ],
      finishReason: "tool_calls",
      usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 },
      model: "claude-x",
      raw: json,
    });
  });

  for (const [reason, mapped] of [
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["max_tokens", "length"],
    ["refusal", "content_filter"],
    ["tool_use", "stop"], // claimed but no tool_use block
  ] as const) {
    it(`maps stop_reason "${reason}" without calls to "${mapped}"`, () => {
      expect(translateResponse(anthropicWire, "c", message([{ type: "text", text: "x" }], reason)).finishReason).toBe(
        mapped,
      );
    });
  }

  it("an unusable response is a StreamError", () => {
    expect(() =>
      translateResponse(anthropicWire, "c", {
        type: "error",
        error: { type: "overloaded_error", message: "Overloaded" },
      }),
    ).toThrow(StreamError);
  });
});

describe("translate round trip", () => {
  it("a multi-turn exchange survives Anthropic → OpenAI result → Anthropic body, and nothing is executed", () => {
    const { toolkit, state } = countingToolkit();
    const first = translateResponse(anthropicWire, "c", {
      content: [
        { type: "text", text: "Both." },
        { type: "tool_use", id: "t1", name: "lookup", input: { q: "tea" } },
        { type: "tool_use", id: "t2", name: "lookup", input: { q: "coffee" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const history = [
      { role: "user", content: "tea and coffee?" },
      {
        role: "assistant",
        content: first.text,
        tool_calls: first.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      },
      { role: "tool", tool_call_id: "t1", content: "leaves" },
      { role: "tool", tool_call_id: "t2", content: "beans" },
    ];
    const body = translateBody(anthropicWire, "c", undefined, { messages: history, toolkit });
    expect(body.messages).toEqual([
      { role: "user", content: "tea and coffee?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Both." },
          { type: "tool_use", id: "t1", name: "lookup", input: { q: "tea" } },
          { type: "tool_use", id: "t2", name: "lookup", input: { q: "coffee" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "leaves" },
          { type: "tool_result", tool_use_id: "t2", content: "beans" },
        ],
      },
    ]);
    expect(state.executed).toBe(0);
  });
});

describe("translate: images and files", () => {
  const PNG = "iVBORw0KGgo=";
  const PDF = "JVBERi0xLjQK";

  it("OpenAI chat parts go to Anthropic as image and document blocks, in order, beside their text", () => {
    const content = [
      { type: "text", text: "Compare:" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "image_url", image_url: { url: "https://example.com/b.jpg", detail: "low" } },
      { type: "file", file: { filename: "r.pdf", file_data: `data:application/pdf;base64,${PDF}` } },
      { type: "image", data: PNG, mediaType: "image/png" },
    ];
    const { messages } = openAIMessagesToAnthropic([{ role: "user", content }]);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Compare:" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          { type: "image", source: { type: "url", url: "https://example.com/b.jpg" } },
          { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "r.pdf" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        ],
      },
    ]);
  });

  it("neutral parts go to OpenAI in its own shape; OpenAI's own parts pass unchanged", () => {
    const own = { type: "image_url", image_url: { url: "https://example.com/a.png" } };
    const body = translateBody(openaiWire, "m", undefined, {
      messages: [{ role: "user", content: [{ type: "file", data: PDF, mediaType: "application/pdf" }, own] }],
    });
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [{ type: "file", file: { filename: "file", file_data: `data:application/pdf;base64,${PDF}` } }, own],
      },
    ]);
  });

  it("a bad neutral part is a ConfigError naming it", () => {
    expect(() =>
      translateBody(anthropicWire, "m", undefined, {
        messages: [{ role: "user", content: [{ type: "image", mediaType: "image/png" }] }],
      }),
    ).toThrow("messages[0].content[0]");
  });
});
