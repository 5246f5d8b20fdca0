// RunOptions.runId: a caller (the edge handler) chooses a new run's id; an id that is not one is a
// ConfigError showing what it got, and the model is never called.
import { describe, expect, it } from "vitest";
import { createInProcessClient, defineTool, isToolnexusError, pending } from "toolnexus";

const ask = defineTool({
  name: "ask",
  description: "asks",
  execute: async (_args, ctx) => (ctx.answer ? "ok" : pending({ kind: "question", prompt: "Which?" })),
});

function client() {
  let calls = 0;
  const c = createInProcessClient({
    model: "m",
    generate: () => (calls++, { toolCalls: [{ id: "c1", name: "ask", arguments: {} }] }),
  });
  return { c, calls: () => calls };
}

describe("RunOptions.runId", () => {
  it("names the new run: the halted run is stored, inspected and resumed under it", async () => {
    const { c } = client();
    const runId = `run-${crypto.randomUUID()}`;
    const result = await c.run("which?", { toolkit: [ask], runId });
    expect(result).toMatchObject({ status: "pending", runId });
    expect(await c.inspect(runId)).toMatchObject({ status: "pending" });
  });

  for (const bad of ["short", "has space in it", "x".repeat(129), 42]) {
    it(`refuses ${JSON.stringify(bad).slice(0, 20)} with a ConfigError, calling no model`, async () => {
      const { c, calls } = client();
      const error = await c.run("which?", { toolkit: [ask], runId: bad as string }).catch((e: unknown) => e);
      expect(isToolnexusError(error) && error.code).toBe("config");
      expect((error as Error).message).toContain("runId must be 8 to 128");
      expect(calls()).toBe(0);
    });
  }
});
