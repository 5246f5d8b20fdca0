// Per-run requestParams merged over the client's, and strict structured output on OpenAI.
import { describe, expect, it } from "vitest";
import { answerOutput, createClient, defineTool, type JSONSchema, jsonSchema, memoryStorage, pending } from "toolnexus";
import { replay } from "../../support/replay";

const DONE = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: '{"city":"Paris"}' } }] });
const base = { baseUrl: "http://127.0.0.1:9", style: "openai" as const, model: "m", apiKey: "sk-test", retries: 0 };

describe("per-run requestParams", () => {
  it("are merged over the client's for that run only; the run's keys win", async () => {
    const played = replay([{ body: DONE }, { body: DONE }]);
    const client = createClient({ ...base, fetch: played.fetch, requestParams: { temperature: 0.2, seed: 7 } });
    await client.run("a", { requestParams: { temperature: 0.9, top_p: 0.5 } });
    await client.run("b");
    expect(played.bodies[0]).toMatchObject({ temperature: 0.9, seed: 7, top_p: 0.5 });
    expect(played.bodies[1]).toMatchObject({ temperature: 0.2, seed: 7 });
    expect(played.bodies[1]).not.toHaveProperty("top_p");
  });

  it("refuse the reserved keys as the client's do (a warning, the body's own value kept)", async () => {
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (message: unknown) => void warned.push(String(message));
    try {
      const played = replay([{ body: DONE }]);
      await createClient({ ...base, fetch: played.fetch }).run("a", { requestParams: { messages: [], stream: true } });
      expect(played.bodies[0]!.messages).toEqual([{ role: "user", content: "a" }]);
      expect(played.bodies[0]).not.toHaveProperty("stream");
      expect(warned.join("\n")).toContain('"messages" is not allowed');
    } finally {
      console.warn = warn;
    }
  });

  for (const bad of ["a string", [1], null])
    it(`anything but an object (${JSON.stringify(bad)}) is a ConfigError and nothing is sent`, async () => {
      const played = replay([{ body: DONE }]);
      const client = createClient({ ...base, fetch: played.fetch });
      await expect(client.run("a", { requestParams: bad as never })).rejects.toMatchObject({
        code: "config",
        option: "requestParams",
      });
      expect(played.bodies).toHaveLength(0);
    });

  it("a resume takes its own requestParams for the resumed calls", async () => {
    const tool = defineTool({
      name: "ask",
      description: "asks",
      execute: (_a, ctx) => (ctx.answer ? "ok" : pending({ kind: "input", prompt: "?", id: "q-1" })),
    });
    const call = JSON.stringify({
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "ask", arguments: "{}" } }],
          },
        },
      ],
    });
    const played = replay([{ body: call }, { body: DONE }]);
    const client = createClient({ ...base, fetch: played.fetch, storage: memoryStorage() });
    const halted = await client.run("a", { toolkit: [tool], requestParams: { temperature: 0 } });
    if (halted.status !== "pending") throw new Error("expected a halt");
    await client.resume(halted.runId, answerOutput("q-1", "x"), { toolkit: [tool], requestParams: { temperature: 1 } });
    expect([played.bodies[0]!.temperature, played.bodies[1]!.temperature]).toEqual([0, 1]);
  });
});

describe("strict structured output on OpenAI", () => {
  const strictSchema = jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  });

  it("asks with strict: true when the schema follows strict mode's rules", async () => {
    const played = replay([{ body: DONE }]);
    const result = await createClient({ ...base, fetch: played.fetch }).run("where?", { output: strictSchema });
    expect(result.status === "done" && result.output).toEqual({ city: "Paris" });
    expect(played.bodies[0]!.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "output", schema: strictSchema, strict: true },
    });
  });

  it("leaves strict out for a schema whose root is open or has an optional field (strict mode refuses both)", async () => {
    const loose: JSONSchema[] = [
      {
        type: "object",
        properties: { city: { type: "string" }, zip: { type: "string" } },
        required: ["city"],
        additionalProperties: false,
      },
      { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    ];
    for (const schema of loose) {
      const played = replay([{ body: DONE }]);
      const result = await createClient({ ...base, fetch: played.fetch }).run("where?", { output: jsonSchema(schema) });
      expect(result.status === "done" && result.output).toEqual({ city: "Paris" });
      expect((played.bodies[0]!.response_format as { json_schema: object }).json_schema).not.toHaveProperty("strict");
    }
  });
});
