// defineTool: schema checks before execute, result mapping, throws as data.
import { describe, expect, it } from "vitest";
import { ConfigError, defineTool, pending, pendingOf, type JSONSchema, type Tool, type ToolContext } from "toolnexus";
import {
  brokenConversion,
  toStandardJsonSchema,
  valibotCity,
  valibotString,
  valibotTrimmed,
  withoutConversion,
  withStandardJsonSchema,
  withToJSONSchema,
} from "../../support/tools-schemas";
import { toolCtx } from "../../support/tool-context";

const returning = (value: unknown): Tool =>
  defineTool({ name: "t", description: "returns a value", execute: () => value });
const throwing = (value: unknown): Tool =>
  defineTool({
    name: "t",
    description: "throws",
    execute: () => {
      throw value;
    },
  });

describe("defineTool: the Tool it builds", () => {
  it("is a native tool with the default schema (any object)", () => {
    const tool = defineTool({ name: "clock", description: "tells the time", execute: () => "12:00" });
    expect(tool.name).toBe("clock");
    expect(tool.description).toBe("tells the time");
    expect(tool.source).toBe("native");
    expect(tool.inputSchema).toEqual({ type: "object", properties: {} });
    const other = defineTool({ name: "other", description: "d", execute: () => "" });
    expect(other.inputSchema).not.toBe(tool.inputSchema); // no two tools share a default schema object
  });

  it("declares a JSON Schema as given", () => {
    const schema: JSONSchema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(defineTool({ name: "s", description: "d", inputSchema: schema, execute: () => "" }).inputSchema).toEqual(
      schema,
    );
  });

  it("refuses bad definitions with a ConfigError", () => {
    const ok = { name: "t", description: "d", execute: () => "" };
    expect(() => defineTool({ ...ok, name: "" })).toThrow(ConfigError);
    expect(() => defineTool({ ...ok, description: undefined as unknown as string })).toThrow(
      "description must be a string",
    );
    expect(() => defineTool({ ...ok, execute: "nope" as unknown as () => string })).toThrow(
      "execute must be a function",
    );
    expect(() => defineTool({ ...ok, inputSchema: { properties: {} } as unknown as JSONSchema })).toThrow(
      'inputSchema must describe an object (JSON Schema type "object"), got type undefined',
    );
    expect(() => defineTool({ ...ok, inputSchema: { type: "string" } as unknown as JSONSchema })).toThrow(ConfigError);
  });
});

describe("defineTool: what execute returns", () => {
  it("a string becomes the output", async () => {
    expect(await returning("sunny").execute({}, toolCtx())).toEqual({ output: "sunny", isError: false });
  });

  it("a ToolResult passes through as it is — which is how pending(...) suspends", async () => {
    const result = { output: "half", isError: true, metadata: { step: 2 } };
    expect(await returning(result).execute({}, toolCtx())).toBe(result);
    const asked = await returning(pending({ kind: "input", prompt: "Which city?", id: "q1" })).execute({}, toolCtx());
    expect(pendingOf(asked)).toEqual({ id: "q1", kind: "input", prompt: "Which city?" });
  });

  it("undefined becomes an empty output", async () => {
    expect(await returning(undefined).execute({}, toolCtx())).toEqual({ output: "", isError: false });
    expect(await defineTool({ name: "t", description: "d", execute: async () => {} }).execute({}, toolCtx())).toEqual({
      output: "",
      isError: false,
    });
  });

  for (const [value, output] of [
    [42, "42"],
    [{ temp: 21, ok: true }, '{"temp":21,"ok":true}'],
    [[1, "a"], '[1,"a"]'],
    [null, "null"],
    [false, "false"],
    [{ output: "x" }, '{"output":"x"}'],
  ] as const) {
    it(`a JSON value is stringified: ${output}`, async () => {
      expect(await returning(value).execute({}, toolCtx())).toEqual({ output, isError: false });
    });
  }

  it("a value JSON cannot carry becomes an error result, never a crash", async () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    for (const value of [cycle, { big: BigInt(1) }, () => 1, Symbol("s")]) {
      const result = await returning(value).execute({}, toolCtx());
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/^tool t returned .*return a string, a ToolResult or a JSON value$/);
    }
  });
});

