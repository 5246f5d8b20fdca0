// createRunSession, the page side, against a real createRunHandler (its fetch goes straight to the
// handler): state built from events, the snapshot contract, answers, errors, aborts, storage.
import { describe, expect, it } from "vitest";
import {
  answerDeclined,
  answerOutput,
  createRunSession,
  type RunSessionState,
  type SessionStorageLike,
} from "toolnexus";
import { edgeWorld, memoryWebStorage } from "../../support/edge";

function sessionIn(w: ReturnType<typeof edgeWorld>, storage = memoryWebStorage()) {
  const session = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage });
  const seen: RunSessionState[] = [];
  session.subscribe((s) => seen.push(s));
  return { session, storage, seen };
}

const texts = (s: RunSessionState) => s.messages.map((m) => `${m.role}: ${m.text}`);

describe("createRunSession", () => {
  it("starts idle; subscribe calls the listener at once and returns an unsubscribe", () => {
    const w = edgeWorld();
    const session = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: null });
    expect(session.state).toMatchObject({ status: "idle", messages: [], text: "", requests: [], error: undefined });
    const calls: RunSessionState[] = [];
    const off = session.subscribe((s) => calls.push(s));
    expect(calls).toEqual([session.state]);
    off();
    expect(session.state).toBe(session.state); // the same snapshot while nothing changes
  });

  it("send streams the answer: the text grows, then becomes a message; the snapshot is new on every change", async () => {
    const w = edgeWorld();
    const { session, seen } = sessionIn(w);
    const before = session.state;
    await session.send("hello there");
    expect(session.state.status).toBe("done");
    expect(texts(session.state)).toEqual(["user: hello there", "assistant: You said: hello there"]);
    expect(session.state.text).toBe("");
    expect(seen.map((s) => s.status)).toContain("streaming");
    const partial = seen.map((s) => s.text).filter(Boolean);
    expect(partial.length).toBeGreaterThan(1);
    expect(partial.at(-1)).toBe("You said: hello there");
    expect(new Set(seen).size).toBe(seen.length); // every notification carries a new object
    expect(seen[0]).toBe(before);
  });

  it("a question: status waiting with the open request; answer resumes and the tool runs once", async () => {
    const w = edgeWorld();
    const { session } = sessionIn(w);
    await session.send("which city?");
    expect(session.state.status).toBe("waiting");
    expect(session.state.requests).toEqual([expect.objectContaining({ kind: "question", prompt: "Which city?" })]);
    expect(session.state.runId).toMatch(/\S/);
    const [request] = session.state.requests;
    await session.answer(answerOutput(request!.id, "Chennai"), { text: "Chennai" });
    expect(session.state).toMatchObject({ status: "done", requests: [], runId: undefined });
    expect(texts(session.state)).toEqual(["user: which city?", "user: Chennai", "assistant: Done: city Chennai"]);
    expect(w.executions).toEqual(["ask_city:Chennai"]);
  });

  it("a new prompt while a question is open declines it first, then follows on in the same conversation", async () => {
    const w = edgeWorld();
    const { session } = sessionIn(w);
    await session.send("which city?");
    const {
      runId,
      requests: [request],
    } = session.state;
    await session.send("what did I say?");
    expect(session.state).toMatchObject({ status: "done", requests: [], runId: undefined });
    expect(texts(session.state)).toEqual([
      "user: which city?",
      "assistant: Done: declined/expired: Which city?",
      "user: what did I say?",
      "assistant: Earlier: which city?",
    ]);
    expect(w.executions).toEqual([]); // declined: the asking tool is not run again
    const late = await w.post({ runId, answer: answerOutput(request!.id, "Lima") }); // the question is closed
    expect(late.status).toBe(409);
  });

  it("after a reload, a run whose answer was applied but which stopped before finishing is continued", async () => {
    const w = edgeWorld({ failsAfterTool: 1 });
    const first = sessionIn(w);
    await first.session.send("which city?");
    const [request] = first.session.state.requests;
    await first.session.answer(answerOutput(request!.id, "Lima"), { text: "Lima" }); // the model fails after the tool ran
    expect(first.session.state.status).toBe("error");
    expect(w.executions).toEqual(["ask_city:Lima"]);
    const inspected = (await (await w.get(first.session.state.runId!)).json()) as { status: string };
    expect(inspected.status).toBe("ready");
    const again = sessionIn(w, first.storage); // the page reloaded
    await again.session.restore();
    expect(again.session.state).toMatchObject({ status: "done", requests: [], runId: undefined });
    expect(texts(again.session.state).at(-1)).toBe("assistant: Done: city Lima");
    expect(w.executions).toEqual(["ask_city:Lima"]); // continued, not run again
  });

  it("after a reload, a run another resume is still running is looked at again until it has finished", async () => {
    let release = () => {};
    const w = edgeWorld({ answered: new Promise<void>((resolve) => (release = resolve)) });
    const first = sessionIn(w);
    await first.session.send("which city?");
    const [request] = first.session.state.requests;
    const { runId } = first.session.state;
    const answering = first.session.answer(answerOutput(request!.id, "Rome"), { text: "Rome" }); // the tool is held
    const status = async () => ((await (await w.get(runId!)).json()) as { status: string }).status;
    while ((await status()) !== "running") await new Promise((resolve) => setTimeout(resolve, 5));
    const again = sessionIn(w, first.storage); // a reload while the first tab's resume runs
    const restoring = again.session.restore();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(again.session.state.status).toBe("streaming"); // still looking: the run is being resumed
    release();
    await Promise.all([answering, restoring]);
    expect(again.session.state).toMatchObject({ status: "done", requests: [] });
    expect(w.executions).toEqual(["ask_city:Rome"]);
  });

  it("restore() of a run the endpoint no longer has: idle and forgotten, no error shown on the way", async () => {
    const w = edgeWorld();
    const storage = memoryWebStorage();
    const kept = { conversationId: "conv-1", messages: [{ role: "user", text: "which city?" }], runId: "run-gone" };
    storage.setItem("toolnexus:run-session", JSON.stringify({ ...kept, tokens: { "pnd-1": "t" } }));
    const { session, seen } = sessionIn(w, storage);
    await session.restore();
    expect(session.state).toMatchObject({ status: "idle", error: undefined, messages: kept.messages });
    expect(seen.filter((s) => s.error !== undefined)).toEqual([]);
    const left = JSON.parse(storage.getItem("toolnexus:run-session")!);
    expect([left.runId, left.tokens]).toEqual([undefined, undefined]);
  });

  it("a TypeError thrown by a state listener is the listener's, not a lost connection: nothing kept to re-attach", async () => {
    const w = edgeWorld();
    const { session, storage } = sessionIn(w);
    let thrown = false;
    session.subscribe((s) => {
      if (s.text && !thrown) {
        thrown = true;
        throw new TypeError("a bug in the page's own listener");
      }
    });
    await session.send("hello there");
    expect(thrown).toBe(true);
    expect(session.state.status).toBe("error");
    expect(session.state.error?.code).not.toBe("network");
    expect(JSON.parse(storage.getItem("toolnexus:run-session")!).stream).toBeUndefined();
  });

  it("an answer aborted midway leaves its question open; answering it again finishes the run, the tool ran once", async () => {
    let release = () => {};
    const w = edgeWorld({ answered: new Promise<void>((resolve) => (release = resolve)) });
    const { session } = sessionIn(w);
    await session.send("which city?");
    const { runId, requests } = session.state;
    const status = async () => ((await (await w.get(runId!)).json()) as { status: string }).status;
    const answering = session.answer(answerOutput(requests[0]!.id, "Rome"), { text: "Rome" }); // the tool is held
    while ((await status()) !== "running") await new Promise((resolve) => setTimeout(resolve, 5));
    session.abort();
    release();
    await answering;
    expect(session.state).toMatchObject({ status: "waiting", runId, requests });
    while ((await status()) === "running") await new Promise((resolve) => setTimeout(resolve, 5));
    await session.answer(answerOutput(requests[0]!.id, "Rome"));
    expect(session.state).toMatchObject({ status: "done", requests: [] });
    expect(texts(session.state).at(-1)).toBe("assistant: Done: city Rome");
    expect(w.executions).toEqual(["ask_city:Rome"]);
  });

  it("a double submit while streaming is ignored: one execution", async () => {
    const w = edgeWorld();
    const { session } = sessionIn(w);
    await session.send("which city?");
    const answer = answerOutput(session.state.requests[0]!.id, "Lima");
    await Promise.all([session.answer(answer), session.answer(answer), session.send("another")]);
    expect(session.state.status).toBe("done");
    expect(w.executions).toEqual(["ask_city:Lima"]);
  });

  it("a declined question ends the run without running the tool", async () => {
    const w = edgeWorld();
    const { session } = sessionIn(w);
    await session.send("which city?");
    await session.answer(answerDeclined(session.state.requests[0]!.id));
    expect(session.state.status).toBe("done");
    expect(w.executions).toEqual([]);
    expect(session.state.messages.at(-1)?.text).toMatch(/^Done: declined/);
  });

  it("an answer the server refuses as gone (already answered elsewhere) clears the question", async () => {
    const w = edgeWorld();
    const stale = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: null });
    // a session whose question was answered elsewhere: the server says run_conflict, the card goes away
    await stale.send("which city?");
    const open = stale.state.requests[0]!;
    await w.post({ runId: stale.state.runId, answer: answerOutput(open.id, "Oslo") });
    await stale.answer(answerOutput(open.id, "Riga"));
    expect(stale.state).toMatchObject({ status: "error", requests: [], runId: undefined });
    expect(stale.state.error?.code).toBe("run_conflict");
    expect(w.executions).toEqual(["ask_city:Oslo"]);
  });

  it("a refused connection is a network error in the state; the session can send again", async () => {
    const w = edgeWorld();
    let down = true;
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      down ? Promise.reject(new TypeError("Failed to fetch")) : w.fetch(input, init)) as typeof globalThis.fetch;
    const session = createRunSession({ endpoint: "/api/run", fetch, storage: null });
    await session.send("hello");
    expect(session.state.status).toBe("error");
    expect(session.state.error).toMatchObject({ code: "network", message: expect.stringMatching(/^toolnexus: /) });
    down = false;
    await session.send("hello again");
    expect(session.state).toMatchObject({ status: "done", error: undefined });
    expect(session.state.messages.at(-1)?.text).toBe("You said: hello again");
  });

  it("a connection cut mid-stream keeps the text so far and shows the error; the question can be answered again", async () => {
    const w = edgeWorld();
    let cut = false;
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await w.fetch(input, init);
      if (!cut || !res.body) return res;
      const reader = res.body.getReader();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const { done, value } = await reader.read();
          if (done || sent++ > 0) return c.error(new TypeError("network error"));
          c.enqueue(value);
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    }) as typeof globalThis.fetch;
    const session = createRunSession({ endpoint: "/api/run", fetch, storage: null });
    await session.send("which city?");
    const request = session.state.requests[0]!;
    cut = true;
    await session.answer(answerOutput(request.id, "Lima"));
    expect(session.state.status).toBe("error");
    expect(session.state.error?.code).toBe("network");
    expect(session.state.requests.map((q) => q.id)).toEqual([request.id]); // still there to answer again
  });

  it("stops reading at the done event, even when the connection stays open after it (a proxy holding it)", async () => {
    const w = edgeWorld();
    let cancelled: (reason: unknown) => void = () => {};
    const cancel = new Promise((resolve) => (cancelled = resolve));
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await w.fetch(input, init);
      if (!res.body) return res;
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const { done, value } = await reader.read();
          if (!done) c.enqueue(value); // at the end: never closes, never sends more
        },
        cancel: (reason) => cancelled(reason),
      });
      return new Response(body, { status: res.status, headers: res.headers });
    }) as typeof globalThis.fetch;
    const session = createRunSession({ endpoint: "/api/run", fetch, storage: null });
    await session.send("hello");
    expect(session.state).toMatchObject({ status: "done", error: undefined });
    expect(session.state.messages.at(-1)?.text).toBe("You said: hello");
    await cancel; // the held-open body was let go
  });

  it("an HTML-looking prompt is kept as text", async () => {
    const w = edgeWorld();
    const { session } = sessionIn(w);
    const evil = '<img src=x onerror="window.pwned=1">';
    await session.send(evil);
    expect(session.state.messages).toEqual([
      { role: "user", text: evil },
      { role: "assistant", text: `You said: ${evil}` },
    ]);
  });

  it("abort stops reading: the text so far stays, the session is idle, and it can send again", async () => {
    const w = edgeWorld();
    let hold = true;
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!hold) return w.fetch(input, init);
      const first = new TextEncoder().encode(
        `event: text\ndata: ${JSON.stringify({ type: "text", delta: "Par" })}\n\n`,
      );
      const signal = init?.signal;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(first);
          signal?.addEventListener("abort", () => c.error(signal.reason));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }) as typeof globalThis.fetch;
    const session = createRunSession({ endpoint: "/api/run", fetch, storage: null });
    const streaming = new Promise<void>((resolve) => session.subscribe((s) => s.text === "Par" && resolve()));
    const sent = session.send("hello");
    await streaming;
    session.abort();
    await sent;
    expect(session.state).toMatchObject({ status: "idle", error: undefined, text: "" });
    expect(texts(session.state)).toEqual(["user: hello", "assistant: Par"]);
    hold = false;
    await session.send("again");
    expect(session.state.status).toBe("done");
  });

  it("keeps the conversation and the open run in the given Web Storage, and survives one that throws", async () => {
    const w = edgeWorld();
    const { session, storage } = sessionIn(w);
    await session.send("which city?");
    const kept = JSON.parse([...storage.data.values()][0]!);
    expect(kept.runId).toBe(session.state.runId);
    expect(kept.messages).toEqual([{ role: "user", text: "which city?" }]);
    expect(JSON.stringify(kept)).not.toContain("SYSTEM-PROMPT");
    const broken: SessionStorageLike = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
      removeItem: () => {},
    };
    const other = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: broken });
    await other.send("hi");
    expect(other.state.status).toBe("done");
  });

  it("createRunSession needs an endpoint", () => {
    expect(() => createRunSession({} as never)).toThrow(/needs \{ endpoint \}/);
  });
});
