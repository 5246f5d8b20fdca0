// The widget protocol end to end through createRunHandler (and createRunSession on top): GET ?runId= after
// a halt, after partial answers and after completion; a three-request turn answered in every order; resume
// tokens issued, verified and replayed; a reloaded page finding its questions again.
import { describe, expect, it } from "vitest";
import { answerDeclined, answerOutput, createRunSession, type PendingRequest } from "toolnexus";
import { doneOf, edgeWorld, framesOf, RESUME_SECRET } from "../../support/edge";

type World = ReturnType<typeof edgeWorld>;

async function inspect(w: World, runId: string) {
  const res = await w.get(runId);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function threeApprovals(w: World) {
  const halted = doneOf(await framesOf(await w.post({ prompt: "three approvals please" })));
  expect(halted.status).toBe("pending");
  return { runId: halted.runId as string, requests: halted.requests as PendingRequest[] };
}

const PERMUTATIONS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

describe("GET ?runId= (client.inspect)", () => {
  it("after a halt: pending, every open request; after partial answers: the rest; after completion: done, none", async () => {
    const w = edgeWorld();
    const { runId, requests } = await threeApprovals(w);
    expect(requests.map((r) => r.prompt)).toEqual(["Approve a?", "Approve b?", "Approve c?"]);
    const first = await inspect(w, runId);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: "pending", requests });
    expect(first.body.token).toBeUndefined(); // no resumeSecret, no token

    const partial = doneOf(await framesOf(await w.post({ runId, answer: answerOutput(requests[1]!.id, "ok") })));
    expect(partial.status).toBe("pending");
    const after = await inspect(w, runId);
    expect(after.body).toEqual({ status: "pending", requests: [requests[0], requests[2]] });

    await framesOf(
      await w.post({ runId, answers: [answerOutput(requests[2]!.id, "ok"), answerDeclined(requests[0]!.id)] }),
    );
    const done = await inspect(w, runId);
    expect(done.body).toMatchObject({ status: "done", requests: [] });
    expect(w.executions.sort()).toEqual(["approve:b:yes", "approve:c:yes"]);
  });

  it("an unknown run is a 404 run_not_found; GET changes nothing", async () => {
    const w = edgeWorld();
    const res = await w.get("run-unknown");
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.code).toBe("run_not_found");
    const { runId } = await threeApprovals(w);
    const writes = w.storage.writes();
    await inspect(w, runId);
    await inspect(w, runId);
    expect(w.storage.writes()).toBe(writes);
  });
});

describe("a three-request turn answered in any order", () => {
  for (const order of PERMUTATIONS) {
    it(`one at a time in the order ${order.map((i) => "abc"[i]).join(", ")}: each tool once, the model once at the end`, async () => {
      const w = edgeWorld();
      const { runId, requests } = await threeApprovals(w);
      let last: Record<string, any> = {};
      for (const [step, i] of order.entries()) {
        last = doneOf(await framesOf(await w.post({ runId, answer: answerOutput(requests[i]!.id, "yes") })));
        const open = order
          .slice(step + 1)
          .sort()
          .map((k) => requests[k]!.id);
        expect((last.requests ?? []).map((r: PendingRequest) => r.id)).toEqual(open);
        expect(last.status).toBe(open.length ? "pending" : "done");
      }
      expect(last.text).toBe("Done: a approved | b approved | c approved"); // results in tool-call order
      expect(w.executions).toEqual(order.map((i) => `approve:${"abc"[i]}:yes`));
    });
  }

  it("two in one POST, then the last: the same outcome", async () => {
    const w = edgeWorld();
    const { runId, requests } = await threeApprovals(w);
    const two = doneOf(
      await framesOf(
        await w.post({ runId, answers: [answerDeclined(requests[2]!.id), answerOutput(requests[0]!.id, "yes")] }),
      ),
    );
    expect(two.requests.map((r: PendingRequest) => r.id)).toEqual([requests[1]!.id]);
    const done = doneOf(await framesOf(await w.post({ runId, answer: answerOutput(requests[1]!.id, "yes") })));
    expect(done.text).toBe("Done: a approved | b approved | declined/expired: Approve c?");
  });

  it("an answer to a request already answered is refused (409) and runs nothing", async () => {
    const w = edgeWorld();
    const { runId, requests } = await threeApprovals(w);
    await framesOf(await w.post({ runId, answer: answerOutput(requests[0]!.id, "yes") }));
    const again = await w.post({ runId, answer: answerOutput(requests[0]!.id, "no, other") });
    expect(again.status).toBe(409);
    expect(w.executions).toEqual(["approve:a:yes"]);
  });
});

