// Telemetry on agent runs: each level's run is an `invoke_agent <name>` span carrying gen_ai.agent.name, nested
// under its parent's `execute_tool task` span (open while the task runs), and a level resumed after the halt
// reads as its own `invoke_agent <name>` again — still under its parent's `execute_tool task`, and linked to the
// span of its own halted run.
import { answerApproval, memoryStorage, type PendingResult } from "toolnexus";
import { createAgentRuntime } from "toolnexus/agents";
import { otelTelemetry } from "toolnexus/otel";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { memoryTracer } from "../otel/support";
import { clientOn, scripts, world } from "./support";

/** The span `s` is a child of, among `spans`. */
const parentOf = (spans: readonly ReadableSpan[], s: ReadableSpan): ReadableSpan | undefined =>
  spans.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);

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

  it("a child's invoke_agent is a child of its parent's execute_tool task, before and after the halt", async () => {
    const memory = memoryTracer();
    const w = world();
    const client = () =>
      clientOn(w.storage, w.counts, undefined, { telemetry: otelTelemetry({ tracer: memory.tracer }) });
    const p = (await w.coordinator.run("dinner", { client: client() })) as PendingResult;
    const first = [...memory.spans()];
    const chain = (name: string, spans: readonly ReadableSpan[]) => {
      const child = spans.find((s) => s.name === `invoke_agent ${name}`)!;
      const tool = parentOf(spans, child);
      return { child, tool, run: tool && parentOf(spans, tool) };
    };
    for (const [name, above] of [
      ["planner", "coordinator"],
      ["booker", "planner"],
    ] as const) {
      const { child, tool, run } = chain(name, first);
      expect(tool?.name, name).toBe("execute_tool task");
      expect(run?.name, name).toBe(`invoke_agent ${above}`);
      expect(child.spanContext().traceId).toBe(run?.spanContext().traceId);
    }
    // the booker's own book_table span is under the booker's run, not under a task span
    const book = first.find((s) => s.name === "execute_tool book_table")!;
    expect(parentOf(first, book)?.name).toBe("invoke_agent booker");

    await w.coordinator.resume(p.runId, answerApproval(p.pending.id), { client: client() });
    const later = memory.spans().slice(first.length);
    for (const [name, above] of [
      ["planner", "coordinator"],
      ["booker", "planner"],
    ] as const) {
      const { child, tool, run } = chain(name, later);
      expect(tool?.name, `resumed ${name}`).toBe("execute_tool task");
      expect(run?.name, `resumed ${name}`).toBe(`invoke_agent ${above}`);
      // linked to its own halted run's span
      const halted = first.find((s) => s.name === `invoke_agent ${name}`)!;
      expect(child.links.map((l) => l.context.spanId)).toEqual([halted.spanContext().spanId]);
    }
    // the whole story is one trace
    expect(new Set(memory.spans().map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it("in the runtime too: a task's child runs under the execute_tool task span of the call that waits on it", async () => {
    const memory = memoryTracer();
    const w = world();
    const telemetry = otelTelemetry({ tracer: memory.tracer });
    const client = clientOn(memoryStorage(), w.counts, scripts, { telemetry });
    const rt = createAgentRuntime({ agents: [w.planner, w.explore, w.booker], client });
    const h = rt.spawn("root", "planner");
    rt.wake(h, "dinner");
    expect((await rt.wait(h)).status).toBe("pending");
    const spans = memory.spans();
    const booker = spans.find((s) => s.name === "invoke_agent booker")!;
    const task = parentOf(spans, booker);
    expect(task?.name).toBe("execute_tool task");
    expect(parentOf(spans, task!)?.name).toBe("invoke_agent planner");
  });
});
