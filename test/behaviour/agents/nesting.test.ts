// Three levels (coordinator → planner → booker): the leaf's approval becomes the root run's own open request
// with data.path; the answer — through a JSON round trip, from a fresh client on the same storage — resumes the
// leaf at its checkpoint; each level re-runs only the call that asked (no model call of a halted turn again,
// no tool twice); approve, decline and expire reach the leaf as for any tool.
import { AnswerMismatchError, answerDeclined, answerOutput, type Answer, type PendingResult } from "toolnexus";
import { describe, expect, it } from "vitest";
import { clientOn, world } from "./support";

const roundTrip = (a: Answer): Answer => JSON.parse(JSON.stringify(a));

describe("three levels of agents, halted and resumed durably", () => {
  it("the leaf's request reaches the root with data.path; a fresh client's answer resumes it, nothing twice", async () => {
    const w = world();
    const r = await w.coordinator.run("dinner on Friday", { client: clientOn(w.storage, w.counts) });
    expect(r.status).toBe("pending");
    const p = r as PendingResult;
    expect(p.pending.kind).toBe("approval");
    expect(p.pending.data?.path).toEqual(["root", "coordinator.1", "planner.1", "booker.1"]);
    expect(p.requests).toHaveLength(1);
    expect(w.counts.booked).toEqual([]);
    const before = { ...w.counts.calls };
    expect(before).toEqual({ "m-coord": 1, "m-planner": 1, "m-booker": 1 });

    const answer = roundTrip(answerOutput(p.pending.id, "yes"));
    const done = await w.coordinator.resume(p.runId, answer, { client: clientOn(w.storage, w.counts) });
    expect(done.status).toBe("done");
    expect(done.text).toBe("coord: planned: booker: table booked for friday");
    expect(w.counts.booked).toEqual(["friday"]);
    // each level's model was asked once more (its next turn), never again for the halted turn
    expect(w.counts.calls).toEqual({ "m-coord": 2, "m-planner": 2, "m-booker": 2 });
    // usage rolls up: six model calls of 10 tokens
    expect(done.usage.totalTokens).toBe(60);
  });

  it("the same answer again returns the kept outcome; two resumes racing run the booking once", async () => {
    const w = world();
    const p = (await w.coordinator.run("dinner", { client: clientOn(w.storage, w.counts) })) as PendingResult;
    const answer = answerOutput(p.pending.id, "yes");
    const settled = await Promise.allSettled([
      w.coordinator.resume(p.runId, answer, { client: clientOn(w.storage, w.counts) }),
      w.coordinator.resume(p.runId, roundTrip(answer), { client: clientOn(w.storage, w.counts) }),
    ]);
    expect(settled.some((s) => s.status === "fulfilled" && s.value.status === "done")).toBe(true);
    for (const s of settled)
      if (s.status === "rejected") expect((s.reason as { code: string }).code).toBe("run_conflict");
    const again = await w.coordinator.resume(p.runId, answer, { client: clientOn(w.storage, w.counts) });
    expect(again.status).toBe("done");
    expect(again.text).toContain("table booked for friday");
    expect(w.counts.booked).toEqual(["friday"]);
    expect(w.counts.calls["m-booker"]).toBe(2);
  });

  it("a decline reaches the leaf's tool as for any tool: it never runs, the model hears declined", async () => {
    const w = world();
    const p = (await w.coordinator.run("dinner", { client: clientOn(w.storage, w.counts) })) as PendingResult;
    const done = await w.coordinator.resume(p.runId, roundTrip(answerDeclined(p.pending.id)), {
      client: clientOn(w.storage, w.counts),
    });
    expect(done.status).toBe("done");
    expect(done.text).toMatch(/^coord: planned: booker: declined\/expired: /);
    expect(w.counts.booked).toEqual([]);
  });

  it("past its expiresAt an ok answer counts as expired at every level: the leaf's tool never runs", async () => {
    const w = world({ booker: { tools: [] } });
    const { defineTool, pending } = await import("toolnexus");
    const ask = defineTool({
      name: "book_table",
      description: "asks, with a deadline already past",
      execute: (_args, ctx) =>
        ctx.answer
          ? (w.counts.booked.push("ran"), "ran")
          : pending({ kind: "input", prompt: "Which time?", expiresAt: new Date(Date.now() - 1000).toISOString() }),
    });
    const booker = (await import("toolnexus/agents")).agent("booker", {
      does: "books",
      model: "m-booker",
      tools: [ask],
    });
    const planner = (await import("toolnexus/agents")).agent("planner", {
      does: "plans",
      model: "m-planner",
      team: [booker],
    });
    const p = (await planner.run("dinner", { client: clientOn(w.storage, w.counts) })) as PendingResult;
    expect(p.pending.data?.path).toEqual(["root", "planner.1", "booker.1"]);
    const done = await planner.resume(p.runId, answerOutput(p.pending.id, "8pm"), {
      client: clientOn(w.storage, w.counts),
    });
    expect(done.text).toMatch(/^planned: booker: declined\/expired: Which time\?/);
    expect(w.counts.booked).toEqual([]);
  });

  it("a fresh run never sees an older run's question: its own request id, and the old answer is refused", async () => {
    const w = world();
    const client = clientOn(w.storage, w.counts);
    const first = (await w.coordinator.run("dinner", { client })) as PendingResult;
    const second = (await w.coordinator.run("dinner", { client })) as PendingResult;
    expect(second.runId).not.toBe(first.runId);
    expect(second.pending.data?.path).toEqual(["root", "coordinator.1", "planner.1", "booker.1"]);
    await expect(
      w.coordinator.resume(second.runId, answerOutput(`${first.pending.id}x`, "yes"), { client }),
    ).rejects.toBeInstanceOf(AnswerMismatchError);
    const done = await w.coordinator.resume(first.runId, answerOutput(first.pending.id, "yes"), { client });
    expect(done.status).toBe("done");
    expect(w.counts.booked).toEqual(["friday"]);
    expect((await client.inspect(second.runId))?.requests).toHaveLength(1);
  });

  it("the nearest waitFor wins: the planner's answers its booker's approval, the root never halts", async () => {
    const asked: unknown[] = [];
    const w = world({
      planner: {
        waitFor: async (request) => {
          asked.push(request.data?.path);
          return answerOutput(request.id, "yes");
        },
      },
    });
    const done = await w.coordinator.run("dinner", { client: clientOn(w.storage, w.counts) });
    expect(done.status).toBe("done");
    expect(asked).toEqual([["root", "coordinator.1", "planner.1", "booker.1"]]);
    expect(w.counts.booked).toEqual(["friday"]);
  });
});
