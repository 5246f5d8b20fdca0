// Structured output on both OpenAI wires (the recipe in docs/guide/recipes.md): a schema whose root is an
// open object or has an optional field is sent without `strict`; a closed root asks with `strict: true`, and
// when strict mode refuses the schema (a 400 `invalid_json_schema` before any output — the refusal below is
// a real recording) the call is sent once more without `strict`, as are the run's later calls. The answer is
// validated against the schema all the same. The provider here refuses as OpenAI does: a strict request whose
// schema breaks the documented rules gets the recorded 400.
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import * as z from "zod";
import { createClient, defineTool, type JSONSchema, jsonSchema, LlmHttpError, OutputError } from "toolnexus";
import * as refusal from "../../fixtures/wire/openai-responses/nested-defs-error";
import { scripted, type ScriptTurn } from "../../support/scripted";

const nestedDefs: JSONSchema = {
  type: "object",
  properties: {
    elements: {
      type: "array",
      items: {
        type: "object",
        properties: { shared: { $ref: "#/$defs/Shared" } },
        required: ["shared"],
        additionalProperties: false,
        $defs: {
          Shared: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          },
        },
      },
    },
  },
  required: ["elements"],
  additionalProperties: false,
};

/**
 * Each shape the recipe names, and what is asked (OpenAI's documented rules): strict mode (`[true]`), not at
 * all (`[false]`: an open root or an optional field), or strict, refused, then not (`[true, false]`).
 */
const SHAPES: { name: string; schema: unknown; answer: string; asks: boolean[]; output?: unknown }[] = [
  {
    name: "valibot v.object (extra keys allowed)",
    schema: v.object({ city: v.string() }),
    answer: '{"city":"Lima"}',
    asks: [false],
  },
  {
    name: "valibot v.strictObject",
    schema: v.strictObject({ city: v.string() }),
    answer: '{"city":"Lima"}',
    asks: [true],
  },
  {
    name: "an optional field",
    schema: v.strictObject({ city: v.string(), zip: v.optional(v.string()) }),
    answer: '{"city":"Lima"}',
    asks: [false],
  },
  {
    name: "an optional field written as a nullable one",
    schema: v.strictObject({ city: v.string(), zip: v.nullable(v.string()) }),
    answer: '{"city":"Lima","zip":null}',
    asks: [true],
  },
  {
    name: "zod z.object (the default object)",
    schema: z.object({ city: z.string() }),
    answer: '{"city":"Lima"}',
    asks: [false],
  },
  {
    name: "zod with a default",
    schema: z.object({ city: z.string().default("Lima") }),
    answer: "{}",
    asks: [false],
    output: { city: "Lima" },
  },
  { name: "zod z.strictObject", schema: z.strictObject({ city: z.string() }), answer: '{"city":"Lima"}', asks: [true] },
  {
    name: "a strict-compatible JSON Schema",
    schema: jsonSchema({
      type: "object",
      properties: { city: { type: "string" }, tags: { type: "array", items: { type: "string", format: "email" } } },
      required: ["city", "tags"],
      additionalProperties: false,
    }),
    answer: '{"city":"Lima","tags":[]}',
    asks: [true],
  },
  {
    name: "definitions below the root",
    schema: jsonSchema(nestedDefs),
    answer: '{"elements":[]}',
    asks: [true, false],
  },
];

const STYLES = ["openai", "openai-responses"] as const;

/** Where each wire puts the output format in its request body. */
const formatOf = (style: (typeof STYLES)[number], body: Record<string, any>) =>
  style === "openai" ? body.response_format?.json_schema : body.text?.format;

/**
 * Chat Completions' refusal of the same schema, in the shape it answers with (written here, not recorded: its
 * `code` is null and `param` names `response_format`, as widely reported), beside the Responses API's recording.
 */
const chatRefusal = JSON.stringify({
  error: {
    message:
      "Invalid schema for response_format 'output': In context=('properties', 'elements', 'items', 'properties', 'shared'), reference to component '#/$defs/Shared' which was not found in the schema.",
    type: "invalid_request_error",
    param: "response_format",
    code: null,
  },
});