describe("defineTool: a throw is an error result", () => {
  it("an Error gives its message, sync or async", async () => {
    expect(await throwing(new Error("kaput")).execute({}, toolCtx())).toEqual({ output: "kaput", isError: true });
    const rejects = defineTool({
      name: "r",
      description: "d",
      execute: async () => Promise.reject(new RangeError("out of range")),
    });
    expect(await rejects.execute({}, toolCtx())).toEqual({ output: "out of range", isError: true });
  });

  it("an Error without a message gives its name", async () => {
    expect(await throwing(new TypeError()).execute({}, toolCtx())).toEqual({ output: "TypeError", isError: true });
  });

  it("non-Error throws never crash: a string, null, undefined, an object whose toString throws", async () => {
    expect(await throwing("plain string").execute({}, toolCtx())).toEqual({ output: "plain string", isError: true });
    expect(await throwing(null).execute({}, toolCtx())).toEqual({ output: "null", isError: true });
    expect(await throwing(undefined).execute({}, toolCtx())).toEqual({ output: "undefined", isError: true });
    const hostile = {
      toString() {
        throw new Error("no");
      },
    };
    const result = await throwing(hostile).execute({}, toolCtx());
    expect(result.isError).toBe(true);
    expect(result.output).toBeTypeOf("string");
    expect(await throwing({ message: "shaped like an error" }).execute({}, toolCtx())).toEqual({
      output: "shaped like an error",
      isError: true,
    });
  });
});

describe("defineTool: ctx", () => {
  it("passes ctx through to execute unchanged", async () => {
    let seen: ToolContext | undefined;
    const tool = defineTool({ name: "c", description: "d", execute: (_args, ctx) => void (seen = ctx) });
    const ctx: ToolContext = {
      answer: { id: "q1", ok: true, data: { output: "yes" } },
      signal: new AbortController().signal,
      runId: "run-1",
      callId: "c1",
      idempotencyKey: "run-1:c1",
    };
    await tool.execute({}, ctx);
    expect(seen).toBe(ctx);
    // a caller that passes no ctx (plain JavaScript) still gives execute a complete one
    await (tool.execute as (args: Record<string, unknown>) => Promise<unknown>)({});
    expect(seen?.signal.aborted).toBe(false);
    expect(seen?.answer).toBeUndefined();
    expect(seen?.idempotencyKey).toBe(`${seen?.runId}:${seen?.callId}`);
  });
});

