// translate: OpenAI-shaped requests to either
// provider's body, and either provider's response back to one result. Pure; nothing is executed.
import { describe, expect, it } from "vitest";
import { createClient, type Tool, type Toolkit } from "toolnexus";
import { toolCtx } from "../support/tool-context";
import { openAIMessagesToAnthropic, StreamError, translateBody, translateResponse } from "../support/internals";
import { anthropicWire, openaiWire } from "../support/wire-internals";

const schema = { type: "object" as const, properties: { q: { type: "string" } }, required: ["q"] };

/** A toolkit with one tool, `lookup`, that counts executions (translate must never execute). */
function countingToolkit() {
  const state = { executed: 0 };
  const tool: Tool = {
    name: "lookup",
    description: "Look something up",
    inputSchema: schema,
    source: "native",
    execute: async () => (state.executed++, { output: "ran", isError: false }),
  };
  const toolkit: Toolkit = {
    tools: () => [tool],
    get: (n) => (n === tool.name ? tool : undefined),
    execute: (_n, a, c) => tool.execute(a, toolCtx(c)),
    toOpenAI: () => [
      { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } },
    ],
    toAnthropic: () => [{ name: tool.name, description: tool.description, input_schema: tool.inputSchema }],
    toGemini: () => [
      { functionDeclarations: [{ name: tool.name, description: tool.description, parameters: tool.inputSchema }] },
    ],
  };
  return { toolkit, tool, state };
}

const weatherFn = {
  type: "function",
  function: {
    name: "weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

/** A multi-turn OpenAI transcript with parallel calls, mixed argument forms and merged tool results. */
const transcript = [
  { role: "system", content: "Be brief." },
  {
    role: "developer",
    content: [
      { type: "text", text: "Use " },
      { type: "text", text: "tools." },
    ],
  },
  { role: "user", content: "Weather in Paris and Rome? Also look up tea." },
  {
    role: "assistant",
    content: "Checking.",
    tool_calls: [
      { id: "c1", type: "function", function: { name: "weather", arguments: '{"city": "Paris"}' } },
      { id: "c2", type: "function", function: { name: "weather", arguments: { city: "Rome" } } },
      { id: "c3", type: "function", function: { name: "lookup", arguments: "{not json" } },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "18C" },
  { role: "tool", tool_call_id: "c2", content: [{ type: "text", text: "21C" }] },
  { role: "tool", tool_call_id: "c3", content: "tea is a drink" },
  { role: "assistant", content: "" },
  { role: "user", content: [{ type: "text", text: "Thanks" }] },
];

describe("openAIMessagesToAnthropic", () => {
  it("hoists system/developer, keeps every call and result, merges consecutive results into one user turn", () => {
    const input = JSON.parse(JSON.stringify(transcript));
    const out = openAIMessagesToAnthropic(input);
    expect(out.system).toBe("Be brief.\n\nUse tools.");
    expect(out.messages).toEqual([
      { role: "user", content: "Weather in Paris and Rome? Also look up tea." },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "c1", name: "weather", input: { city: "Paris" } },
          { type: "tool_use", id: "c2", name: "weather", input: { city: "Rome" } },
          { type: "tool_use", id: "c3", name: "lookup", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "18C" },
          { type: "tool_result", tool_use_id: "c2", content: "21C" },
          { type: "tool_result", tool_use_id: "c3", content: "tea is a drink" },
        ],
      },
      { role: "user", content: "Thanks" },
    ]);
    expect(input).toEqual(JSON.parse(JSON.stringify(transcript))); // the caller's messages are untouched
  });

  it("accepts non-object argument JSON as {} and keeps tool-only assistant turns", () => {
    const out = openAIMessagesToAnthropic([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "x", type: "function", function: { name: "f", arguments: "[1,2]" } }],
      },
      { role: "tool", tool_call_id: "x", content: "ok" },
    ]);
    expect(out).toEqual({
      system: "",
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: "x", name: "f", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "ok" }] },
      ],
    });
  });

  it("keeps a result turn separate from results of a later assistant turn", () => {
    const out = openAIMessagesToAnthropic([
      { role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: "1" },
      { role: "assistant", tool_calls: [{ id: "b", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "b", content: "2" },
    ]);
    expect(out.messages).toHaveLength(4);
    expect(out.messages[3]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "b", content: "2" }],
    });
  });
});

