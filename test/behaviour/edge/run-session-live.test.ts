// The page session with live exchanges: a reload while the answer streams re-attaches (no event shown twice,
// none lost, the final text an uninterrupted run's), stop() from this tab or another ends the exchange with
// the text kept, and `state.calls` shows each tool call as it is prepared, run and done.
import { describe, expect, it } from "vitest";
import { answerOutput, createRunSession, memoryStorage, type RunSessionState } from "toolnexus";
import { memoryWebStorage } from "../../support/edge";
import { gate, isolate, provider, tools } from "../../support/edge-streams";

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);

/** A page's fetch over `edge` whose open streams a test can cut, as a reload cuts them. */
function cuttable(edge: ReturnType<typeof isolate>) {
  const open: TransformStreamDefaultController<Uint8Array>[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await edge.fetch(input, init);
    if (!res.body) return res;
    const cut = new TransformStream<Uint8Array, Uint8Array>({ start: (c) => void open.push(c) });
    return new Response(res.body.pipeThrough(cut), { status: res.status, headers: res.headers });
  }) as typeof globalThis.fetch;
  return { fetch, cut: () => open.forEach((c) => c.error(new TypeError("the page went away"))) };
}

describe("createRunSession with live exchanges", () => {
  it("restore() after a reload mid-stream carries on: every word once, the same final message", async () => {
    const storage = memoryStorage();
    const held = gate();
    const tokens = words(30);
    const edge = isolate(storage, provider([{ tokens, gateAt: 12, gate: held.promise }]), tools().list);
    const web = memoryWebStorage();
    const tab = cuttable(edge);
    const before = createRunSession({ endpoint: "/api/run", fetch: tab.fetch, storage: web });
    const sending = before.send("talk");
    while (before.state.text.length < 12 * 3) await tick();
    tab.cut(); // the reload: the page's stream is gone, the run is not
    await sending;
    const after = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: web });
    const seen: RunSessionState[] = [];
    after.subscribe((s) => seen.push(s));
    const restoring = after.restore();
    held.open();
    await restoring;
    expect(after.state).toMatchObject({ status: "done", error: undefined, text: "" });
    expect(after.state.messages).toEqual([
      { role: "user", text: "talk" },
      { role: "assistant", text: tokens.join("") },
    ]);
    // the streaming text only ever grew: nothing shown twice on the way
    const texts = seen.map((s) => s.text).filter(Boolean);
    texts.forEach((t, i) => i && expect(t.startsWith(texts[i - 1]!)).toBe(true));
    // and the next reload finds the finished conversation, not the exchange again
    const third = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: web });
    await third.restore();
    expect(third.state.messages).toEqual(after.state.messages);
    expect(third.state.status).toBe("idle");
  });

  it("stop() ends the exchange: idle, no error, the text so far kept as a message; a running tool is aborted", async () => {
    const kit = tools();
    const model = provider([{ tokens: ["Let ", "me ", "look."], calls: [{ id: "c1", name: "slow" }] }]);
    const edge = isolate(memoryStorage(), model, kit.list);
    const session = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: memoryWebStorage() });
    const sending = session.send("look");
    while (kit.seen.slowStarted === 0) await tick();
    expect(session.state.calls).toEqual([{ id: "c1", name: "slow", input: "{}", status: "running" }]);
    await session.stop();
    await sending;
    expect(session.state).toMatchObject({ status: "idle", error: undefined, text: "" });
    expect(session.state.messages.at(-1)).toEqual({ role: "assistant", text: "Let me look.", stopped: true });
    expect(kit.seen.slowAborted).toBe(1);
  });

  it("another tab's stop ends this tab's exchange too, as a normal end: idle, the text so far marked stopped", async () => {
    const held = gate();
    const storage = memoryStorage();
    const edge = isolate(storage, provider([{ tokens: ["a ", "b ", "c"], gateAt: 1, gate: held.promise }]), []);
    const web = memoryWebStorage();
    const mine = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: web });
    const sending = mine.send("go");
    while (!mine.state.text) await tick();
    const runId = JSON.parse([...web.data.values()][0]!).stream.runId as string;
    const other = isolate(storage, provider([]), []);
    expect((await other.post({ runId, stop: true })).status).toBe(202);
    await sending;
    expect(mine.state).toMatchObject({ status: "idle", error: undefined, text: "" });
    expect(mine.state.messages.at(-1)).toEqual({ role: "assistant", text: "a ", stopped: true });
  });

  it("two tabs on one run: tab B stops it, and both end idle with the same text, marked stopped", async () => {
    const held = gate();
    const storage = memoryStorage();
    const turn = { tokens: ["one ", "two ", "three"], gateAt: 2, gate: held.promise };
    const edge = isolate(storage, provider([turn]), []);
    const webA = memoryWebStorage();
    const a = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: webA });
    const sending = a.send("count");
    while (a.state.text !== "one two ") await tick();
    // tab B shares tab A's kept state (localStorage) and re-attaches to the exchange streaming now
    const webB = memoryWebStorage();
    for (const [k, v] of webA.data) webB.setItem(k, v);
    const b = createRunSession({
      endpoint: "/api/run",
      fetch: isolate(storage, provider([]), []).fetch,
      storage: webB,
    });
    const restoring = b.restore();
    while (b.state.text !== "one two ") await tick();
    await b.stop();
    await Promise.all([sending, restoring]);
    for (const tab of [a, b]) {
      expect(tab.state).toMatchObject({ status: "idle", error: undefined, text: "", requests: [] });
      expect(tab.state.messages).toEqual([
        { role: "user", text: "count" },
        { role: "assistant", text: "one two ", stopped: true },
      ]);
    }
  });

  it("a call waiting on the user's answer is `waiting` in state.calls, until the answer runs it", async () => {
    const kit = tools();
    const turns = [{ tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] }, { tokens: ["Lima it is."] }];
    const edge = isolate(memoryStorage(), provider(turns), kit.list);
    const session = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: memoryWebStorage() });
    await session.send("city?");
    expect(session.state.status).toBe("waiting");
    expect(session.state.calls).toEqual([{ id: "c1", name: "ask_city", input: "{}", status: "waiting" }]);
    await session.answer(answerOutput(session.state.requests[0]!.id, "Lima"));
    expect(session.state.status).toBe("done");
    expect(session.state.calls).toEqual([{ id: "c1", name: "ask_city", input: "", status: "done", isError: false }]);
  });

  it("state.calls follows tool_input, tool_call and tool_result: preparing, running, done", async () => {
    const sse = [
      { type: "tool_input", id: "t1", name: "search", delta: '{"q":' },
      { type: "tool_input", id: "t1", name: "search", delta: '"lima"}' },
      { type: "tool_call", id: "t1", name: "search", args: { q: "lima" } },
      { type: "tool_result", id: "t1", name: "search", output: "found", isError: false },
      { type: "done", result: { status: "done", text: "", toolCalls: [], toolCallCount: 1, turns: 2 } },
    ]
      .map((e, i) => `id: 1:${i + 1}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join("");
    const fetch = (async () =>
      new Response(sse, { headers: { "content-type": "text/event-stream" } })) as typeof globalThis.fetch;
    const session = createRunSession({ endpoint: "/api/run", fetch, storage: null });
    const calls: string[] = [];
    const states: RunSessionState[] = [];
    session.subscribe((s) => {
      states.push(s);
      const call = s.calls[0];
      if (call) calls.push(`${call.status} ${call.input}`);
    });
    await session.send("find lima");
    expect([...new Set(calls)]).toEqual([
      'preparing {"q":',
      'preparing {"q":"lima"}',
      'running {"q":"lima"}',
      'done {"q":"lima"}',
    ]);
    const from = states.length;
    await session.send("again"); // a new exchange starts with no calls
    expect(states.slice(from).find((s) => s.status === "streaming")?.calls).toEqual([]);
  });

  it("restore() of an exchange the endpoint no longer has: idle, the kept messages shown, nothing kept to replay", async () => {
    const web = memoryWebStorage();
    const kept = { conversationId: "conv-1", messages: [{ role: "user", text: "talk" }] };
    web.setItem(
      "toolnexus:run-session",
      JSON.stringify({ ...kept, stream: { runId: "run-gone-0000", exchange: 1, base: 1 } }),
    );
    const edge = isolate(memoryStorage(), provider([]), []);
    const session = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: web });
    await session.restore();
    expect(session.state).toMatchObject({ status: "idle", error: undefined, messages: kept.messages });
    expect(JSON.parse(web.getItem("toolnexus:run-session")!).stream).toBeUndefined();
  });

  it("a stream cut off, then a reload while the next prompt waits for its first event: the old exchange is not replayed", async () => {
    const held = gate();
    const next = gate();
    const storage = memoryStorage();
    const model = provider([
      { tokens: words(6), gateAt: 2, gate: held.promise },
      { tokens: ["Second."], gateAt: 0, gate: next.promise },
    ]);
    const edge = isolate(storage, model, []);
    const web = memoryWebStorage();
    const tab = cuttable(edge);
    const session = createRunSession({ endpoint: "/api/run", fetch: tab.fetch, storage: web });
    const sending = session.send("first");
    while (!session.state.text) await tick();
    tab.cut(); // the connection drops; the exchange goes on
    await sending;
    expect(session.state.error?.code).toBe("network");
    const runId = JSON.parse(web.getItem("toolnexus:run-session")!).stream.runId as string;
    held.open();
    await edge.get({ runId, after: "1:0" }).then((res) => res.text()); // until that exchange has ended
    const second = session.send("second");
    while (model.calls() < 2) await tick(); // the second exchange is waiting for its model
    const reloaded = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: web });
    await reloaded.restore();
    expect(reloaded.state.status).toBe("idle");
    expect(reloaded.state.messages.map((m) => m.text)).toEqual(["first", "w0 w1 ", "second"]);
    next.open();
    await second;
    expect(session.state.messages.map((m) => m.text)).toEqual(["first", "w0 w1 ", "second", "Second."]);
  });
});
