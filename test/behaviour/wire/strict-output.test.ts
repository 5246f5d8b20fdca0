// Structured output on both OpenAI wires asks with `strict: true` only for a schema OpenAI's strict mode
// accepts (the recipe in docs/guide/recipes.md says which): strict mode refuses any other with a 400 before
// any output — the refusal below is a real recording — so such a schema is sent without `strict`, and the
// answer is validated against it all the same. The provider here refuses as OpenAI does: a strict request
// whose schema breaks the documented rules gets the recorded 400.
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import * as z from "zod";
import { createClient, type JSONSchema, jsonSchema, LlmHttpError } from "toolnexus";
import * as refusal from "../../fixtures/wire/openai-responses/nested-defs-error";
import { scripted } from "../support/scripted";
import { openaiResponsesWire, openaiWire } from "../support/wire-internals";

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

/** Each shape the recipe names, and whether strict mode accepts it (OpenAI's documented rules). */
const SHAPES: { name: string; schema: unknown; answer: string; strict: boolean; output?: unknown }[] = [
  {
    name: "valibot v.object (extra keys allowed)",
    schema: v.object({ city: v.string() }),
    answer: '{"city":"Lima"}',
    strict: false,
  },
  {
    name: "valibot v.strictObject",
    schema: v.strictObject({ city: v.string() }),
    answer: '{"city":"Lima"}',
    strict: true,
  },
  {
    name: "an optional field",
    schema: v.strictObject({ city: v.string(), zip: v.optional(v.string()) }),
    answer: '{"city":"Lima"}',
    strict: false,
  },
  {
    name: "an optional field written as a nullable one",
    schema: v.strictObject({ city: v.string(), zip: v.nullable(v.string()) }),
    answer: '{"city":"Lima","zip":null}',
    strict: true,
  },
  {
    name: "zod z.object (the default object)",
    schema: z.object({ city: z.string() }),
    answer: '{"city":"Lima"}',
    strict: false,
  },
  {
    name: "zod with a default",
    schema: z.object({ city: z.string().default("Lima") }),
    answer: "{}",
    strict: false,
    output: { city: "Lima" },
  },
  { name: "zod z.strictObject", schema: z.strictObject({ city: z.string() }), answer: '{"city":"Lima"}', strict: true },
  {
    name: "a strict-compatible JSON Schema",
    schema: jsonSchema({
      type: "object",
      properties: { city: { type: "string" }, tags: { type: "array", items: { type: "string", format: "email" } } },
      required: ["city", "tags"],
      additionalProperties: false,
    }),
    answer: '{"city":"Lima","tags":[]}',
    strict: true,
  },
  { name: "definitions below the root", schema: jsonSchema(nestedDefs), answer: '{"elements":[]}', strict: false },
];

const STYLES = ["openai", "openai-responses"] as const;

/** Where each wire puts the output format in its request body. */
const formatOf = (style: (typeof STYLES)[number], body: Record<string, any>) =>
  style === "openai" ? body.response_format?.json_schema : body.text?.format;

/** OpenAI as it answers: the recorded 400 for a strict request strict mode refuses, else the scripted answer. */
function openai(style: (typeof STYLES)[number], answer: string, accepts: boolean) {
  const s = scripted(style, [{ text: answer }]);
  const sent: Record<string, any>[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    sent.push(body);
    if (formatOf(style, body)?.strict === true && !accepts)
      return new Response(refusal.json, { status: 400, headers: { "content-type": "application/json" } });
    return s.fetch(input, init);
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

for (const style of STYLES) {
  describe(`structured output on ${style}: strict mode only where it is accepted`, () => {
    for (const shape of SHAPES) {
      it(`${shape.name}: ${shape.strict ? "strict" : "not strict"}, and the answer is validated`, async () => {
        const provider = openai(style, shape.answer, shape.strict);
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
        const format = formatOf(style, provider.sent[0]!);
        expect(format.strict === true).toBe(shape.strict);
      });
    }

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

/** Each documented rule, one schema breaking it (else strict-compatible), as the wires' bodies ask. */
const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});
const RULES: [rule: string, schema: unknown, strict: boolean][] = [
  ["closed, every property required", closed({ a: { type: "string" } }), true],
  [
    "nullable, enum, const, $ref to root $defs",
    closed(
      { a: { type: ["string", "null"] }, b: { enum: ["x", "y"] }, c: { const: 1 }, d: { $ref: "#/$defs/D" } },
      { $defs: { D: closed({ n: { type: "number", minimum: 0, multipleOf: 1 } }) } },
    ),
    true,
  ],
  ["an open object", { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, false],
  [
    "a property left out of required",
    { ...closed({ a: { type: "string" }, b: { type: "string" } }), required: ["a"] },
    false,
  ],
  ["a nested open object", closed({ a: { type: "object", properties: {} } }), false],
  [
    "an open object in an array",
    closed({ a: { type: "array", items: { type: "object", properties: { b: { type: "string" } }, required: ["b"] } } }),
    false,
  ],
  ["a default", closed({ a: { type: "string", default: "x" } }), false],
  ["minLength", closed({ a: { type: "string", minLength: 1 } }), false],
  ["allOf", closed({ a: { allOf: [{ type: "string" }] } }), false],
  ["oneOf", closed({ a: { oneOf: [{ type: "string" }, { type: "number" }] } }), false],
  ["a format strict mode lacks", closed({ a: { type: "string", format: "uri" } }), false],
  ["a format it has", closed({ a: { type: "string", format: "date-time" } }), true],
  ["objects nested 11 deep", nest(10), false],
  ["objects nested 10 deep", nest(9), true],
];

function nest(levels: number): unknown {
  let schema: unknown = closed({ leaf: { type: "string" } });
  for (let i = 0; i < levels; i++) schema = closed({ inner: schema });
  return schema;
}

describe("the strict-mode rules, one at a time, on both wires", () => {
  for (const [rule, schema, strict] of RULES)
    it(`${rule}: ${strict ? "strict" : "not strict"}`, () => {
      const ask = { model: "m", system: "", messages: [], tools: [], stream: false, output: schema as never };
      const chat = openaiWire.body(ask).response_format as { json_schema: Record<string, unknown> };
      const responses = openaiResponsesWire.body(ask).text as { format: Record<string, unknown> };
      expect([chat.json_schema.strict === true, responses.format.strict === true]).toEqual([strict, strict]);
    });
});
