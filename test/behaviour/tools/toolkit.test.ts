// createToolkit and the adapters.
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  createToolkit,
  defineTool,
  relayTool,
  toAnthropic,
  toGemini,
  toOpenAI,
  type Tool,
  type ToolContext,
} from "toolnexus";
import { captureWarnings, fakeFetch } from "../../support/tools-fetch";

const echo = (name: string, output = name): Tool =>
  defineTool({ name, description: `the ${name} tool`, execute: () => output });
const names = (tools: Tool[]) => tools.map((t) => t.name);

describe("createToolkit: assembly", () => {
  it("is async and starts with the builtins webfetch, question, todowrite, then the host's tools", async () => {
    const pending = createToolkit({ tools: [echo("alpha")] });
    expect(pending).toBeInstanceOf(Promise);
    const kit = await pending;
    expect(names(kit.tools())).toEqual(["webfetch", "question", "todowrite", "alpha"]);
    expect(kit.tools().map((t) => t.source)).toEqual(["builtin", "builtin", "builtin", "native"]);
    expect(names((await createToolkit()).tools())).toEqual(["webfetch", "question", "todowrite"]);
  });

  it("builtins: false turns them all off; an object turns single ones off; true keeps them", async () => {
    expect(names((await createToolkit({ builtins: false, tools: [echo("alpha")] })).tools())).toEqual(["alpha"]);
    expect(names((await createToolkit({ builtins: { question: false } })).tools())).toEqual(["webfetch", "todowrite"]);
    expect(
      names((await createToolkit({ builtins: { webfetch: false, todowrite: false, question: true } })).tools()),
    ).toEqual(["question"]);
    expect(names((await createToolkit({ builtins: true })).tools())).toEqual(["webfetch", "question", "todowrite"]);
  });

  it("warns about a builtin name it does not know", async () => {
    const warnings = await captureWarnings(() => createToolkit({ builtins: { bash: false } as never }));
    expect(warnings).toEqual([
      '[toolnexus] unknown builtin "bash" in the builtins option — known: webfetch, question, todowrite',
    ]);
  });

  it("a host tool named like a builtin replaces that builtin", async () => {
    const mine = echo("question", "my own question tool");
    const kit = await createToolkit({ tools: [mine] });
    expect(names(kit.tools())).toEqual(["webfetch", "todowrite", "question"]);
    expect(kit.get("question")).toBe(mine);
    expect(await kit.execute("question", {})).toEqual({ output: "my own question tool", isError: false });
  });

  it("duplicate host names: the first wins, with a warning", async () => {
    const first = echo("dup", "first");
    let kit: Awaited<ReturnType<typeof createToolkit>> | undefined;
    const warnings = await captureWarnings(async () => {
      kit = await createToolkit({ builtins: false, tools: [first, echo("dup", "second"), echo("other")] });
    });
    expect(warnings).toEqual(['[toolnexus] duplicate tool name "dup" — keeping first']);
    expect(names(kit!.tools())).toEqual(["dup", "other"]);
    expect(await kit!.execute("dup", {})).toEqual({ output: "first", isError: false });
  });

  it("refuses options it cannot use with a ConfigError", async () => {
    await expect(createToolkit({ tools: "alpha" as never })).rejects.toThrow("tools must be an array");
    await expect(createToolkit({ tools: [echo("a"), { name: "b" } as never] })).rejects.toThrow(
      "tools[1] must be a tool",
    );
    await expect(createToolkit({ builtins: "yes" as never })).rejects.toThrow(ConfigError);
    await expect(createToolkit({ fetch: 42 as never })).rejects.toThrow("fetch must be a function");
  });
});

describe("createToolkit: relay tools may not take a builtin's name", () => {
  const message = (list: string) =>
    `toolnexus: relay tool name collides with a built-in tool: [${list}] — rename the relay tool (the guard applies even with builtins disabled, so a future builtin cannot capture a declaration-only tool)`;

  for (const builtins of [undefined, false, { question: false }] as const) {
    it(`rejects a relay "question" with builtins ${JSON.stringify(builtins)}`, async () => {
      await expect(createToolkit({ builtins, tools: [relayTool("question", "host-side")] })).rejects.toThrow(
        ConfigError,
      );
      await expect(createToolkit({ builtins, tools: [relayTool("question", "host-side")] })).rejects.toThrow(
        message("question"),
      );
    });
  }

  it("names every colliding relay tool, sorted", async () => {
    await expect(
      createToolkit({ tools: [relayTool("webfetch", "x"), relayTool("todowrite", "y"), relayTool("fine", "z")] }),
    ).rejects.toThrow(message("todowrite, webfetch"));
  });

  it("a relay tool with its own name is fine", async () => {
    const kit = await createToolkit({ tools: [relayTool("lookup", "host-side lookup")] });
    expect(kit.get("lookup")?.source).toBe("relay");
  });
});

