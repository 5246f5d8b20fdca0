// A run served by createRunHandler whose question expired and that nobody reads (semantics 8) is continued
// by `client.expire()` — a Cron Trigger, a setInterval — and that continuation streams into the run's event
// log as its next exchange, so a page that follows or replays the run sees it: `GET ?runId=` with
// Last-Event-ID, a restore, a reloaded page session. Exactly once holds for the log too: a second sweeper, or
// an answer that lost the race for the run, writes no exchange. The clock is a fake one: nothing waits.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createRunHandler,
  memoryStorage,
  type PendingRequest,
  type RunStorage,
  type StreamEvent,
} from "toolnexus";
import { approvalTool, clientOn, echoModel, fakeClock } from "../../support/deadlines";
import { doneOf, edgeWorld, framesOf, memoryWebStorage, RESUME_SECRET, SYSTEM_PROMPT } from "../../support/edge";
import { page, provider, texts } from "../../support/edge-page";
import { frames } from "../../support/edge-streams";
import { faultyStorage } from "../../support/faulty-storage";
import { scripted } from "../../support/scripted";

type World = ReturnType<typeof edgeWorld>;
type Frame = { id?: string; event: StreamEvent };

const EXPIRED_TEXT = "Done: declined/expired: Which city?";

/** A world on a fake clock whose every question is due in 60 s. */
function world(clock: ReturnType<typeof fakeClock>, extra: Parameters<typeof edgeWorld>[0] = {}) {
  return edgeWorld({ resumeSecret: RESUME_SECRET, ...extra, client: { clock, answerTimeoutSeconds: 60 } });
}

/** A run halted on "Which city?" through the handler (exchange 1), with the frames its page got live. */
async function halted(w: World) {
  const res = await w.post({ prompt: "which city?" });
  const live = await frames(res).rest();
  const done = doneOf(live.map((f) => f.event));
  expect(done.status).toBe("pending");
  return { runId: done.runId as string, request: (done.requests as PendingRequest[])[0]!, live };
}

/** `GET ?runId=` with `Last-Event-ID: <id>`, as an EventSource reconnecting sends it. */
const follow = (w: World, runId: string, lastEventId: string) =>
  w.handler(new Request(`http://edge.test/api/run?runId=${runId}`, { headers: { "last-event-id": lastEventId } }));

/** Exchange `e`'s frames: ids `e:1`, `e:2`, … in order, each once. */
function expectExchange(list: Frame[], e: number): void {
  expect(list.map((f) => f.id)).toEqual(list.map((_, i) => `${e}:${i + 1}`));
}

const textOf = (list: Frame[]) => list.map(({ event }) => (event.type === "text" ? event.delta : "")).join("");

/** Every value of the run's exchange log, as stored. */
async function logged(storage: RunStorage, runId: string, exchanges: number): Promise<string[]> {
  const values: string[] = [];
  for (let e = 1; e <= exchanges; e++)
    for (let b = 0; ; b++) {
      const value = await storage.get(`edge:${runId}:${e}:${b}`);
      if (value === undefined) break;
      values.push(value);
    }
  return values;
}

/** A model that asks which city, then holds its next call until `release()` (`reached` once it is held). */
function heldModel(text: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const asks = scripted("openai", [{ calls: [{ id: "call_1", name: "ask_city" }] }]);
  const says = scripted("openai", [{ text }]);
  let calls = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (++calls === 1) return asks.fetch(input, init);
    entered();
    await gate;
    return says.fetch(input, init);
  }) as typeof globalThis.fetch;
  return { model: { fetch }, release, reached };
}

