// run(prompt, { output }): the final answer asked for in the provider's structured-output mode, validated,
// and returned typed as result.output — on every wire, run and stream; an answer that does not fit is an
// OutputError carrying the raw text. A resume keeps the schema the run was started with, or uses its own.
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import * as z from "zod";
import { answerOutput, createClient, defineTool, jsonSchema, memoryStorage, OutputError, pending } from "toolnexus";
import { ALL_STYLES, MODES } from "../../support/drive";
import { scripted } from "../../support/scripted";

const city = jsonSchema<{ city: string; tempC: number }>({
  type: "object",
  properties: { city: { type: "string" }, tempC: { type: "number" } },
  required: ["city", "tempC"],
  additionalProperties: false,
});
const ANSWER = '{"city":"Chennai","tempC":31}';

/** Where each wire asks for structured output in its request body, and what it sends there for `schema`. */
const ASKED: Record<(typeof ALL_STYLES)[number], (schema: unknown) => [field: string, value: unknown]> = {
  openai: (schema) => [
    "response_format",
    { type: "json_schema", json_schema: { name: "output", schema, strict: true } },
  ],
  "openai-responses": (schema) => ["text", { format: { type: "json_schema", name: "output", schema, strict: true } }],
  anthropic: (schema) => ["output_config", { format: { type: "json_schema", schema } }],
  gemini: (schema) => ["generationConfig", { responseMimeType: "application/json", responseJsonSchema: schema }],
};

for (const style of ALL_STYLES) {
  for (const mode of MODES) {
    describe(`output (${style}, ${mode})`, () => {
      const base = { baseUrl: "http://127.0.0.1:9", style, model: "m", apiKey: "k" };

      async function outputOf(text: string, output: Parameters<typeof jsonSchema>[0] | v.GenericSchema | z.ZodType) {
        const s = scripted(style, [{ text }]);
        const client = createClient({ ...base, fetch: s.fetch });
        if (mode === "run") {
          const result = await client.run("weather?", { output });
          return { result, body: s.bodies[0]! };
        }
        let result: unknown;
        for await (const e of client.stream("weather?", { output })) if (e.type === "done") result = e.result;
        return { result: result as { status: string; output?: unknown }, body: s.bodies[0]! };
      }

      it("asks in the provider's structured-output mode and returns the validated output", async () => {
        const { result, body } = await outputOf(ANSWER, city);
        expect(result.status).toBe("done");
        expect(result.status === "done" && result.output).toEqual({ city: "Chennai", tempC: 31 });
        const [field, value] = ASKED[style](city);
        expect(body[field]).toEqual(value);
      });

      it("valibot and zod schemas work too (their output, defaults included)", async () => {
        const vb = v.object({ city: v.string(), tempC: v.number(), unit: v.optional(v.string(), "C") });
        expect((await outputOf(ANSWER, vb)).result).toMatchObject({
          output: { city: "Chennai", tempC: 31, unit: "C" },
        });
        const zd = z.object({ city: z.string(), tempC: z.number() });
        expect((await outputOf(ANSWER, zd)).result).toMatchObject({ output: { city: "Chennai", tempC: 31 } });
      });

      it("an answer that does not fit is an OutputError carrying the raw text", async () => {
        for (const text of ['{"city":"Chennai"}', "It is 31 degrees in Chennai."]) {
          const error = await outputOf(text, city).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(OutputError);
          expect((error as OutputError).code).toBe("output");
          expect((error as OutputError).text).toBe(text);
        }
      });

      it("without an output schema nothing is asked and there is no output", async () => {
        const s = scripted(style, [{ text: ANSWER }]);
        const result = await createClient({ ...base, fetch: s.fetch }).run("weather?");
        expect(result.status === "done" && "output" in result).toBe(false);
        for (const asked of Object.values(ASKED)) expect(s.bodies[0]![asked(city)[0]]).toBeUndefined();
      });
    });
  }
}

describe("resume honours the run's output schema", () => {
  const base = { baseUrl: "http://127.0.0.1:9", style: "openai", model: "m", apiKey: "k" } as const;
  const ask = defineTool({
    name: "ask_city",
    description: "asks",
    execute: async (_a, ctx) => (ctx.answer ? "asked" : pending({ kind: "input", id: "q", prompt: "Which city?" })),
  });

  /** A run started with `city` as its output, halted on a question; resumed with `opts`, the model answers `text`. */
  async function resumed(text: string, opts: { output?: typeof city | v.GenericSchema } = {}) {
    const s = scripted("openai", [{ calls: [{ name: "ask_city" }] }, { text }]);
    const storage = memoryStorage();
    const halted = await createClient({ ...base, fetch: s.fetch, storage }).run("weather?", {
      output: city,
      toolkit: [ask],
    });
    expect(halted.status).toBe("pending");
    // a new client, as in another process: the schema comes from the stored run
    const client = createClient({ ...base, fetch: s.fetch, storage });
    const runId = (halted as { runId: string }).runId;
    const result = await client.resume(runId, answerOutput("q", "Chennai"), { toolkit: [ask], ...opts });
    return { result, body: s.bodies[1]! };
  }

  it("without an output, checks the final answer against the stored schema and returns result.output", async () => {
    const { result, body } = await resumed(ANSWER);
    expect(result.status === "done" && result.output).toEqual({ city: "Chennai", tempC: 31 });
    expect(JSON.stringify(body)).toContain('"tempC"'); // the resumed turn asked for that schema too
  });

  it("without an output, an answer the stored schema refuses is an OutputError carrying the raw text", async () => {
    const error = await resumed('{"city":"Chennai"}').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputError);
    expect((error as OutputError).message).toContain("tempC");
  });

  it("with an output, uses the one given", async () => {
    const other = v.object({ town: v.string() });
    const { result } = await resumed('{"town":"Chennai"}', { output: other });
    expect(result.status === "done" && result.output).toEqual({ town: "Chennai" });
  });
});
