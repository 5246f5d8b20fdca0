// Telemetry on agent runs: each level's run is an `invoke_agent <name>` span carrying gen_ai.agent.name, and
// a level resumed after the halt reads as its own `invoke_agent <name>` again.
import { answerApproval, type PendingResult } from "toolnexus";
import { otelTelemetry } from "toolnexus/otel";
import { describe, expect, it } from "vitest";
import { memoryTracer } from "../otel/support";
import { clientOn, world } from "./support";

describe("agent runs in telemetry", () => {
  it("an invoke_agent <name> span per agent run, halted and resumed", async () => {
    const memory = memoryTracer();
    const w = world();
    const client = () =>
      clientOn(w.storage, w.counts, undefined, { telemetry: otelTelemetry({ tracer: memory.tracer }) });
    const p = (await w.planner.run("dinner", { client: client() })) as PendingResult;
    const halted = memory.spans().filter((s) => s.name.startsWith("invoke_agent"));
    expect(halted.map((s) => s.name).sort()).toEqual(["invoke_agent booker", "invoke_agent planner"]);
    expect(halted.map((s) => s.attributes["gen_ai.agent.name"]).sort()).toEqual(["booker", "planner"]);
    await w.planner.resume(p.runId, answerApproval(p.pending.id), { client: client() });
    const all = memory.spans().filter((s) => s.name.startsWith("invoke_agent"));
    expect(all.map((s) => s.name).sort()).toEqual([
      "invoke_agent booker",
      "invoke_agent booker",
      "invoke_agent planner",
      "invoke_agent planner",
    ]);
  });
});
