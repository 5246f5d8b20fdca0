// The runtime's budget beyond turns and tokens: `maxToolCalls` and `maxWallMs` (on the runtime's clock, a
// virtual one here) are checked live before each model call; the limit stops the handle `incomplete` naming
// it, never a silent `done`, with the work it did kept (its tool calls ran once each, its transcript is there).
import { defineTool, memoryStorage, type GenerateRequest } from "toolnexus";
import { agent, createAgentRuntime } from "toolnexus/agents";
import { describe, expect, it } from "vitest";
import { clientOn, type Counts } from "./support";

/** A worker whose model calls `lookup` every turn; each call advances the virtual clock by `stepMs`. */
function looping(budget: { maxToolCalls?: number; maxWallMs?: number; maxTurns?: number }, stepMs = 0) {
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
  const worker = agent("worker", { does: "looks things up", model: "m-loop", tools: [lookup], budget });
  const script = { "m-loop": (_r: GenerateRequest) => ({ toolCalls: [{ name: "lookup", arguments: {} }] }) };
  const counts: Counts = { calls: {}, booked: [] };
  const client = clientOn(memoryStorage(), counts, script);
  const rt = createAgentRuntime({ agents: [worker], client, clock: { now: () => now } });
  return { rt, ran, counts };
}

describe("createAgentRuntime: maxToolCalls and maxWallMs", () => {
  it("maxToolCalls: the turn after the limit is refused; incomplete, the calls made kept", async () => {
    const { rt, ran, counts } = looping({ maxToolCalls: 2, maxTurns: 10 });
    const h = rt.spawn("root", "worker");
    rt.wake(h, "go");
    const r = await rt.wait(h);
    expect(r).toMatchObject({
      status: "incomplete",
      isError: true,
      text: "budget exhausted (maxToolCalls); partial work preserved",
    });
    expect(ran).toHaveLength(2);
    expect(counts.calls["m-loop"]).toBe(2);
    const tools = (h.transcript as { role: string; content?: unknown }[]).filter((m) => m.role === "tool");
    expect(tools.map((m) => m.content)).toEqual(["found 1", "found 2"]);
    // a wake after the limit is refused at once, running nothing
    rt.wake(h, "more");
    expect((await rt.wait(h)).text).toBe("budget exhausted (maxToolCalls); partial work preserved");
    expect(ran).toHaveLength(2);
  });

  it("maxWallMs on the runtime's clock: past it the next turn is refused; incomplete, the work kept", async () => {
    const { rt, ran } = looping({ maxWallMs: 1_000, maxTurns: 10 }, 600);
    const h = rt.spawn("root", "worker");
    rt.wake(h, "go");
    const r = await rt.wait(h);
    expect(r).toMatchObject({ status: "incomplete", text: "budget exhausted (maxWallMs); partial work preserved" });
    expect(ran).toEqual([1_000, 1_600]);
    expect((h.transcript as { role: string }[]).filter((m) => m.role === "tool")).toHaveLength(2);
  });

  it("without those limits, maxTurns still ends the run as before", async () => {
    const { rt, ran } = looping({ maxTurns: 3 });
    const h = rt.spawn("root", "worker");
    rt.wake(h, "go");
    expect((await rt.wait(h)).text).toBe("budget exhausted (maxTurns); partial work preserved");
    expect(ran).toHaveLength(3);
  });
});
