// Per-agent onMetric, resolved as the family says: an agent's own callback gets its run's metric events in
// place of the one above it (the client's for agent.run, the runtime's for createAgentRuntime) — never merged,
// through a halt and its resume — while client.metrics() still counts every run.
import { answerApproval, memoryStorage, type MetricEvent } from "toolnexus";
import { agent, createAgentRuntime } from "toolnexus/agents";
import { describe, expect, it } from "vitest";
import { clientOn, world, type Counts } from "./support";

/** An event as a line: which model call, tool call or run it reports. */
function line(e: MetricEvent): string {
  if (e.event === "llm") return `llm ${e.model}`;
  if (e.event === "tool") return `tool ${e.tool}${e.pending ? " pending" : ""}`;
  return "run";
}
const sink = () => {
  const lines: string[] = [];
  return { lines, onMetric: (e: MetricEvent) => void lines.push(line(e)) };
};

describe("agent.run: an agent's onMetric", () => {
  it("gets its own run's events, through a halt and a resume; the client's gets the others'", async () => {
    const booker = sink();
    const client = sink();
    const w = world({ booker: { onMetric: booker.onMetric } });
    const on = () => clientOn(w.storage, w.counts, undefined, { onMetric: client.onMetric });
    const first = on();
    const asked = await w.coordinator.run("dinner", { client: first });
    if (asked.status !== "pending") throw new Error(`expected a pending run, got ${asked.status}`);
    expect(booker.lines).toEqual(["llm m-booker", "tool book_table pending", "run"]);
    expect(client.lines).not.toContain("llm m-booker");
    expect(client.lines).toContain("llm m-coord");
    expect(client.lines).toContain("llm m-planner");
    // the client's registry counts the booker's model call all the same
    expect(await first.metrics()).toMatch(/toolnexus_llm_requests_total\{model="m-booker",status="ok"\} 1/);

    booker.lines.length = 0;
    client.lines.length = 0;
    const done = await w.coordinator.resume(asked.runId, answerApproval(asked.pending.id), { client: on() });
    expect(done.status).toBe("done");
    expect(w.counts.booked).toEqual(["friday"]);
    expect(booker.lines).toEqual(["tool book_table", "llm m-booker", "run"]);
    expect(client.lines.filter((l) => l.includes("booker") || l.includes("book_table"))).toEqual([]);
  });

  it("a bad onMetric is refused where it is given", () => {
    expect(() => agent("a", { does: "x", onMetric: 1 as never })).toThrow('agent "a": onMetric must be a function');
    const client = clientOn(memoryStorage(), { calls: {}, booked: [] });
    expect(() => createAgentRuntime({ agents: [], client, onMetric: "no" as never })).toThrow(
      "createAgentRuntime: onMetric must be a function",
    );
  });
});

describe("createAgentRuntime: onMetric per field", () => {
  it("the runtime's gets an agent's events unless the agent has its own, which replaces it", async () => {
    const runtime = sink();
    const own = sink();
    const counts: Counts = { calls: {}, booked: [] };
    const echo = { "m-a": () => ({ content: "a" }), "m-b": () => ({ content: "b" }) };
    const a = agent("a", { does: "x", model: "m-a" });
    const b = agent("b", { does: "y", model: "m-b", onMetric: own.onMetric });
    const client = clientOn(memoryStorage(), counts, echo);
    const rt = createAgentRuntime({ agents: [a, b], client, onMetric: runtime.onMetric });
    const ha = rt.spawn("root", "a");
    const hb = rt.spawn("root", "b");
    rt.wake(ha, "go");
    rt.wake(hb, "go");
    expect((await rt.wait(ha)).status).toBe("done");
    expect((await rt.wait(hb)).status).toBe("done");
    expect(runtime.lines).toEqual(["llm m-a", "run"]);
    expect(own.lines).toEqual(["llm m-b", "run"]);
  });
});
