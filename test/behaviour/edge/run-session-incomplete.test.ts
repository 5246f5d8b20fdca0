// A run that ends `incomplete` — maxTurns reached, the run's timeoutMs passed, or the page's own abort —
// as a page developer meets it: createRunSession against a real createRunHandler and a real client with a
// key and a header. What the session reports (once), what the stream carries, what a reload finds, that
// the conversation goes on with the next prompt, and that no secret reaches the page.
import { describe, expect, it } from "vitest";
import { answerOutput, readEventStream, type StreamEvent } from "toolnexus";
import { API_KEY, edgeWorld, framesOf, HEADER_VALUE, SYSTEM_PROMPT } from "../../support/edge";
import { expectNoSecrets, type Hang, letGo, page, provider, texts, tick } from "../../support/edge-page";
import { toolResultsIn, type ScriptTurn } from "../../support/scripted";

/** The run since snapshot `from` was reported as one `incomplete` error, never as done. */
function expectReportedOnce(p: ReturnType<typeof page>, from: number, limit: string) {
  expect(p.statuses(from)).toEqual(["streaming", "error"]);
  const errors = p.seen.slice(from).filter((s) => s.error !== undefined);
  expect(errors).toEqual([p.session.state]); // one snapshot, the last: nothing after it
  expect(p.session.state).toMatchObject({
    status: "error",
    error: { code: "incomplete", message: `toolnexus: the run stopped early (${limit})` },
    text: "",
    requests: [],
    runId: undefined,
  });
}

const lookup = (q: string): ScriptTurn => ({
  text: `Looking up ${q}.`,
  calls: [{ id: `call_${q}`, name: "lookup", args: { q } }],
});
const askCity: ScriptTurn = { text: "Let me ask.", calls: [{ id: "call_city", name: "ask_city" }] };
// long enough for the runs that must finish inside it even on a loaded CI machine; only the model call
// that never answers waits it out
const TIMEOUT_MS = 1000;

