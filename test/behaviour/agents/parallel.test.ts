// Parallel task calls whose children both ask: every request is open at the root, each with its own path
// (two children of one definition told apart: booker.1, booker.2) and its own token; answered in reverse
// order, each reaches its own child once. A stored tree or child run that fails validation is a
// RunStateError and nothing runs.
import { answerOutput, type GenerateRequest, type PendingResult } from "toolnexus";
import { describe, expect, it } from "vitest";
import { clientOn, scripts, toolMessages, world } from "./support";

const userText = (req: GenerateRequest): string =>
  String((req.messages as { role: string; content: unknown }[]).find((m) => m.role === "user")?.content);

const fanOut = {
  ...scripts,
  "m-planner": (_req: GenerateRequest, tools: string[]) =>
    tools.length === 0
      ? {
          toolCalls: [
            { id: "p1", name: "task", arguments: { agent: "booker", prompt: "monday" } },
            { id: "p2", name: "task", arguments: { agent: "booker", prompt: "tuesday" } },
          ],
        }
      : { content: `planned: ${tools.join(" + ")}` },
  "m-booker": (req: GenerateRequest) =>
    toolMessages(req).length === 0
      ? { toolCalls: [{ id: "b1", name: "book_table", arguments: { day: userText(req) } }] }
      : { content: `booker: ${toolMessages(req).join(" + ")}` },
};

const secret = { resumeSecret: "a-secret-of-at-least-32-characters!!", requireResumeToken: true };

describe("siblings asking at once", () => {
  it("every request open with its own path and token; answered in reverse order, each child books once", async () => {
    const w = world();
    const client = () => clientOn(w.storage, w.counts, fanOut, secret);
    const p = (await w.planner.run("two dinners", { client: client() })) as PendingResult;
    expect(p.status).toBe("pending");
    expect(p.requests.map((r) => r.data?.path)).toEqual([
      ["root", "planner.1", "booker.1"],
      ["root", "planner.1", "booker.2"],
    ]);
    expect(new Set(p.requests.map((r) => r.id)).size).toBe(2);
    expect(p.tokens).toHaveLength(2);
    const [first, second] = p.requests;
    const half = await w.planner.resume(p.runId, answerOutput(second!.id, "yes"), {
      client: client(),
      token: p.tokens![1]!,
    });
    expect(half.status).toBe("pending");
    expect((half as PendingResult).requests.map((r) => r.id)).toEqual([first!.id]);
    expect(w.counts.booked).toEqual(["tuesday"]);
    const done = await w.planner.resume(p.runId, JSON.parse(JSON.stringify(answerOutput(first!.id, "yes"))), {
      client: client(),
      token: p.tokens![0]!,
    });
    expect(done.status).toBe("done");
    expect(done.text).toBe("planned: booker: table booked for monday + booker: table booked for tuesday");
    expect(w.counts.booked.sort()).toEqual(["monday", "tuesday"]);
    // the planner's model: its first turn and its last; each booker: its ask and its answer
    expect(w.counts.calls).toEqual({ "m-planner": 2, "m-booker": 4 });
  });

  it("an answer without its own token is refused and changes nothing", async () => {
    const w = world();
    const client = () => clientOn(w.storage, w.counts, fanOut, secret);
    const p = (await w.planner.run("two dinners", { client: client() })) as PendingResult;
    await expect(
      w.planner.resume(p.runId, answerOutput(p.requests[0]!.id, "yes"), { client: client(), token: p.tokens![1]! }),
    ).rejects.toMatchObject({ code: "resume_token" });
    expect(w.counts.booked).toEqual([]);
  });
});

describe("a stored tree that fails validation", () => {
  it("a child's run record corrupted: RunStateError, nothing runs; restored, the same answer finishes", async () => {
    const w = world();
    const p = (await w.planner.run("dinner", { client: clientOn(w.storage, w.counts) })) as PendingResult;
    const tree = JSON.parse((await w.storage.get(`agents:${p.runId}`))!);
    const child = (Object.values(tree.calls)[0] as { run: string }).run;
    const kept = (await w.storage.get(`run:${child}`))!;
    await w.storage.set(`run:${child}`, kept.replace('"v":1', '"v":99'));
    const answer = answerOutput(p.pending.id, "yes");
    await expect(w.planner.resume(p.runId, answer, { client: clientOn(w.storage, w.counts) })).rejects.toMatchObject({
      name: "RunStateError",
      code: "run_state",
    });
    expect(w.counts.booked).toEqual([]);
    await w.storage.set(`run:${child}`, kept);
    const done = await w.planner.resume(p.runId, answer, { client: clientOn(w.storage, w.counts) });
    expect(done.status).toBe("done");
    expect(w.counts.booked).toEqual(["friday"]);
  });

  it("the tree record itself corrupted: the answered task call is a RunStateError, no child runs, the run is kept", async () => {
    const w = world();
    const twice = {
      ...scripts,
      "m-planner": (_req: GenerateRequest, tools: string[]) => {
        if (tools.length === 0)
          return { toolCalls: [{ id: "p1", name: "task", arguments: { agent: "booker", prompt: "a" } }] };
        if (tools.length === 1)
          return { toolCalls: [{ id: "p2", name: "task", arguments: { agent: "booker", prompt: "b" } }] };
        return { content: `planned: ${tools.join(" + ")}` };
      },
    };
    const p = (await w.planner.run("dinner", { client: clientOn(w.storage, w.counts, twice) })) as PendingResult;
    const key = `agents:${p.runId}`;
    const kept = (await w.storage.get(key))!;
    await w.storage.set(key, JSON.stringify({ v: 1, n: { booker: "one" }, calls: {} }));
    const answer = answerOutput(p.pending.id, "yes");
    await expect(
      w.planner.resume(p.runId, answer, { client: clientOn(w.storage, w.counts, twice) }),
    ).rejects.toMatchObject({ name: "RunStateError", code: "run_state" });
    // the answered task call reads its entry first: booker.1 is not resumed, booker.2 never started
    expect(w.counts.calls["m-booker"]).toBe(1);
    expect(w.counts.booked).toEqual([]);
    await w.storage.set(key, kept);
    const next = (await w.planner.resume(p.runId, answer, {
      client: clientOn(w.storage, w.counts, twice),
    })) as PendingResult;
    expect(next.status).toBe("pending");
    expect(next.pending.data?.path).toEqual(["root", "planner.1", "booker.2"]);
    expect(w.counts.booked).toEqual(["friday"]);
  });
});