/** OpenAI as it answers: its 400 for a strict request strict mode refuses, else the scripted answer. */
function openai(style: (typeof STYLES)[number], answer: string, accepts: boolean, steps: ScriptTurn[] = []) {
  const s = scripted(style, [...steps, { text: answer }]);
  const sent: Record<string, any>[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    sent.push(body);
    if (formatOf(style, body)?.strict === true && !accepts)
      return new Response(style === "openai" ? chatRefusal : refusal.json, {
        status: 400,
        headers: { "content-type": "application/json" },
      });
    return s.fetch(input, init);
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

for (const style of STYLES) {
  describe(`structured output on ${style}: strict mode only where it is accepted`, () => {
    for (const shape of SHAPES) {
      it(`${shape.name}: asks ${JSON.stringify(shape.asks)}, and the answer is validated`, async () => {
        const provider = openai(style, shape.answer, shape.asks.length === 1); // accepted unless refused once
        const client = createClient({
          baseUrl: "http://127.0.0.1:9/v1",
          style,
          model: "m",
          apiKey: "k",
          fetch: provider.fetch,
          retries: 0,
        });
        const result = await client.run("where?", { output: shape.schema as never });
        expect(result.status).toBe("done");
        expect(result.status === "done" && result.output).toEqual(shape.output ?? JSON.parse(shape.answer));
        const asked = provider.sent.map((body) => formatOf(style, body).strict === true);
        expect(asked).toEqual(shape.asks);
      });
    }

    it("a run whose schema strict mode refused asks without it on its later calls", async () => {
      const look = defineTool({ name: "look", description: "looks", inputSchema: v.object({}), execute: () => "seen" });
      const provider = openai(style, '{"elements":[]}', false, [{ calls: [{ name: "look", args: {} }] }]);
      const client = createClient({
        baseUrl: "http://127.0.0.1:9/v1",
        style,
        model: "m",
        apiKey: "k",
        fetch: provider.fetch,
        retries: 0,
      });
      const result = await client.run("where?", { output: jsonSchema(nestedDefs), toolkit: [look] });
      expect(result.status === "done" && result.output).toEqual({ elements: [] });
      expect(provider.sent.map((body) => formatOf(style, body).strict === true)).toEqual([true, false, false]);
    });

    it("a strict request strict mode refuses is the provider's 400, its message kept (a bodyTransform forcing strict)", async () => {
      const provider = openai(style, "{}", false);
      const force = (body: Record<string, any>) => {
        const format = formatOf(style, body);
        format.strict = true;
        return body;
      };
      const client = createClient({
        baseUrl: "http://127.0.0.1:9/v1",
        style,
        model: "m",
        apiKey: "k",
        fetch: provider.fetch,
        retries: 0,
        bodyTransform: force,
      });
      const error = await client.run("where?", { output: jsonSchema(nestedDefs) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmHttpError);
      expect((error as LlmHttpError).status).toBe(400);
      expect((error as LlmHttpError).body).toContain("which was not found in the schema");
    });
  });
}

/**
 * Each documented rule, one schema breaking it (else strict-compatible), and what is asked: strict mode
 * (`[true]`: accepted), strict then not (`[true, false]`: refused, sent again), or not at all (`[false]`:
 * an open root or an optional field). The provider below refuses a strict request where the table says.
 */
const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});
const RULES: [rule: string, schema: unknown, asked: boolean[]][] = [
  ["closed, every property required", closed({ a: { type: "string" } }), [true]],
  [
    "nullable, enum, const, $ref to root $defs",
    closed(
      { a: { type: ["string", "null"] }, b: { enum: ["x", "y"] }, c: { const: 1 }, d: { $ref: "#/$defs/D" } },
      { $defs: { D: closed({ n: { type: "number", minimum: 0, multipleOf: 1 } }) } },
    ),
    [true],
  ],
  ["an open object", { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, [false]],
  [
    "a property left out of required",
    { ...closed({ a: { type: "string" }, b: { type: "string" } }), required: ["a"] },
    [false],
  ],
  ["a nested open object", closed({ a: { type: "object", properties: {} } }), [true, false]],
  [
    "an open object in an array",
    closed({ a: { type: "array", items: { type: "object", properties: { b: { type: "string" } }, required: ["b"] } } }),
    [true, false],
  ],
  ["a default", closed({ a: { type: "string", default: "x" } }), [true, false]],
  ["minLength", closed({ a: { type: "string", minLength: 1 } }), [true, false]],
  ["allOf", closed({ a: { allOf: [{ type: "string" }] } }), [true, false]],
  ["oneOf", closed({ a: { oneOf: [{ type: "string" }, { type: "number" }] } }), [true, false]],
  ["a format strict mode lacks", closed({ a: { type: "string", format: "uri" } }), [true, false]],
  ["a format it has", closed({ a: { type: "string", format: "date-time" } }), [true]],
  ["objects nested 11 deep", nest(10), [true, false]],
  ["objects nested 10 deep", nest(9), [true]],
];

function nest(levels: number): unknown {
  let schema: unknown = closed({ leaf: { type: "string" } });
  for (let i = 0; i < levels; i++) schema = closed({ inner: schema });
  return schema;
}

describe("the strict-mode rules, one at a time, on both wires", () => {
  for (const [rule, schema, asked] of RULES)
    for (const style of STYLES)
      it(`${rule} (${style}): asks ${JSON.stringify(asked)}`, async () => {
        const provider = openai(style, "{}", asked.length === 1); // accepted unless refused once
        const client = createClient({ baseUrl: "http://127.0.0.1:9/v1", style, model: "m", fetch: provider.fetch });
        // "{}" fits none of these schemas: the run ends in an OutputError, after what was asked
        const error = await client.run("go", { output: jsonSchema(schema as JSONSchema) }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OutputError);
        expect(provider.sent.map((body) => formatOf(style, body).strict === true)).toEqual(asked);
      });
});
