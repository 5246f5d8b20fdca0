// The family's five shared sub-agent fixtures (test/fixtures/family, MIT, never edited), played against
// createAgentRuntime in every runtime: per-handle transition traces, results, usage, gates and budgets as
// each fixture's `expect` says.
import { describe, expect, it } from "vitest";
import { createAgentRuntime, type AgentRuntime } from "toolnexus/agents";
import budgets from "../../fixtures/family/subagent-budgets/fixture.json" with { type: "json" };
import durable from "../../fixtures/family/subagent-durable-resume/fixture.json" with { type: "json" };
import escalation from "../../fixtures/family/subagent-escalation/fixture.json" with { type: "json" };
import fanout from "../../fixtures/family/subagent-fanout/fixture.json" with { type: "json" };
import lifecycle from "../../fixtures/family/subagent-lifecycle/fixture.json" with { type: "json" };
import { agentsOf, clientFor, mockLLM, sameTransitions, transitions, type Json } from "./family-runner";

const fixtures: Record<string, Json> = {
  "subagent-budgets": budgets,
  "subagent-durable-resume": durable,
  "subagent-escalation": escalation,
  "subagent-fanout": fanout,
  "subagent-lifecycle": lifecycle,
};

const clock = { now: () => 0 }; // a virtual clock: nothing here reads the time

function setUp(fixture: Json, runtime: Json = {}, override: Json = {}, extra = {}) {
  const llm = mockLLM(fixture.mockLLM.$ref ? fixtures["subagent-escalation"]!.mockLLM : fixture.mockLLM, fixtures);
  const rt = createAgentRuntime({
    agents: agentsOf(fixture, override, extra),
    client: clientFor(llm),
    clock,
    ...runtime,
  });
  return { llm, rt };
}

/** `coordinator/peer` or `root/coordinator.1/explore.2` as a handle id. */
function idOf(rt: AgentRuntime, ref: string): string {
  if (ref === "root" || ref.startsWith("root/")) return ref;
  let id = "root";
  for (const name of ref.split("/")) id = rt.inspect(id).children.find((c) => rt.inspect(c).agent === name)!;
  return id;
}

async function wakeWait(rt: AgentRuntime, id: string, prompt?: string) {
  rt.wake(id, prompt);
  return rt.wait(id);
}

function expectTransitions(rt: AgentRuntime, expected: Record<string, string[]>) {
  for (const [id, list] of Object.entries(expected))
    expect(sameTransitions(transitions(rt.trace, id), list), `${id}: ${transitions(rt.trace, id).join(", ")}`).toBe(
      true,
    );
}

describe("the family's fixtures", () => {
  it("subagent-fanout: two task calls run concurrently; two tool messages; usage 240 rolls up; children closed", async () => {
    const { llm, rt } = setUp(fanout);
    const h = rt.spawn("root", fanout.run.entry);
    const r = await wakeWait(rt, h.id, fanout.run.prompt);
    const x = fanout.expect;
    expect(r.status).toBe(x.status);
    for (const s of x.textContains) expect(r.text).toContain(s);
    expect(r.text.split("found:").length - 1).toBe(x.textOccurrences["found:"]);
    expect(rt.inspect(h).spent.turns).toBe(x.parentTurns);
    expect(rt.inspect(h).children).toEqual(x.childIds);
    expect(llm.maxInFlight).toBeGreaterThanOrEqual(x.concurrentTurnsObservedAtLeast);
    expect(rt.inspect(h).spent.tokens).toBe(x.parentUsageTotal);
    for (const c of x.childIds) expect(rt.inspect(c).state).toBe("closed");
    expectTransitions(rt, x.transitions);
  });

  it("subagent-escalation: the parent's waitFor answers the child's approval inline", async () => {
    const asked: unknown[] = [];
    const { rt } = setUp(
      escalation,
      {},
      {},
      {
        approverParent: {
          waitFor: async (request: { id: string; data?: Json }) => (
            asked.push(request.data?.path), { id: request.id, ok: true }
          ),
        },
      },
    );
    const h = rt.spawn("root", escalation.run.entry);
    const r = await wakeWait(rt, h.id, escalation.run.prompt);
    expect(r.status).toBe(escalation.expect.status);
    for (const s of escalation.expect.textContains) expect(r.text).toContain(s);
    expect(asked).toEqual([["root", "approverParent.1", "asker.1"]]);
    expect(h.id).toBe(escalation.expect.escalation.answeredBy);
    expectTransitions(rt, escalation.expect.transitions);
  });

  it("subagent-durable-resume: root pending with data.path; the answer resumes the leaf; the parent reattaches", async () => {
    const { llm, rt } = setUp(durable);
    const h = rt.spawn("root", durable.run.entry);
    const r = await wakeWait(rt, h.id, durable.run.prompt);
    expect(r.status).toBe(durable.phase1_expect.status);
    expect(r.pending?.kind).toBe(durable.phase1_expect.pendingKind);
    const path = (r.pending!.data!.path as string[]).join("/");
    expect(path.startsWith(durable.phase1_expect.pendingDataPathEndsWithin)).toBe(true);
    for (const x of rt.list()) expect(x.state).toBe(durable.phase1_expect.allHandles);
    const leaf = "root/approverParent.1/asker.1";
    const before = {
      tokens: rt.inspect(leaf).spent.tokens,
      turns: rt.inspect(leaf).spent.turns,
      calls: llm.calls["m-asker"],
    };
    const done = await rt.resume({ id: r.pending!.id, ...durable.resume.answer } as never);
    expect(done.status).toBe("done");
    // at its checkpoint: one more model call (its next turn), never the halted one again; usage grew
    expect(llm.calls["m-asker"]).toBe(before.calls! + 1);
    expect(rt.inspect(leaf).spent.tokens).toBeGreaterThan(before.tokens);
    expect(rt.inspect(leaf).spent.turns).toBeGreaterThan(before.turns);
    for (const s of durable.phase2_expect.traceContains) expect(rt.trace.some((l) => l.includes(s))).toBe(true);
    expect(rt.list().map((x) => x.id)).toEqual([h.id, leaf]);
    expect(rt.inspect(h).state).toBe(durable.phase2_expect.finalParentState);
    expectTransitions(rt, durable.phase2_expect.transitions);
  });

  it("subagent-budgets: carve, maxChildren, the live chain walk and a loud maxTurns cap", async () => {
    const { rt } = setUp(budgets);
    let last: Json | undefined;
    for (const step of budgets.steps as Json[]) {
      const x = step.expect ?? {};
      if (step.spawn) {
        const s = step.spawn;
        const go = () => rt.spawn(idOf(rt, s.parent), s.def, s.budget);
        if (x.isError) {
          expect(go).toThrow(x.isError);
          continue;
        }
        last = go();
        if (x.effectiveTokens !== undefined) expect(rt.inspect(last.id).budget.maxTokens).toBe(x.effectiveTokens);
      } else {
        const id = idOf(rt, step.wakeWait.handle);
        const r = await wakeWait(rt, id, step.wakeWait.prompt);
        expect(r.status, JSON.stringify(step)).toBe(x.status);
        if (x.errorContains) expect(r.text).toContain(x.errorContains);
        if (x.parentPoolAfter !== undefined) {
          const p = rt.inspect(idOf(rt, "coordinator"));
          expect(p.budget.maxTokens! - p.spent.tokens).toBe(x.parentPoolAfter);
        }
      }
    }
  });
});