describe("createRunSession: a run that ends incomplete", () => {
  it("maxTurns: one error { code: incomplete }, never done; the streamed text stays; the next prompt follows on", async () => {
    const model = provider([lookup("a"), lookup("b"), { text: "Here you are." }], { maxTurns: 2 });
    const w = edgeWorld({ model: model.model });
    const p = page(w);
    const from = p.seen.length;
    await p.session.send("find a and b");
    expectReportedOnce(p, from, "maxTurns");
    expect(texts(p.session.state)).toEqual([
      "user: find a and b",
      "assistant: Looking up a.",
      "assistant: Looking up b.",
    ]);
    expect(w.executions).toEqual(["lookup:a", "lookup:b"]);

    await p.session.send("thanks");
    expect(p.session.state).toMatchObject({ status: "done", error: undefined });
    expect(texts(p.session.state).slice(-2)).toEqual(["user: thanks", "assistant: Here you are."]);
    const next = model.bodies[2]!; // the conversation's next exchange: the incomplete one is its history
    expect(JSON.stringify(next.messages)).toContain("find a and b");
    expect(toolResultsIn(next)).toEqual(["found a", "found b"]);
    expectNoSecrets(p, model);
  });

  it("timeout: a model that never answers past timeoutMs is one incomplete error; its partial text stays", async () => {
    const model = provider([{ hang: true, text: "Partial answer" }, { text: "Quick one." }], {
      timeoutMs: TIMEOUT_MS,
    });
    const w = edgeWorld({ model: model.model });
    const p = page(w);
    const from = p.seen.length;
    await p.session.send("slow question");
    expect(model.stopped()).toBe(1); // the model call was cut off, not answered
    expectReportedOnce(p, from, "timeout");
    expect(texts(p.session.state)).toEqual(["user: slow question", "assistant: Partial answer"]);

    await p.session.send("and now?");
    expect(p.session.state).toMatchObject({ status: "done", error: undefined });
    expect(texts(p.session.state).at(-1)).toBe("assistant: Quick one.");
    expect(JSON.stringify(model.bodies[1]!.messages)).toContain("slow question");
    expectNoSecrets(p, model);
  });

  for (const limit of ["timeout", "maxTurns"] as const) {
    it(`${limit} while an answer resumes the run (after a reload): once, the halted turn's text not repeated; a reload then finds nothing open`, async () => {
      const steps: (ScriptTurn | Hang)[] = limit === "timeout" ? [askCity, { hang: true }] : [askCity];
      const model = provider(
        [...steps, { text: "Noted." }],
        limit === "timeout" ? { timeoutMs: TIMEOUT_MS } : { maxTurns: 1 },
      );
      const w = edgeWorld({ model: model.model });
      const first = page(w);
      await first.session.send("which city?");
      expect(first.session.state.status).toBe("waiting");
      const asked = ["user: which city?", "assistant: Let me ask."];
      expect(texts(first.session.state)).toEqual(asked);

      const p = page(w, first.storage); // the page reloaded while the question was open
      await p.session.restore();
      expect(p.session.state).toMatchObject({ status: "waiting", runId: first.session.state.runId });
      const from = p.seen.length;
      await p.session.answer(answerOutput(p.session.state.requests[0]!.id, "Lima"), { text: "Lima" });
      expectReportedOnce(p, from, limit);
      expect(texts(p.session.state)).toEqual([...asked, "user: Lima"]);
      expect(w.executions).toEqual(["ask_city:Lima"]);

      const calls = model.bodies.length;
      const reloaded = page(w, p.storage); // a reload after the incomplete run: the conversation, nothing open
      await reloaded.session.restore();
      expect(reloaded.session.state).toMatchObject({
        status: "idle",
        requests: [],
        runId: undefined,
        error: undefined,
      });
      expect(texts(reloaded.session.state)).toEqual([...asked, "user: Lima"]);
      expect(model.bodies.length).toBe(calls); // the stopped run is not continued behind the page's back

      await reloaded.session.send("thanks");
      expect(reloaded.session.state).toMatchObject({ status: "done", error: undefined });
      expect(texts(reloaded.session.state).at(-1)).toBe("assistant: Noted.");
      expect(toolResultsIn(model.bodies.at(-1)!)).toEqual(["city Lima"]); // the conversation kept the answered turn
      expect(w.executions).toEqual(["ask_city:Lima"]);
      expectNoSecrets(p, model);
      expectNoSecrets(reloaded, model);
    });
  }

  it("the page's own abort mid-stream: idle with the text so far, no error, never done; the next prompt runs", async () => {
    const model = provider([{ hang: true, text: "Partial" }, { text: "Back again." }]);
    const w = edgeWorld({ model: model.model });
    const p = page(w);
    const from = p.seen.length;
    const streaming = new Promise<void>((resolve) => p.session.subscribe((s) => s.text === "Partial" && resolve()));
    const sent = p.session.send("long question");
    await streaming;
    p.session.abort();
    await sent;
    expect(p.session.state).toMatchObject({ status: "idle", error: undefined, text: "", requests: [] });
    expect(p.statuses(from)).toEqual(["streaming", "idle"]);
    expect(p.seen.slice(from).some((s) => s.error !== undefined)).toBe(false);
    expect(texts(p.session.state)).toEqual(["user: long question", "assistant: Partial"]);
    await letGo(w, p); // the run on the server stops with the page's request
    expect(model.stopped()).toBe(1);

    const reloaded = page(w, p.storage);
    await reloaded.session.restore();
    expect(reloaded.session.state).toMatchObject({ status: "idle", requests: [], error: undefined });
    expect(texts(reloaded.session.state)).toEqual(["user: long question", "assistant: Partial"]);

    await reloaded.session.send("are you there?");
    expect(reloaded.session.state).toMatchObject({ status: "done", error: undefined });
    expect(texts(reloaded.session.state).at(-1)).toBe("assistant: Back again.");
    expectNoSecrets(p, model);
  });

  it("the page's abort before the first event: idle, no error; the next send runs as the conversation's next exchange", async () => {
    const model = provider([{ hang: true }, { text: "Back again." }]);
    const w = edgeWorld({ model: model.model });
    const p = page(w);
    const from = p.seen.length;
    const sent = p.session.send("long question");
    while (model.bodies.length === 0) await tick(); // the model was called and does not answer
    p.session.abort();
    await sent;
    expect(p.session.state).toMatchObject({ status: "idle", error: undefined, text: "" });
    expect(p.statuses(from)).toEqual(["streaming", "idle"]);
    expect(texts(p.session.state)).toEqual(["user: long question"]); // nothing was said: nothing to mark
    await letGo(w, p);

    await p.session.send("are you there?");
    expect(p.session.state).toMatchObject({ status: "done", error: undefined });
    expect(texts(p.session.state)).toEqual(["user: long question", "user: are you there?", "assistant: Back again."]);
    expect(model.stopped()).toBe(1);
    expectNoSecrets(p, model);
  });
});

