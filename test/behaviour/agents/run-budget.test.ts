// The family's budget under agent.run (outside the runtime): `maxToolCalls` of a level, and `maxTokens` and
// `maxWallMs` of the level and every ancestor (on the client's clock, a virtual one here), walked before each
// model call and each spawn, a settled child's tokens rolled up into every ancestor's. A limit reached ends the
// level's run `incomplete` naming it, its work kept; a child's reaches its parent's model as `[incomplete] …`.
import { defineTool, memoryStorage, type GenerateRequest } from "toolnexus";
import { agent, type Budget } from "toolnexus/agents";
import { describe, expect, it } from "vitest";
import { clientOn, toolMessages, type Counts } from "./support";

const lastUser = (req: GenerateRequest): string =>
  String((req.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)?.content);

/** A worker whose model calls `lookup` every turn (each call moves the clock by `stepMs`), under a lead. */
function looping(worker: Budget, lead: Budget = {}, stepMs = 0) {
  let now = 1_000;
  const ran: number[] = [];
  const lookup = defineTool({
    name: "lookup",
    description: "looks something up",
    execute: async () => {
      ran.push(now);
      now += stepMs;
      return `found ${ran.length}`;
    },
  });
  const w = agent("worker", { does: "looks things up", model: "m-loop", tools: [lookup], budget: worker });
  const l = agent("lead", { does: "leads", model: "m-lead", team: [w], budget: lead });
  const script = {
    "m-loop": () => ({ toolCalls: [{ name: "lookup", arguments: {} }] }),
    "m-lead": (_req: GenerateRequest, tools: string[]) =>
      tools.length === 0
        ? { toolCalls: [{ id: "t1", name: "task", arguments: { agent: "worker", prompt: "go" } }] }
        : { content: `lead: ${tools.join(" + ")}` },
  };
  const counts: Counts = { calls: {}, booked: [] };
  const client = clientOn(memoryStorage(), counts, script, { clock: { now: () => now } });
  return { worker: w, lead: l, client, ran, counts };
}

describe("agent.run: budgets beyond maxTurns", () => {
  it("maxToolCalls: the model call after the limit is refused; incomplete naming it, the calls made kept", async () => {
    const t = looping({ maxToolCalls: 2, maxTurns: 10 });
    const r = await t.worker.run("go", { client: t.client });
    expect(r.status).toBe("incomplete");
    expect(r.text).toBe("budget exhausted (maxToolCalls); partial work preserved");
    expect(t.ran).toHaveLength(2);
    expect(t.counts.calls["m-loop"]).toBe(2);
    expect(r.messages.filter((m) => (m as { role: string }).role === "tool")).toHaveLength(2);
  });

  it("a child's limit reaches its parent's model as [incomplete] budget exhausted (…)", async () => {
    const t = looping({ maxToolCalls: 1, maxTurns: 10 });
    const r = await t.lead.run("plan", { client: t.client });
    expect(r.status).toBe("done");
    expect(r.text).toBe("lead: [incomplete] budget exhausted (maxToolCalls); partial work preserved");
    expect(t.ran).toHaveLength(1);
  });

  it("maxWallMs of an ancestor, on the client's clock: the child's turn past it is refused", async () => {
    const t = looping({ maxTurns: 10 }, { maxWallMs: 1_000 }, 600);
    const r = await t.lead.run("plan", { client: t.client });
    // the worker's third model call (at 2 200 ms) is past the lead's second: refused; so is the lead's next turn
    expect(r.status).toBe("incomplete");
    expect(r.text).toBe("budget exhausted (maxWallMs); partial work preserved");
    const tools = r.messages.filter((m) => (m as { role: string }).role === "tool");
    expect(tools.map((m) => (m as { content: unknown }).content)).toEqual([
      "[incomplete] budget exhausted (maxWallMs); partial work preserved",
    ]);
    expect(t.ran).toEqual([1_000, 1_600]);
    expect(t.counts.calls["m-loop"]).toBe(2);
  });

  it("maxTokens rolls up: a settled sibling drains the pool, the other's next model call is refused", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({
      name: "lookup",
      description: "waits until the sibling settled",
      execute: async () => (await gate, "found"),
    });
    const explore = agent("explore", {
      does: "explores",
      model: "m-explore",
      tools: [slow],
      onClose: () => release(),
    });
    const lead = agent("lead", { does: "leads", model: "m-lead", team: [explore], budget: { maxTokens: 10 } });
    const script = {
      "m-lead": (_req: GenerateRequest, tools: string[]) =>
        tools.length === 0
          ? {
              toolCalls: [
                { id: "a", name: "task", arguments: { agent: "explore", prompt: "a" } },
                { id: "b", name: "task", arguments: { agent: "explore", prompt: "b" } },
              ],
            }
          : { content: `lead: ${tools.join(" + ")}` },
      "m-explore": (req: GenerateRequest) =>
        lastUser(req) === "a" || toolMessages(req).length > 0
          ? { content: `explored ${lastUser(req)}` }
          : { toolCalls: [{ id: "l", name: "lookup", arguments: {} }] },
    };
    const counts: Counts = { calls: {}, booked: [] };
    const r = await lead.run("plan", { client: clientOn(memoryStorage(), counts, script) });
    // a spent 10 tokens and settled: the lead's pool is drained — b's second model call and the lead's next
    // turn are refused, each incomplete naming the limit
    expect(r.status).toBe("incomplete");
    expect(r.text).toBe("budget exhausted (maxTokens); partial work preserved");
    const tools = r.messages
      .filter((m) => (m as { role: string }).role === "tool")
      .map((m) => String((m as { content: unknown }).content));
    expect(tools).toEqual(["explored a", "[incomplete] budget exhausted (maxTokens); partial work preserved"]);
    expect(counts.calls).toEqual({ "m-lead": 1, "m-explore": 2 });
  });

  it("a spawn once the pool is drained is refused at once", async () => {
    const explore = agent("explore", { does: "explores", model: "m-explore" });
    const lead = agent("lead", { does: "leads", model: "m-lead", team: [explore], budget: { maxTokens: 10 } });
    const script = {
      "m-lead": (_req: GenerateRequest, tools: string[]) =>
        tools.length < 2
          ? { toolCalls: [{ id: `t${tools.length}`, name: "task", arguments: { agent: "explore", prompt: "x" } }] }
          : { content: `lead: ${tools.join(" + ")}` },
      "m-explore": () => ({ content: "explored" }),
    };
    const counts: Counts = { calls: {}, booked: [] };
    const r = await lead.run("plan", { client: clientOn(memoryStorage(), counts, script) });
    // the first child spent the pool; the lead's second model call is refused before it can spawn again
    expect(r.text).toBe("budget exhausted (maxTokens); partial work preserved");
    expect(counts.calls).toEqual({ "m-lead": 1, "m-explore": 1 });
  });
});