describe("the family's lifecycle fixture", () => {
  const sc = lifecycle.scenarios as Json;

  it("coalescedDrain: one wake drains the inbox as one block with provenance; ticks coalesce", async () => {
    const { rt } = setUp(lifecycle);
    const h = rt.spawn("root", "peer");
    for (const step of sc.coalescedDrain.steps as Json[]) {
      if (step.post) rt.post(h, { text: step.post.text, from: step.post.from, channel: step.post.channel });
    }
    const r = await wakeWait(rt, h.id);
    expect(rt.inspect(h).spent.turns).toBe(sc.coalescedDrain.expect.turns);
    expect(r.text).toBe(sc.coalescedDrain.expect.text);
  });

  it("inboxGate: past the cap a post is refused at once, loudly", () => {
    const { rt } = setUp(lifecycle, sc.inboxGate.runtime);
    const h = rt.spawn("root", "peer");
    for (const step of sc.inboxGate.steps as Json[]) {
      if (step.expect?.rejected) expect(() => rt.post(h, step.post.text)).toThrow(step.expect.errorContains);
      else rt.post(h, step.post.text);
    }
    expect(() => rt.post(h, "4")).toThrow(`inbox full: ${h.id} (cap 2)`);
  });

  it("concurrencyGate: the second child's wake queues, then takes the freed slot", async () => {
    const { rt } = setUp(lifecycle, {}, sc.concurrencyGate.registryOverride);
    const h = rt.spawn("root", sc.concurrencyGate.run.entry);
    const r = await wakeWait(rt, h.id, sc.concurrencyGate.run.prompt);
    expect(r.status).toBe(sc.concurrencyGate.expect.status);
    for (const s of sc.concurrencyGate.expect.traceContains) expect(rt.trace.some((l) => l.includes(s))).toBe(true);
  });

  it("turnGate: one model call at a time, and a parent delegating to its children never deadlocks", async () => {
    const { llm, rt } = setUp(lifecycle, sc.turnGate.runtime);
    const h = rt.spawn("root", sc.turnGate.run.entry);
    const r = await wakeWait(rt, h.id, sc.turnGate.run.prompt);
    expect(r.status).toBe(sc.turnGate.expect.status);
    expect(llm.maxInFlight).toBe(sc.turnGate.expect.maxObservedConcurrentTurns);
  });

  it("interrupt: aborts the turn, not the handle; the drained item is back in the inbox", async () => {
    const { rt } = setUp(lifecycle);
    const h = rt.spawn("root", "slow");
    rt.post(h, "for later");
    rt.wake(h, "work slowly");
    const waiter = rt.wait(h);
    expect(rt.inspect(h).state).toBe("running");
    await rt.interrupt(h);
    const x = sc.interrupt.expect;
    expect((await waiter).status).toBe(x.waiterStatus);
    expect(rt.inspect(h).state).toBe(x.finalState);
    expect(rt.inspect(h).inbox).toBe(x.inboxLen);
  });

  it("closeCascade: close(root) closes leaf-first; a post after close is refused", async () => {
    const order: string[] = [];
    const onClose = (id: string) => void order.push(id);
    const { rt } = setUp(lifecycle, {}, {}, { coordinator: { onClose }, peer: { onClose } });
    for (const path of sc.closeCascade.tree as string[]) {
      const parts = path.split("/");
      rt.spawn(parts.length === 1 ? "root" : idOf(rt, parts.slice(0, -1).join("/")), parts.at(-1)!);
    }
    const ids = (sc.closeCascade.tree as string[]).map((p) => idOf(rt, p));
    await rt.close(rt.root);
    expect(order).toEqual([...ids].reverse()); // grandchild, child, parent
    expect(() => rt.post(ids[1]!, "late")).toThrow("closed");
    for (const id of ids) expect(rt.inspect(id).state).toBe("closed");
  });
});
