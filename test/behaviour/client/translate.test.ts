// translate: OpenAI-shaped requests to either provider's body (and OpenAI messages to Anthropic's), and the
// styles it speaks. Pure; nothing is executed. The responses coming back are in translate-response.test.ts.
import { describe, expect, it } from "vitest";
import { createClient } from "toolnexus";
import { openAIMessagesToAnthropic, translateBody } from "../../support/internals";
import { anthropicWire, openaiWire } from "../../support/wire-internals";
import { countingToolkit, schema, transcript, weatherFn } from "../../support/translate";

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
