// Images and files in a prompt, in history and in a tool's result, as each wire's request body carries
// them; bad parts are refused before anything is sent; the stored transcript keeps them across a halt.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  pending,
  type ContentPart,
  type ToolResult,
} from "toolnexus";
import { replay } from "../../support/replay";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK";
const OPENAI_DONE = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "A cat." } }] });
const ANTHROPIC_DONE = JSON.stringify({
  type: "message",
  content: [{ type: "text", text: "A cat." }],
  stop_reason: "end_turn",
});
const base = { baseUrl: "http://127.0.0.1:9", model: "m", apiKey: "sk-test", retries: 0 };

const prompt: ContentPart[] = [
  { type: "text", text: "What is in these?" },
  { type: "image", data: PNG, mediaType: "image/png" },
  { type: "image", url: "https://example.com/cat.jpg", mediaType: "image/jpeg" },
  { type: "file", data: PDF, mediaType: "application/pdf", filename: "report.pdf" },
];

function client(style: "openai" | "anthropic", reply: string) {
  const played = replay([{ body: reply }, { body: reply }]);
  return { played, client: createClient({ ...base, style, fetch: played.fetch }) };
}

const lastUser = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)?.content;

describe("a prompt of content parts", () => {
  it("OpenAI Chat: text, image_url (a data URL for inline data, else the URL) and an inline file", async () => {
    const { played, client: c } = client("openai", OPENAI_DONE);
    const result = await c.run(prompt);
    expect(result.text).toBe("A cat.");
    expect(lastUser(played.bodies[0]!)).toEqual([
      { type: "text", text: "What is in these?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
      { type: "file", file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
  });

  it("Anthropic: text, image (base64 or URL source) and a document block", async () => {
    const { played, client: c } = client("anthropic", ANTHROPIC_DONE);
    await c.run(prompt);
    expect(lastUser(played.bodies[0]!)).toEqual([
      { type: "text", text: "What is in these?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF },
        title: "report.pdf",
      },
    ]);
  });

  it("a string prompt is still sent as a string", async () => {
    const { played, client: c } = client("openai", OPENAI_DONE);
    await c.run("Hi");
    expect(lastUser(played.bodies[0]!)).toBe("Hi");
  });

  const badPrompts: [unknown, string][] = [
    [[{ type: "image", mediaType: "image/png" }], "neither data nor url"],
    [[{ type: "image", data: PNG, url: "https://x", mediaType: "image/png" }], "both data and url"],
    [[{ type: "image", data: PNG }], "no mediaType"],
    [[{ type: "audio", data: PNG, mediaType: "audio/wav" }], 'type "audio"'],
    [[{ type: "text" }], "no string text"],
    [[null], "is null"],
    [42, "got number"],
  ];
  for (const [bad, says] of badPrompts)
    it(`a bad prompt (${JSON.stringify(bad)}) is a ConfigError and nothing is sent`, async () => {
      for (const style of ["openai", "anthropic"] as const) {
        const { played, client: c } = client(style, OPENAI_DONE);
        const error = await c.run(bad as never).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: "ConfigError", code: "config" });
        expect((error as Error).message).toContain(says);
        expect(played.bodies).toHaveLength(0);
      }
    });

  it("OpenAI Chat takes a file by URL as no part at all: refused before sending", async () => {
    const { played, client: c } = client("openai", OPENAI_DONE);
    const file: ContentPart = { type: "file", url: "https://example.com/a.pdf", mediaType: "application/pdf" };
    await expect(c.run([file])).rejects.toMatchObject({ code: "config", message: expect.stringContaining("inline") });
    expect(played.bodies).toHaveLength(0);
  });
});

describe("history with neutral content parts", () => {
  const history = [
    {
      role: "user",
      content: [
        { type: "text", text: "Look:" },
        { type: "image", data: PNG, mediaType: "image/png" },
      ],
    },
    { role: "assistant", content: "A dot." },
  ];

  it("is converted to each provider's shape; provider-shaped parts pass unchanged", async () => {
    const native = { role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] };
    const openai = client("openai", OPENAI_DONE);
    await openai.client.run("And now?", { history: [...history, native, { role: "assistant", content: "Ok" }] });
    const sent = openai.played.bodies[0]!.messages as { content: unknown }[];
    expect(sent[0]!.content).toEqual([
      { type: "text", text: "Look:" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
    expect(sent[2]).toEqual(native);

    const anthropic = client("anthropic", ANTHROPIC_DONE);
    await anthropic.client.run("And now?", { history });
    expect((anthropic.played.bodies[0]!.messages as { content: unknown }[])[0]!.content).toEqual([
      { type: "text", text: "Look:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
  });

  it("a bad neutral part in history is a ConfigError naming where it is", async () => {
    const { played, client: c } = client("anthropic", ANTHROPIC_DONE);
    const bad = [{ role: "user", content: [{ type: "image", mediaType: "image/png" }] }];
    await expect(c.run("x", { history: bad })).rejects.toMatchObject({
      code: "config",
      message: expect.stringContaining("history[0].content[0]"),
    });
    expect(played.bodies).toHaveLength(0);
  });
});

describe("a tool that returns an image", () => {
  const chart: ToolResult = {
    output: "the chart",
    isError: false,
    content: [{ type: "image", data: PNG, mediaType: "image/png" }],
  };
  const plot = defineTool({ name: "plot", description: "plots", execute: async () => chart });
  const callOpenAI = JSON.stringify({
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "plot", arguments: "{}" } }],
        },
        finish_reason: "tool_calls",
      },
    ],
  });
  const callAnthropic = JSON.stringify({
    type: "message",
    content: [{ type: "tool_use", id: "toolu_1", name: "plot", input: {} }],
    stop_reason: "tool_use",
  });

  it("OpenAI Chat: the tool message carries the text; the image follows in one user message naming the call", async () => {
    const played = replay([{ body: callOpenAI }, { body: OPENAI_DONE }]);
    await createClient({ ...base, style: "openai", fetch: played.fetch }).run("plot it", { toolkit: [plot] });
    const sent = played.bodies[1]!.messages as Record<string, unknown>[];
    expect(sent.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "the chart" },
      {
        role: "user",
        content: [
          { type: "text", text: "Output of tool plot (call_1):" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it("Anthropic: the image goes inside the tool_result, after its text", async () => {
    const played = replay([{ body: callAnthropic }, { body: ANTHROPIC_DONE }]);
    await createClient({ ...base, style: "anthropic", fetch: played.fetch }).run("plot it", { toolkit: [plot] });
    const sent = played.bodies[1]!.messages as { content: unknown }[];
    expect(sent.at(-1)!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [
          { type: "text", text: "the chart" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        ],
        is_error: false,
      },
    ]);
  });

  it("a part that is not a content part reaches the model as a note instead of ending the run", async () => {
    const broken = defineTool({
      name: "plot",
      description: "plots",
      execute: async () => ({ output: "x", isError: false, content: [{ type: "image" }] as never }),
    });
    const played = replay([{ body: callAnthropic }, { body: ANTHROPIC_DONE }]);
    const result = await createClient({ ...base, style: "anthropic", fetch: played.fetch }).run("p", {
      toolkit: [broken],
    });
    expect(result.status).toBe("done");
    expect(JSON.stringify(played.bodies[1])).toContain("[unsupported content part:");
  });

  it("OpenAI Chat: a returned file by URL, which the API cannot take, reaches the model as a note", async () => {
    const linked = defineTool({
      name: "plot",
      description: "plots",
      execute: async () => ({
        output: "see file",
        isError: false,
        content: [{ type: "file", url: "https://example.com/a.pdf", mediaType: "application/pdf" }],
      }),
    });
    const played = replay([{ body: callOpenAI }, { body: OPENAI_DONE }]);
    const result = await createClient({ ...base, style: "openai", fetch: played.fetch }).run("p", {
      toolkit: [linked],
    });
    expect(result.status).toBe("done");
    const attached = (played.bodies[1]!.messages as { role: string; content: { text?: string }[] }[]).at(-1)!;
    expect(attached.role).toBe("user");
    expect(attached.content[1]!.text).toMatch(/^\[unsupported content part: .*inline data only/);
  });

  it("the images a halted run received are in its stored record, and go out again when it resumes", async () => {
    const asking = defineTool({
      name: "ask",
      description: "asks",
      execute: (_a, ctx) => (ctx.answer ? "ok" : pending({ kind: "input", prompt: "?", id: "q-1" })),
    });
    const askCall = callAnthropic.replace('"plot"', '"ask"').replace("toolu_1", "toolu_2");
    const storage = memoryStorage();
    const first = replay([{ body: askCall }]);
    const halted = await createClient({ ...base, style: "anthropic", storage, fetch: first.fetch }).run(prompt, {
      toolkit: [asking],
    });
    expect(halted.status).toBe("pending");
    if (halted.status !== "pending") return;
    const second = replay([{ body: ANTHROPIC_DONE }]);
    await createClient({ ...base, style: "anthropic", storage, fetch: second.fetch }).resume(
      halted.runId,
      answerOutput("q-1", "fine"),
      { toolkit: [asking] },
    );
    expect((second.bodies[0]!.messages as { content: unknown }[])[0]!.content).toEqual(
      (first.bodies[0]!.messages as { content: unknown }[])[0]!.content,
    );
  });
});

describe("a turn where one tool returns an image and another halts", () => {
  const PNG1 = PNG;
  const both = JSON.stringify({
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_p", type: "function", function: { name: "plot", arguments: "{}" } },
            { id: "call_q", type: "function", function: { name: "ask", arguments: "{}" } },
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
  });
  const tools = () => [
    defineTool({
      name: "plot",
      description: "plots",
      execute: async () => ({
        output: "chart",
        isError: false,
        content: [{ type: "image", data: PNG1, mediaType: "image/png" }],
      }),
    }),
    defineTool({
      name: "ask",
      description: "asks",
      execute: (_a, ctx) => (ctx.answer ? "yes" : pending({ kind: "input", prompt: "?", id: "q-9" })),
    }),
  ];

  it("OpenAI Chat: resumed elsewhere, both tool messages and then the image go out, and the run finishes", async () => {
    const storage = memoryStorage();
    const first = replay([{ body: both }]);
    const halted = await createClient({ ...base, style: "openai", storage, fetch: first.fetch }).run("go", {
      toolkit: tools(),
    });
    expect(halted.status).toBe("pending");
    if (halted.status !== "pending") return;
    const second = replay([{ body: OPENAI_DONE }]);
    const done = await createClient({ ...base, style: "openai", storage, fetch: second.fetch }).resume(
      halted.runId,
      answerOutput("q-9", "ok"),
      { toolkit: tools() },
    );
    expect(done.status).toBe("done");
    const sent = second.bodies[0]!.messages as Record<string, unknown>[];
    expect(sent.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_p", content: "chart" },
      { role: "tool", tool_call_id: "call_q", content: "yes" },
      {
        role: "user",
        content: [
          { type: "text", text: "Output of tool plot (call_p):" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG1}` } },
        ],
      },
    ]);
  });
});
