// What a suspension costs in JSON: a halt → resume serializes the whole record once (the halt) and parses it
// once (the resume's load); the claim, the checkpoints and the kept outcome edit the stored text instead.
import { answerOutput, createClient, defineTool, memoryStorage, pending } from "toolnexus";
import { describe, expect, it } from "vitest";
import { scripted } from "../../support/scripted";

const base = { baseUrl: "https://llm.test/v1", model: "m", apiKey: "sk-test" } as const;

/** A whole run record: an object with its head fields, or the text of one. */
const isRecord = (value: unknown): boolean =>
  typeof value === "string"
    ? value.startsWith('{"v":1,"runId":')
    : typeof value === "object" && value !== null && (value as { v?: unknown }).v === 1 && "runId" in value;

/** Counts JSON.stringify and JSON.parse calls on whole run records while `fn` runs. */
async function counting(fn: () => Promise<void>): Promise<{ stringify: number; parse: number }> {
  const counts = { stringify: 0, parse: 0 };
  const { stringify, parse } = JSON;
  JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
    if (isRecord(value)) counts.stringify++;
    return (stringify as (...a: unknown[]) => string)(value, ...rest);
  }) as typeof JSON.stringify;
  JSON.parse = ((text: string, ...rest: unknown[]) => {
    if (isRecord(text)) counts.parse++;
    return (parse as (...a: unknown[]) => unknown)(text, ...rest);
  }) as typeof JSON.parse;
  try {
    await fn();
  } finally {
    JSON.stringify = stringify;
    JSON.parse = parse;
  }
  return counts;
}

describe("the cost of a suspension", () => {
  for (const style of ["openai", "anthropic"] as const) {
    it(`a halt → resume does one full stringify and one full parse of the record (${style})`, async () => {
      const history = Array.from({ length: 100 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `m${i}` }));
      const deploy = defineTool({
        name: "deploy",
        description: "Deploys after a human approves",
        execute: async (_a, ctx) =>
          ctx.answer ? "deployed" : pending({ kind: "approval", id: "q", prompt: "Deploy?" }),
      });
      const s = scripted(style, [{ calls: [{ name: "deploy" }] }, { text: "Deployed." }]);
      const client = createClient({ ...base, style, fetch: s.fetch, storage: memoryStorage() });
      let text = "";
      const counts = await counting(async () => {
        const halted = await client.run("deploy it", { toolkit: [deploy], history });
        expect(halted.status).toBe("pending");
        const runId = (halted as { runId: string }).runId;
        text = (await client.resume(runId, answerOutput("q", "yes"), { toolkit: [deploy] })).text;
      });
      expect(text).toBe("Deployed.");
      expect(counts).toEqual({ stringify: 1, parse: 1 });
    });
  }
});
