// A page reloaded after a question's deadline shows the continued run (semantics 8): the handler's restore
// continues a due run into the run's event log (an exchange, with ids, a page can follow), and `GET ?runId=`
// answers with the run as the expiry left it. The tool whose question expired never runs.
import { describe, expect, it } from "vitest";
import type { PendingRequest } from "toolnexus";
import { fakeClock } from "../../support/deadlines";
import { doneOf, edgeWorld, framesOf, RESUME_SECRET } from "../../support/edge";

async function halted(clock: ReturnType<typeof fakeClock>, extra: Parameters<typeof edgeWorld>[0] = {}) {
  const w = edgeWorld({ ...extra, client: { clock, answerTimeoutSeconds: 60 } });
  const done = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
  expect(done.status).toBe("pending");
  return { w, ...(done as { runId: string; requests: PendingRequest[]; tokens?: string[] }) };
}

describe("a run whose deadline passed, read through the handler", () => {
  it("restore before the deadline shows the question; after it, streams the run's continuation as an exchange", async () => {
    const clock = fakeClock(Date.now());
    const { w, runId, requests, tokens } = await halted(clock, { resumeSecret: RESUME_SECRET });
    expect(requests[0]!.expiresAt).toBe(new Date(clock.now() + 60_000).toISOString());
    const waiting = await framesOf(await w.post({ runId, restore: true }));
    expect(waiting.map((e) => e.type)).toEqual(["pending", "done"]);

    clock.advance(61);
    const res = await w.post({ runId, restore: true, token: tokens![0] });
    const raw = await res.text();
    expect(raw).toMatch(/^id:/m); // an exchange of the run's event log: a page follows and replays it
    const done = doneOf(await framesOf(new Response(raw)));
    expect(done).toMatchObject({ status: "done", text: "Done: declined/expired: Which city?" });
    expect(w.executions).toEqual([]);
    // the late answer finds the run finished
    const late = await w.post({ runId, answer: { id: requests[0]!.id, ok: true, data: { output: "Oslo" } } });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: "run_conflict", reason: "finished" } });
    expect(w.executions).toEqual([]);
  });

  it("GET ?runId= after the deadline answers with the continued run", async () => {
    const clock = fakeClock(Date.now());
    const { w, runId } = await halted(clock);
    expect(await (await w.get(runId)).json()).toMatchObject({ status: "pending" });
    clock.advance(61);
    expect(await (await w.get(runId)).json()).toMatchObject({ status: "done", requests: [] });
    expect(w.executions).toEqual([]);
  });

  it("a page without a token, on a client that signs them: the run is continued all the same, then shown as that exchange", async () => {
    const clock = fakeClock(Date.now());
    const { w, runId } = await halted(clock, { resumeSecret: RESUME_SECRET, requireResumeToken: true });
    clock.advance(61);
    const raw = await (await w.post({ runId, restore: true })).text();
    expect(raw).toMatch(/^id: 2:1$/m); // the continuation, from the run's event log
    const events = await framesOf(new Response(raw));
    expect(events[0]).toMatchObject({ type: "tool_result", isError: true });
    expect(doneOf(events)).toMatchObject({ status: "done", text: "Done: declined/expired: Which city?" });
    expect(w.executions).toEqual([]);
  });
});