describe("translateBody: openai", () => {
  it("a plain request carries only model and messages; systemPrompt is prepended when the conversation has none", () => {
    const body = translateBody(openaiWire, "gpt-x", "You help.", { messages: [{ role: "user", content: "hi" }] });
    expect(Object.keys(body)).toEqual(["model", "messages"]);
    expect(body.messages).toEqual([
      { role: "system", content: "You help." },
      { role: "user", content: "hi" },
    ]);
  });

  it("keeps the conversation's own system message over systemPrompt", () => {
    const messages = [
      { role: "system", content: "Mine." },
      { role: "user", content: "hi" },
    ];
    expect(translateBody(openaiWire, "gpt-x", "Default.", { messages }).messages).toEqual(messages);
  });

  it("req.system replaces every system/developer message", () => {
    const body = translateBody(openaiWire, "gpt-x", "Default.", {
      system: "Override.",
      messages: [
        { role: "system", content: "Old." },
        { role: "developer", content: "Older." },
        { role: "user", content: "hi" },
      ],
    });
    expect(body.messages).toEqual([
      { role: "system", content: "Override." },
      { role: "user", content: "hi" },
    ]);
  });

  it("declares toolkit then tools, passes tool_choice verbatim and a positive maxTokens, in key order", () => {
    const { toolkit } = countingToolkit();
    const body = translateBody(openaiWire, "gpt-x", undefined, {
      messages: [],
      toolkit,
      tools: [weatherFn],
      toolChoice: { type: "function", function: { name: "weather" } },
      maxTokens: 64,
    });
    expect(Object.keys(body)).toEqual(["model", "messages", "tools", "tool_choice", "max_tokens"]);
    expect(body.tools).toEqual([...toolkit.toOpenAI(), weatherFn]);
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "weather" } });
    expect(body.max_tokens).toBe(64);
    expect(translateBody(openaiWire, "gpt-x", undefined, { messages: [], maxTokens: 0 })).not.toHaveProperty(
      "max_tokens",
    );
  });

  it("accepts a plain Tool[] as the toolkit", () => {
    const { tool, toolkit } = countingToolkit();
    expect(translateBody(openaiWire, "m", undefined, { messages: [], toolkit: [tool] }).tools).toEqual(
      toolkit.toOpenAI(),
    );
  });

  it("passes string arguments byte for byte and stringifies object arguments", () => {
    const input = JSON.parse(JSON.stringify(transcript));
    const body = translateBody(openaiWire, "gpt-x", undefined, { messages: input });
    const calls = (body.messages as { tool_calls?: { function: { arguments: unknown } }[] }[])[3]!.tool_calls!;
    expect(calls.map((c) => c.function.arguments)).toEqual(['{"city": "Paris"}', '{"city":"Rome"}', "{not json"]);
    expect(input[3].tool_calls[1].function.arguments).toEqual({ city: "Rome" }); // not mutated
  });

  it("refuses messages that are not an array", () => {
    // by code and text: in Deno the internals and the package are two copies, so instanceof would not match
    let error: unknown;
    try {
      translateBody(openaiWire, "m", undefined, { messages: "hi" as unknown as unknown[] });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).toBe("config");
    expect((error as Error).message).toContain('translate needs messages as an array, got "hi"');
  });
});

describe("translateBody: anthropic", () => {
  it("converts the transcript, hoists the system and defaults max_tokens to 4096", () => {
    const body = translateBody(anthropicWire, "claude-x", undefined, { messages: transcript });
    expect(Object.keys(body)).toEqual(["model", "max_tokens", "system", "messages"]);
    expect(body).toMatchObject({ model: "claude-x", max_tokens: 4096, system: "Be brief.\n\nUse tools." });
    expect(body.messages).toEqual(openAIMessagesToAnthropic(transcript).messages);
  });

  it("system precedence: req.system, then the conversation's, then systemPrompt; none ⇒ no key", () => {
    const withSystem = [
      { role: "system", content: "Conv." },
      { role: "user", content: "hi" },
    ];
    const plain = [{ role: "user", content: "hi" }];
    expect(translateBody(anthropicWire, "c", "Default.", { messages: withSystem, system: "Req." }).system).toBe("Req.");
    expect(translateBody(anthropicWire, "c", "Default.", { messages: withSystem }).system).toBe("Conv.");
    expect(translateBody(anthropicWire, "c", "Default.", { messages: plain }).system).toBe("Default.");
    expect(translateBody(anthropicWire, "c", undefined, { messages: plain })).not.toHaveProperty("system");
  });

  it("declares the toolkit natively and converts OpenAI function tools; native entries pass through", () => {
    const { toolkit, state } = countingToolkit();
    const native = { name: "calc", description: "math", input_schema: { type: "object", properties: {} } };
    const bare = { type: "function", function: { name: "ping" } };
    const body = translateBody(anthropicWire, "c", undefined, {
      messages: [],
      toolkit,
      tools: [weatherFn, native, bare],
      maxTokens: 100,
    });
    expect(body.max_tokens).toBe(100);
    expect(body.tools).toEqual([
      { name: "lookup", description: "Look something up", input_schema: schema },
      { name: "weather", description: "Weather for a city", input_schema: weatherFn.function.parameters },
      native,
      { name: "ping", input_schema: { type: "object", properties: {} } },
    ]);
    expect(state.executed).toBe(0);
  });

  for (const [choice, mapped] of [
    ["required", { type: "any" }],
    ["any", { type: "any" }],
    ["none", { type: "none" }],
    [
      { type: "function", function: { name: "weather" } },
      { type: "tool", name: "weather" },
    ],
    [
      { type: "tool", name: "calc" },
      { type: "tool", name: "calc" },
    ],
    ["auto", undefined],
    [undefined, undefined],
    ["sometimes", undefined],
  ] as const) {
    it(`maps tool_choice ${JSON.stringify(choice)} to ${JSON.stringify(mapped)}`, () => {
      const body = translateBody(anthropicWire, "c", undefined, {
        messages: [],
        tools: [weatherFn],
        toolChoice: choice,
      });
      if (mapped === undefined) expect(body).not.toHaveProperty("tool_choice");
      else expect(body.tool_choice).toEqual(mapped);
    });
  }
});

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

describe("translate: the styles it speaks", () => {
  for (const style of ["openai-responses", "gemini"] as const) {
    it(`a ${style} client refuses with a ConfigError and sends nothing`, async () => {
      let sent = 0;
      const client = createClient({
        style,
        model: "m",
        apiKey: "k",
        baseUrl: "https://llm.test/v1",
        fetch: async () => (sent++, new Response("{}")),
      });
      const error = await client.translate({ messages: [{ role: "user", content: "hi" }] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as { code?: string }).code).toBe("config");
      expect((error as Error).message).toContain(`not "${style}"`);
      expect(sent).toBe(0);
    });
  }
});