describe("defineTool: JSON Schema arguments are checked before execute", () => {
  const schema: JSONSchema = {
    type: "object",
    properties: {
      city: { type: "string", minLength: 2, maxLength: 5, pattern: "^[A-Z]" },
      days: { type: "integer", minimum: 1, maximum: 7 },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      unit: { enum: ["c", "f"] },
      kind: { const: "forecast" },
      note: { type: ["string", "null"] },
      tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
      where: {
        type: "object",
        properties: { lat: { type: "number" } },
        required: ["lat"],
        additionalProperties: false,
      },
      extra: { type: "string", format: "email", "x-vendor": true },
    },
    required: ["city"],
    additionalProperties: false,
  };
  const runs: Record<string, unknown>[] = [];
  const tool = defineTool({
    name: "weather",
    description: "d",
    inputSchema: schema,
    execute: (args) => (runs.push(args), "ran"),
  });

  for (const [args, problem] of [
    [{}, "city: is required"],
    [{ city: 7 }, "city: expected string, got number"],
    [{ city: "P" }, "city: must have at least 2 characters"],
    [{ city: "Pondicherry" }, "city: must have at most 5 characters"],
    [{ city: "paris" }, "city: must match the pattern ^[A-Z]"],
    [{ city: "Oslo", days: 1.5 }, "days: expected integer, got number"],
    [{ city: "Oslo", days: 0 }, "days: must be >= 1"],
    [{ city: "Oslo", days: 8 }, "days: must be <= 7"],
    [{ city: "Oslo", ratio: 0 }, "ratio: must be > 0"],
    [{ city: "Oslo", ratio: 1 }, "ratio: must be < 1"],
    [{ city: "Oslo", unit: "k" }, 'unit: must be one of "c", "f"'],
    [{ city: "Oslo", kind: "history" }, 'kind: must be "forecast"'],
    [{ city: "Oslo", note: 3 }, "note: expected string or null, got number"],
    [{ city: "Oslo", tags: [] }, "tags: must have at least 1 item"],
    [{ city: "Oslo", tags: ["a", "b", "c"] }, "tags: must have at most 2 items"],
    [{ city: "Oslo", tags: ["a", 2] }, "tags[1]: expected string, got number"],
    [{ city: "Oslo", where: {} }, "where.lat: is required"],
    [{ city: "Oslo", where: { lat: 1, lon: 2 } }, "where.lon: is not an allowed property"],
    [{ city: "Oslo", where: [] }, "where: expected object, got array"],
    [{ city: "Oslo", wind: true }, "wind: is not an allowed property"],
  ] as const) {
    it(`refuses ${JSON.stringify(args)} with "${problem}" and never runs the tool`, async () => {
      runs.length = 0;
      expect(await tool.execute(args as Record<string, unknown>, toolCtx())).toEqual({
        output: `Invalid arguments for weather: ${problem}`,
        isError: true,
      });
      expect(runs).toHaveLength(0);
    });
  }

  it("reports every problem, separated by '; '", async () => {
    expect((await tool.execute({ city: 1, days: "x" }, toolCtx())).output).toBe(
      "Invalid arguments for weather: city: expected string, got number; days: expected integer, got string",
    );
  });

  it("accepts valid arguments (nullable by type array, unknown keywords ignored, code points counted)", async () => {
    runs.length = 0;
    const args = {
      city: "Oslo",
      days: 3,
      ratio: 0.5,
      unit: "c",
      kind: "forecast",
      note: null,
      tags: ["x"],
      where: { lat: 59.9 },
      extra: "not-an-email",
    };
    expect(await tool.execute(args, toolCtx())).toEqual({ output: "ran", isError: false });
    expect(runs).toEqual([args]);
    expect((await tool.execute({ city: "Oslo🙂" }, toolCtx())).isError).toBe(false);
  });

  it("a tool with no inputSchema accepts any object, and a non-object is refused at the root", async () => {
    let seen: unknown;
    const open = defineTool({ name: "open", description: "d", execute: (args) => ((seen = args), "x") });
    expect(await open.execute({ surprise: 1, nested: { a: [1] } }, toolCtx())).toEqual({ output: "x", isError: false });
    expect(seen).toEqual({ surprise: 1, nested: { a: [1] } });
    expect(await open.execute([] as unknown as Record<string, unknown>, toolCtx())).toEqual({
      output: "Invalid arguments for open: (root): expected object, got array",
      isError: true,
    });
    expect(await tool.execute([] as unknown as Record<string, unknown>, toolCtx())).toEqual({
      output: "Invalid arguments for weather: (root): expected object, got array",
      isError: true,
    });
  });

  it("an unparsable pattern constrains nothing", async () => {
    const loose = defineTool({
      name: "p",
      description: "d",
      inputSchema: { type: "object", properties: { s: { type: "string", pattern: "(" } } },
      execute: () => "ok",
    });
    expect(await loose.execute({ s: "anything" }, toolCtx())).toEqual({ output: "ok", isError: false });
  });
});

