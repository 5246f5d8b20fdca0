// What a reloaded page posts, `POST { runId, restore: true, after?, token? }`, answered by createRunHandler
// itself: the exchange the page was showing, replayed; else the run as it stands — its open requests as
// `pending` events with their tokens, a finished run's `done`, a run whose answers were applied continued.
// And `POST { prompt, stopped: true }`: a prompt right after the page stopped its exchange waits out a busy
// conversation instead of being refused.
import { describe, expect, it } from "vitest";
import { answerOutput, type PendingRequest, type StreamEvent } from "toolnexus";
import { deployWorld, doneOf, edgeWorld, framesOf, RESUME_SECRET, SYSTEM_PROMPT } from "../../support/edge";

type World = ReturnType<typeof edgeWorld>;

const restore = (w: World, runId: string, more: Record<string, unknown> = {}) =>
  w.post({ runId, restore: true, ...more });

async function errorOf(res: Response) {
  return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
}

async function halt(w: World, prompt = "two approvals please") {
  const halted = doneOf(await framesOf(await w.post({ prompt })));
  expect(halted.status).toBe("pending");
  return halted as { runId: string; requests: PendingRequest[]; tokens?: string[] };
}

describe("POST { runId, restore: true }", () => {
  it("a halted run: a pending event per open request with its own fresh token, then done; nothing stored", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const { runId, requests } = await halt(w);
    const writes = w.storage.writes();
    const res = await restore(w, runId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const raw = await res.text();
    expect(raw).not.toMatch(/^id:/m); // no exchange's events: a reload does not re-attach to them
    for (const secret of [SYSTEM_PROMPT, RESUME_SECRET, '"messages"', '"role"']) expect(raw).not.toContain(secret);
    const events = (await framesOf(new Response(raw))) as StreamEvent[];
    expect(events.map((e) => e.type)).toEqual(["pending", "pending", "done"]);
    const pendings = events.filter((e) => e.type === "pending");
    expect(pendings.map((e) => e.request)).toEqual(requests);
    expect(pendings.every((e) => e.runId === runId && typeof e.token === "string")).toBe(true);
    const done = doneOf(events);
    expect(done).toMatchObject({ status: "pending", runId, requests, pending: requests[0], token: pendings[0]!.token });
    expect(done.messages).toBeUndefined();
    expect(w.storage.writes()).toBe(writes);
    // each token is its own request's: both answered at once with them, in the other order
    const [a, b] = requests.map((q) => answerOutput(q.id, "yes"));
    const finished = await w.post({ runId, answers: [b, a], tokens: [pendings[1]!.token, pendings[0]!.token] });
    expect(doneOf(await framesOf(finished))).toMatchObject({ status: "done", text: "Done: a approved | b approved" });
  });

  it("a finished run: the exchange that finished it, replayed with its ids (a page that kept the run did not see it end)", async () => {
    const w = edgeWorld();
    const { runId, requests } = await halt(w, "which city?");
    const answered = await (await w.post({ runId, answer: answerOutput(requests[0]!.id, "Lima") })).text();
    const raw = await (await restore(w, runId)).text();
    expect(raw).toBe(answered); // the same frames, ids and all: nothing made up, nothing twice
    expect(doneOf(await framesOf(new Response(raw)))).toMatchObject({ status: "done", text: "Done: city Lima" });
  });

  it("a finished run whose finishing exchange the log lacks: one done event, with no text to show again", async () => {
    const w = edgeWorld();
    const { runId, requests } = await halt(w, "which city?");
    await w.client.resume(runId, answerOutput(requests[0]!.id, "Lima"), { toolkit: w.tools }); // not through the handler
    const events = await framesOf(await restore(w, runId));
    expect(events).toHaveLength(1);
    expect(doneOf(events)).toMatchObject({ status: "done", text: "" });
  });

  it("a run whose answer was applied but which stopped before finishing is continued; its tool does not run again", async () => {
    const w = edgeWorld({ failsAfterTool: 1, resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const { runId, requests, tokens } = await halt(w, "which city?");
    const failed = await framesOf(
      await w.post({ runId, answer: answerOutput(requests[0]!.id, "Oslo"), token: tokens![0] }),
    );
    expect(failed.at(-1)).toMatchObject({ type: "error" });
    const stored = await w.storage.get(`run:${runId}`);
    expect(await errorOf(await restore(w, runId))).toEqual([403, "resume_token"]); // required, not given
    expect(await w.storage.get(`run:${runId}`)).toBe(stored);
    const done = doneOf(await framesOf(await restore(w, runId, { token: tokens![0] })));
    expect(done).toMatchObject({ status: "done", text: "Done: city Oslo" });
    expect(w.executions).toEqual(["ask_city:Oslo"]);
  });

  it('"after": the exchange the page was showing, replayed whole with its ids, even once it has ended', async () => {
    const w = edgeWorld();
    const started = await w.post({ prompt: "hello there" });
    const live = await started.text();
    const runId = started.headers.get("toolnexus-run-id")!;
    const replayed = await (await restore(w, runId, { after: "1:0" })).text();
    expect(replayed).toBe(live);
    expect(replayed).toMatch(/^id: 1:1$/m);
    const rest = await framesOf(await restore(w, runId, { after: "1:2" })); // after its second event
    expect(rest).toEqual((await framesOf(new Response(live))).slice(2));
  });

  it('"after" naming an exchange the run never had: the run as it stands', async () => {
    const w = edgeWorld();
    const { runId, requests } = await halt(w, "which city?");
    const events = await framesOf(await restore(w, runId, { after: "9:0" }));
    expect(events.map((e) => e.type)).toEqual(["pending", "done"]);
    expect(doneOf(events)).toMatchObject({ status: "pending", requests });
  });

  it("an unknown run, and another owner's run, are the same 404; bad fields are 400; nothing changes", async () => {
    const w = edgeWorld();
    expect(await errorOf(await restore(w, "run-unknown"))).toEqual([404, "run_not_found"]);
    const { runId } = await halt(w, "which city?");
    const writes = w.storage.writes();
    expect(await errorOf(await restore(w, runId, { after: "one" }))).toEqual([400, "bad_request"]);
    expect(await errorOf(await restore(w, runId, { token: 42 }))).toEqual([400, "bad_request"]);
    expect(w.storage.writes()).toBe(writes);

    const d = deployWorld({ owner: (request) => request.headers.get("x-user") });
    const as = (user: string, body: unknown) =>
      d.handler(
        new Request("http://edge.test/api/run", {
          method: "POST",
          headers: { "content-type": "application/json", "x-user": user },
          body: JSON.stringify(body),
        }),
      );
    const halted = doneOf(await framesOf(await as("alice", { prompt: "deploy" })));
    const strangers = await as("bob", { runId: halted.runId, restore: true });
    const unknown = await as("bob", { runId: "run-unknown", restore: true });
    expect(strangers.status).toBe(404);
    expect((await strangers.text()).replaceAll(halted.runId, "run-unknown")).toBe(await unknown.text());
    expect(doneOf(await framesOf(await as("alice", { runId: halted.runId, restore: true })))).toMatchObject({
      status: "pending",
    });
    expect(d.ran).toEqual([]);
  });
});

describe("POST { prompt, conversationId, stopped: true }", () => {
  it("a conversation waiting on an open question is refused at once, stopped or not", async () => {
    const w = edgeWorld();
    const conversationId = "conv-stopped";
    doneOf(await framesOf(await w.post({ prompt: "which city?", conversationId })));
    for (const stopped of [true, false]) {
      const res = await w.post({ prompt: "again", conversationId, stopped });
      expect(await errorOf(res)).toEqual([409, "run_conflict"]);
    }
  });
});