describe("toolkit methods", () => {
  it("get finds a tool by name; an unknown name is undefined", async () => {
    const alpha = echo("alpha");
    const kit = await createToolkit({ tools: [alpha] });
    expect(kit.get("alpha")).toBe(alpha);
    expect(kit.get("webfetch")?.source).toBe("builtin");
    expect(kit.get("nope")).toBeUndefined();
  });

  it("tools() is a copy: changing it changes nothing", async () => {
    const kit = await createToolkit({ builtins: false, tools: [echo("alpha")] });
    kit.tools().pop();
    expect(names(kit.tools())).toEqual(["alpha"]);
  });

  it("execute runs the tool with the args and ctx; an unknown tool is an error result", async () => {
    let seen: [Record<string, unknown>, ToolContext | undefined] | undefined;
    const spy = defineTool({
      name: "spy",
      description: "d",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      execute: (args, ctx) => ((seen = [args, ctx]), "seen"),
    });
    const kit = await createToolkit({ builtins: false, tools: [spy] });
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      callId: "c1",
      runId: "r1",
      idempotencyKey: "r1:c1",
    };
    expect(await kit.execute("spy", { n: 1 }, ctx)).toEqual({ output: "seen", isError: false });
    expect(seen).toEqual([{ n: 1 }, ctx]);
    expect(await kit.execute("nope", {})).toEqual({ output: "Unknown tool: nope", isError: true });
  });

  it("a hand-written Tool that throws still gives an error result", async () => {
    const raw: Tool = {
      name: "raw",
      description: "not built with defineTool",
      inputSchema: { type: "object" },
      source: "custom",
      execute: async () => {
        throw new Error("raw failure");
      },
    };
    const kit = await createToolkit({ builtins: false, tools: [raw] });
    expect(await kit.execute("raw", {})).toEqual({ output: "raw failure", isError: true });
  });

  it("the fetch option is what webfetch uses", async () => {
    const f = fakeFetch(
      () => new Response("<p>from the injected fetch</p>", { headers: { "content-type": "text/html" } }),
    );
    const kit = await createToolkit({ fetch: f.fetch });
    expect(await kit.execute("webfetch", { url: "https://example.test/page" })).toEqual({
      output: "from the injected fetch",
      isError: false,
      metadata: { status: 200, format: "markdown" },
    });
    expect(f.seen.map((r) => [r.method, r.url])).toEqual([["GET", "https://example.test/page"]]);
  });

  it("without a fetch option, webfetch looks up globalThis.fetch when it runs", async () => {
    const kit = await createToolkit();
    const original = globalThis.fetch;
    const f = fakeFetch(() => new Response("global", { headers: { "content-type": "text/plain" } }));
    globalThis.fetch = f.fetch as typeof fetch;
    try {
      expect((await kit.execute("webfetch", { url: "https://example.test/" })).output).toBe("global");
    } finally {
      globalThis.fetch = original;
    }
    expect(f.seen).toHaveLength(1);
  });
});

describe("adapters", () => {
  const schema = { type: "object" as const, properties: { q: { type: "string" } }, required: ["q"] };
  const find = defineTool({ name: "find", description: "finds things", inputSchema: schema, execute: () => "" });
  const clock = echo("clock");

  it("toOpenAI: function declarations", () => {
    expect(toOpenAI([find, clock])).toEqual([
      { type: "function", function: { name: "find", description: "finds things", parameters: schema } },
      {
        type: "function",
        function: {
          name: "clock",
          description: "the clock tool",
          parameters: { type: "object", properties: {} },
        },
      },
    ]);
  });

  it("toAnthropic: name, description, input_schema", () => {
    expect(toAnthropic([find])).toEqual([{ name: "find", description: "finds things", input_schema: schema }]);
  });

  it("toGemini: always one element holding every declaration, even for no tools", () => {
    expect(toGemini([find])).toEqual([
      { functionDeclarations: [{ name: "find", description: "finds things", parameters: schema }] },
    ]);
    expect(toGemini([])).toEqual([{ functionDeclarations: [] }]);
  });

  it("the toolkit methods declare exactly the toolkit's tools", async () => {
    const kit = await createToolkit({ builtins: { webfetch: false }, tools: [find] });
    expect(kit.toOpenAI()).toEqual(toOpenAI(kit.tools()));
    expect(kit.toAnthropic()).toEqual(toAnthropic(kit.tools()));
    expect(kit.toGemini()).toEqual(toGemini(kit.tools()));
    expect(kit.toAnthropic().map((d) => d.name)).toEqual(["question", "todowrite", "find"]);
    expect((await createToolkit({ builtins: false })).toGemini()).toEqual([{ functionDeclarations: [] }]);
  });
});