describe("defineTool: valibot and Standard Schema", () => {
  it("declares a valibot schema as JSON Schema and validates through valibot", async () => {
    let seen: unknown;
    const tool = defineTool({
      name: "weather",
      description: "d",
      inputSchema: valibotCity,
      execute: (args) => ((seen = args), `${args.city} for ${args.days} days`),
    });
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string", minLength: 2 }, days: { type: "integer", minimum: 1 } },
      required: ["city"],
    });
    expect(tool.inputSchema).not.toHaveProperty("$schema");
    expect(await tool.execute({ city: "Oslo" }, toolCtx())).toEqual({ output: "Oslo for 1 days", isError: false });
    expect(seen).toEqual({ city: "Oslo", days: 1 });
    expect(await tool.execute({ city: "O" }, toolCtx())).toEqual({
      output: "Invalid arguments for weather: city: too short",
      isError: true,
    });
    const missing = await tool.execute({}, toolCtx());
    expect(missing.isError).toBe(true);
    expect(missing.output).toMatch(/^Invalid arguments for weather: city: /);
  });

  it("takes the exact @valibot/to-json-schema conversion through Standard JSON Schema (toStandardJsonSchema)", async () => {
    const tool = defineTool({
      name: "weather",
      description: "d",
      inputSchema: toStandardJsonSchema(valibotCity),
      execute: (args) => `${args.city}/${args.days}`,
    });
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string", minLength: 2 }, days: { type: "integer", minimum: 1, default: 1 } },
      required: ["city"],
    });
    expect(await tool.execute({ city: "Oslo" }, toolCtx())).toEqual({ output: "Oslo/1", isError: false });
    expect((await tool.execute({ city: "O" }, toolCtx())).output).toBe(
      "Invalid arguments for weather: city: too short",
    );
  });

  it("execute gets valibot's output (transforms applied); the declaration describes the input", async () => {
    const tool = defineTool({
      name: "shout",
      description: "d",
      inputSchema: valibotTrimmed,
      execute: (args) => args.name,
    });
    expect(tool.inputSchema).toMatchObject({ type: "object", properties: { name: { type: "string" } } });
    expect(await tool.execute({ name: "  ada " }, toolCtx())).toEqual({ output: "ADA", isError: false });
  });

  it("refuses a valibot schema that is not an object", () => {
    expect(() =>
      defineTool({ name: "s", description: "d", inputSchema: valibotString as never, execute: () => "" }),
    ).toThrow('inputSchema must describe an object (JSON Schema type "object"), got type "string"');
  });

  it("uses a vendor's Standard JSON Schema conversion (~standard.jsonSchema) and its async validate", async () => {
    const tool = defineTool({
      name: "find",
      description: "d",
      inputSchema: withStandardJsonSchema as never,
      execute: (args: Record<string, unknown>) => `found ${args.q}`,
    });
    expect(tool.inputSchema).toEqual({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    expect(await tool.execute({ q: "tea" }, toolCtx())).toEqual({ output: "found tea", isError: false });
    expect(await tool.execute({ q: 1 }, toolCtx())).toEqual({
      output: "Invalid arguments for find: q: q must be a string",
      isError: true,
    });
  });

  it("uses a vendor's toJSONSchema() method", async () => {
    const tool = defineTool({
      name: "find",
      description: "d",
      inputSchema: withToJSONSchema as never,
      execute: () => "ok",
    });
    expect(tool.inputSchema).toEqual({ type: "object", properties: { q: { type: "string" } } });
    expect((await tool.execute({}, toolCtx())).output).toBe("Invalid arguments for find: q: q must be a string");
  });

  it("throws a clear ConfigError at definition time when a schema cannot be declared", () => {
    expect(() =>
      defineTool({ name: "find", description: "d", inputSchema: withoutConversion as never, execute: () => "" }),
    ).toThrow(ConfigError);
    expect(() =>
      defineTool({ name: "find", description: "d", inputSchema: withoutConversion as never, execute: () => "" }),
    ).toThrow('tool "find": the opaque schema offers no JSON Schema conversion');
    expect(() =>
      defineTool({ name: "find", description: "d", inputSchema: brokenConversion as never, execute: () => "" }),
    ).toThrow("cannot convert the fragile inputSchema to JSON Schema: recursive types are not supported");
  });
});