describe("resume tokens through the handler", () => {
  it("issued in the pending events, the done result and GET; verified on resume; replayed for the kept outcome", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET });
    const events = await framesOf(await w.post({ prompt: "two approvals please" }));
    const pendings = events.filter((e) => e.type === "pending");
    expect(pendings).toHaveLength(2);
    for (const p of pendings) expect(p.token).toMatch(/^tn1\./);
    const halted = doneOf(events);
    expect(halted.token).toMatch(/^tn1\./);
    const [a, b] = halted.requests as PendingRequest[];
    const looked = await inspect(w, halted.runId);
    expect(looked.body.tokens).toEqual({ [a!.id]: expect.stringMatching(/^tn1\./), [b!.id]: expect.any(String) });

    // a's token does not open b; a forged one opens nothing
    const tokenA = looked.body.tokens[a!.id];
    const tokenB = looked.body.tokens[b!.id];
    const wrong = await w.post({ runId: halted.runId, answer: answerOutput(b!.id, "yes"), token: tokenA });
    expect([wrong.status, ((await wrong.json()) as any).error.code]).toEqual([403, "resume_token"]);
    expect(w.executions).toEqual([]);

    const answerA = answerOutput(a!.id, "yes");
    const partial = doneOf(await framesOf(await w.post({ runId: halted.runId, answer: answerA, token: tokenA })));
    expect(partial.status).toBe("pending");
    const bodyB = { runId: halted.runId, answer: answerOutput(b!.id, "yes"), token: tokenB };
    const done = doneOf(await framesOf(await w.post(bodyB)));
    expect(done.text).toBe("Done: a approved | b approved");

    // the identical answer with its token again: the kept outcome, no tool runs twice
    const replay = doneOf(await framesOf(await w.post(bodyB)));
    expect(replay).toMatchObject({ status: "done", text: "Done: a approved | b approved" });
    // a different answer with the same token: refused
    const other = await w.post({ ...bodyB, answer: answerDeclined(b!.id) });
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(other.status).toBeLessThan(500);
    expect(w.executions).toEqual(["approve:a:yes", "approve:b:yes"]);
  });
});

describe("createRunSession with several requests, and after a reload", () => {
  function memory() {
    const data = new Map<string, string>();
    return {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
  }

  it("two cards answered in reverse order; a reload in between finds the other one again", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET });
    const storage = memory();
    const page = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage });
    await page.send("two approvals please");
    expect(page.state.status).toBe("waiting");
    const [a, b] = page.state.requests;
    expect([a?.prompt, b?.prompt]).toEqual(["Approve a?", "Approve b?"]);
    await page.answer(answerOutput(b!.id, "yes"), { text: "Approved" });
    expect(page.state.requests.map((r) => r.id)).toEqual([a!.id]);

    const reloaded = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage });
    await reloaded.restore();
    expect(reloaded.state).toMatchObject({ status: "waiting", runId: page.state.runId });
    expect(reloaded.state.requests).toEqual([a]);
    expect(reloaded.state.messages.map((m) => m.text)).toEqual(["two approvals please", "Approved"]);
    await reloaded.answer(answerOutput(a!.id, "yes"));
    expect(reloaded.state.status).toBe("done");
    expect(reloaded.state.messages.at(-1)?.text).toBe("Done: a approved | b approved");
    expect(w.executions).toEqual(["approve:b:yes", "approve:a:yes"]);

    // after completion a reload finds no question
    const again = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage });
    await again.restore();
    expect(again.state).toMatchObject({ status: "idle", requests: [] });
  });

  it("restore of a run the server does not know clears it quietly", async () => {
    const w = edgeWorld();
    const storage = memory();
    storage.setItem("toolnexus:run-session", JSON.stringify({ conversationId: "c", messages: [], runId: "run-gone" }));
    const page = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage });
    await page.restore();
    expect(page.state).toMatchObject({ status: "idle", requests: [], error: undefined });
    expect(JSON.parse(storage.getItem("toolnexus:run-session")!).runId).toBeUndefined();
  });
});