describe("a continuation after a deadline, in the run's event log", () => {
  it("client.expire() continues the run as the handler's next exchange: a follower replays it; a second sweeper gets nothing", async () => {
    const clock = fakeClock(Date.now());
    const w = world(clock);
    const { runId, live } = await halted(w);
    expectExchange(live, 1);
    clock.advance(61);
    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [runId] });
    expect(w.executions).toEqual([]); // the tool whose question expired never ran

    // the page that saw exchange 1 follows on from the start of the next one
    const replayed = await frames(await follow(w, runId, "2:0")).rest();
    expectExchange(replayed, 2);
    expect(replayed[0]!.event).toMatchObject({ type: "tool_result", isError: true });
    expect(textOf(replayed)).toBe(EXPIRED_TEXT);
    expect(doneOf(replayed.map((f) => f.event))).toMatchObject({ status: "done", text: EXPIRED_TEXT });
    // a reconnect after the 2nd event gets the rest, none twice
    expect(await frames(await follow(w, runId, "2:2")).rest()).toEqual(replayed.slice(2));

    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [] });
    const third = await follow(w, runId, "3:0");
    expect(third.status).toBe(404); // no exchange 3: the second sweeper wrote nothing
  });

  it("a page follows the continuation while it runs: each event as it is written, then the rest, none twice", async () => {
    const clock = fakeClock(Date.now());
    const held = heldModel("Nobody answered: I will ask again later.");
    const w = world(clock, { model: held.model });
    const { runId } = await halted(w);
    clock.advance(61);
    const sweeping = w.client.expire({ toolkit: w.tools });
    await held.reached; // the continuation waits on the model: its first step is in the log, its end is not
    const follower = frames(await follow(w, runId, "2:0"));
    const first = await follower.next();
    expect(first).toMatchObject({ id: "2:1", event: { type: "tool_result", isError: true } });
    held.release();
    const all = [first!, ...(await follower.rest())];
    expect(await sweeping).toEqual({ continued: [runId] });
    expectExchange(all, 2);
    expect(textOf(all)).toBe("Nobody answered: I will ask again later.");
    expect(await frames(await follow(w, runId, "2:0")).rest()).toEqual(all);
  });

  it("a stop asked for while the continuation runs is accepted and not seen: no handler drives it", async () => {
    const clock = fakeClock(Date.now());
    const held = heldModel("Nobody answered: I will ask again later.");
    const w = world(clock, { model: held.model });
    const { runId } = await halted(w);
    clock.advance(61);
    const sweeping = w.client.expire({ toolkit: w.tools });
    await held.reached;
    const stop = await w.post({ runId, stop: true });
    expect(stop.status).toBe(202);
    held.release();
    expect(await sweeping).toEqual({ continued: [runId] });
    const replayed = await frames(await follow(w, runId, "2:0")).rest();
    expect(doneOf(replayed.map((f) => f.event))).toMatchObject({ status: "done" });
    expect(textOf(replayed)).toBe("Nobody answered: I will ask again later.");
  });

  it("a log write that fails costs the log a batch, never the run: the next write carries its events", async () => {
    const clock = fakeClock(Date.now());
    const storage = faultyStorage(memoryStorage({ now: clock.now }));
    const w = world(clock, { storage });
    const { runId } = await halted(w);
    clock.advance(61);
    storage.fail("set", new Error("disk full"), { prefix: `edge:${runId}:2:` }); // the continuation's first batch
    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [runId] });
    const replayed = await frames(await follow(w, runId, "2:0")).rest();
    expectExchange(replayed, 2);
    expect(replayed[0]!.event.type).toBe("tool_result");
    expect(doneOf(replayed.map((f) => f.event))).toMatchObject({ status: "done", text: EXPIRED_TEXT });
    // with every write of the log failing, the run still goes on
    const next = await halted(w);
    clock.advance(61);
    storage.fail("set", new Error("disk full"), { prefix: `edge:${next.runId}:2:`, times: 100 });
    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [next.runId] });
    expect((await w.client.inspect(next.runId))?.status).toBe("done");
  });

  it("a reloaded page session shows the continuation once: the declined question's answer, replayed from the log", async () => {
    const clock = fakeClock(Date.now());
    const w = world(clock);
    const storage = memoryWebStorage();
    const before = page(w, storage);
    await before.session.send("which city?");
    expect(before.session.state.status).toBe("waiting");
    clock.advance(61);
    const { continued } = await w.client.expire({ toolkit: w.tools });
    expect(continued).toHaveLength(1);

    const after = page(w, storage); // the reload
    await after.session.restore();
    expect(after.session.state.status).toBe("done");
    expect(texts(after.session.state)).toEqual(["user: which city?", `assistant: ${EXPIRED_TEXT}`]);
    const ids = after.received.join("").match(/^id: .*$/gm) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(ids.map((_, i) => `id: 2:${i + 1}`));
    expect(w.executions).toEqual([]);
  });

  it("a restore that itself continues the run lazily writes the same exchange (no token sent, on a client that signs them)", async () => {
    const clock = fakeClock(Date.now());
    const w = world(clock, { requireResumeToken: true });
    const { runId } = await halted(w);
    clock.advance(61);
    const restored = await frames(await w.post({ runId, restore: true })).rest();
    expectExchange(restored, 2);
    expect(doneOf(restored.map((f) => f.event))).toMatchObject({ status: "done", text: EXPIRED_TEXT });
    expect(await frames(await follow(w, runId, "2:0")).rest()).toEqual(restored);
    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [] });
  });

  it("a GET ?runId= that itself continues the run lazily writes the same exchange", async () => {
    const clock = fakeClock(Date.now());
    const w = world(clock);
    const { runId } = await halted(w);
    clock.advance(61);
    expect(await (await w.get(runId)).json()).toMatchObject({ status: "done", requests: [] });
    const replayed = await frames(await follow(w, runId, "2:0")).rest();
    expectExchange(replayed, 2);
    expect(textOf(replayed)).toBe(EXPIRED_TEXT);
    expect((await follow(w, runId, "3:0")).status).toBe(404);
  });

  for (const loser of ["the expiry", "the answer"] as const)
    it(`an answer and an expiry racing for the run, ${loser} losing the claim: it is told, and writes no exchange`, async () => {
      const clock = fakeClock(Date.now());
      const storage = faultyStorage(memoryStorage({ now: clock.now }));
      const w = world(clock, { storage });
      const { runId, request } = await halted(w);
      clock.advance(61);
      const answer = () => w.post({ runId, answer: answerOutput(request.id, "Lima") });
      const expire = () => w.client.expire({ toolkit: w.tools });
      // the loser's claim of the run waits until the winner has claimed it and answered
      let winning: Promise<unknown> | undefined;
      storage.beforeCompareAndSet = async (key) => {
        if (key !== `run:${runId}` || winning) return;
        winning = loser === "the expiry" ? answer() : expire();
        await winning;
      };
      const lost = await (loser === "the expiry" ? expire() : answer());
      const won = await winning;
      if (loser === "the expiry") {
        expect(lost).toEqual({ continued: [] });
        expect(doneOf(await framesOf(won as Response))).toMatchObject({ status: "done", text: EXPIRED_TEXT });
      } else {
        expect(won).toEqual({ continued: [runId] });
        const refused = lost as Response;
        expect(refused.status).toBe(409);
        expect(await refused.json()).toMatchObject({ error: { code: "run_conflict", reason: "answered" } });
      }
      storage.beforeCompareAndSet = undefined;
      // one exchange after the halt, the winner's (an answer after the deadline counts as the expired decline)
      const replayed = await frames(await follow(w, runId, "2:0")).rest();
      expectExchange(replayed, 2);
      expect(doneOf(replayed.map((f) => f.event))).toMatchObject({ status: "done", text: EXPIRED_TEXT });
      expect((await follow(w, runId, "3:0")).status).toBe(404);
      expect(w.executions).toEqual([]);
    });

  it("the continuation is the owner's the run was stamped with: another owner cannot follow it", async () => {
    const clock = fakeClock(Date.now());
    const { tool, state } = approvalTool(60);
    const client = clientOn(clock, echoModel({ calls: [{ name: "book" }] }).fetch);
    const handler = createRunHandler({ client, toolkit: [tool], owner: (r) => r.headers.get("x-user") });
    const asked = await handler(
      new Request("http://edge.test/api/run", {
        method: "POST",
        headers: { "content-type": "application/json", "x-user": "alice" },
        body: JSON.stringify({ prompt: "book" }),
      }),
    );
    const runId = asked.headers.get("toolnexus-run-id")!;
    expect(doneOf(await framesOf(asked))).toMatchObject({ status: "pending" });
    clock.advance(61);
    expect(await client.expire({ toolkit: [tool] })).toEqual({ continued: [runId] });
    const as = (user: string) =>
      handler(
        new Request(`http://edge.test/api/run?runId=${runId}`, { headers: { "last-event-id": "2:0", "x-user": user } }),
      );
    const replayed = await frames(await as("alice")).rest();
    expectExchange(replayed, 2);
    expect(doneOf(replayed.map((f) => f.event))).toMatchObject({ status: "done" });
    expect((await as("bob")).status).toBe(404);
    expect(state.runs).toBe(0);
  });

  it("a run no handler served gets no log", async () => {
    const clock = fakeClock(Date.now());
    const w = world(clock);
    const run = await w.client.run("which city?", { toolkit: w.tools });
    if (run.status !== "pending") throw new Error(`expected a halted run, got ${run.status}`);
    clock.advance(61);
    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [run.runId] });
    expect(await w.storage.get(`edge:${run.runId}`)).toBeUndefined();
    expect(await w.storage.get(`edge:${run.runId}:1:0`)).toBeUndefined();
  });

  it("the continuation's log keeps no resume token and no secret, though it halts on a new question", async () => {
    const clock = fakeClock(Date.now());
    const model = provider([
      { calls: [{ id: "call_1", name: "ask_city" }] },
      { calls: [{ id: "call_2", name: "ask_city" }] },
    ]);
    const w = world(clock, { model: model.model });
    const { runId } = await halted(w);
    clock.advance(61);
    expect(await w.client.expire({ toolkit: w.tools })).toEqual({ continued: [runId] });
    const values = await logged(w.storage, runId, 2);
    expect(values.join("")).toContain('"pending"'); // the continuation's new question is in the log…
    for (const value of values) {
      expect(value).not.toContain('"token'); // …without its token
      expect(value).not.toContain(SYSTEM_PROMPT);
      expect(value).not.toContain('"messages"');
    }
    // a follower gets a fresh token for the open question, and answers with it
    const replayed = (await frames(await follow(w, runId, "2:0")).rest()).map((f) => f.event);
    const pending = replayed.find((e) => e.type === "pending") as StreamEvent & { token?: string };
    expect(pending.token).toMatch(/\S{20}/);
  });
});