describe("createRunHandler: the stream of an incomplete run, read as a page reads it", () => {
  async function read(res: Response): Promise<StreamEvent[]> {
    expect(res.status).toBe(200); // a run that started, however it ended, is a stream — not an error response
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events: StreamEvent[] = [];
    for await (const event of readEventStream(res)) events.push(event); // an `error` event would throw here
    return events;
  }

  const RESULT_KEYS = ["limit", "model", "status", "text", "toolCallCount", "toolCalls", "turns", "usage"];

  function resultOf(events: StreamEvent[]) {
    const last = events.at(-1);
    if (last?.type !== "done") throw new Error(`no done event at the end: ${JSON.stringify(last)}`);
    expect(Object.keys(last.result).sort()).toEqual(RESULT_KEYS); // no transcript, no runId
    return last.result as Record<string, any>;
  }

  it("maxTurns: the events, then usage and done { status: incomplete, limit } — no error event, no messages", async () => {
    const model = provider([lookup("a"), lookup("b")], { maxTurns: 2 });
    const w = edgeWorld({ model: model.model });
    const res = await w.post({ prompt: "find a and b" });
    const raw = await res.clone().text();
    const events = await read(res);
    const types = events.map((e) => e.type).filter((t, i, all) => i === 0 || t !== all[i - 1]); // deltas folded
    expect(types).toEqual([
      ...["text", "tool_input", "tool_call", "tool_result", "text", "tool_input", "tool_call", "tool_result"],
      "usage",
      "done",
    ]);
    expect(resultOf(events)).toMatchObject({
      status: "incomplete",
      limit: "maxTurns",
      text: "Looking up b.",
      turns: 2,
      toolCallCount: 2,
      toolCalls: [
        { id: "call_a", name: "lookup", args: { q: "a" }, output: "found a", isError: false },
        { id: "call_b", name: "lookup", args: { q: "b" }, output: "found b", isError: false },
      ],
      model: "edge-model",
    });
    expect((await framesOf(new Response(raw))).some((e) => e.type === "error")).toBe(false);
    for (const secret of [API_KEY, HEADER_VALUE, SYSTEM_PROMPT]) expect(raw).not.toContain(secret);
  });

  it("timeout before the first event: still a 200 stream of usage and done { limit: timeout }", async () => {
    const model = provider([{ hang: true }], { timeoutMs: TIMEOUT_MS });
    const w = edgeWorld({ model: model.model });
    const events = await read(await w.post({ prompt: "slow question" }));
    expect(events.map((e) => e.type)).toEqual(["usage", "done"]);
    expect(resultOf(events)).toMatchObject({ status: "incomplete", limit: "timeout", text: "", turns: 1 });
  });

  it("timeout after some text: done { limit: timeout } keeps the text that streamed", async () => {
    const model = provider([{ hang: true, text: "Partial answer" }], { timeoutMs: TIMEOUT_MS });
    const w = edgeWorld({ model: model.model });
    const events = await read(await w.post({ prompt: "slow question" }));
    expect(events.map((e) => e.type)).toEqual(["text", "usage", "done"]);
    expect(resultOf(events)).toMatchObject({ status: "incomplete", limit: "timeout", text: "Partial answer" });
  });

  it("the request's signal aborted: the run stops and its stream says done { limit: aborted }", async () => {
    const model = provider([{ hang: true }]);
    const w = edgeWorld({ model: model.model });
    const controller = new AbortController();
    const answered = w.handler(
      new Request("http://edge.test/api/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "long question" }),
        signal: controller.signal,
      }),
    );
    while (model.bodies.length === 0) await tick();
    controller.abort();
    const events = await read(await answered);
    expect(model.stopped()).toBe(1);
    expect(resultOf(events)).toMatchObject({ status: "incomplete", limit: "aborted", text: "" });
  });
});
