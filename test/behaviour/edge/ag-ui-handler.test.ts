// createAgUiHandler: a RunAgentInput in, AG-UI events out — a plain run, a halt as an interrupt outcome,
// resumes under AG-UI's rules (every open interrupt addressed, replay, expiry), owners, and bodies it refuses.
import { describe, expect, it } from "vitest";
import { dataFrames, interopWorld } from "../../support/interop";

let n = 0;
const input = (threadId: string, extra: Record<string, unknown> = {}) => ({
  threadId,
  runId: `r${++n}`,
  messages: [],
  tools: [],
  context: [],
  state: {},
  ...extra,
});
const ask = (threadId: string, text: string) =>
  input(threadId, { messages: [{ id: `u${n}`, role: "user", content: text }] });
const types = (events: any[]) => events.map((e) => e.type);
const last = (events: any[]) => events.at(-1);
const textOf = (events: any[]) =>
  events
    .filter((e) => e.type === "TEXT_MESSAGE_CONTENT")
    .map((e) => e.delta)
    .join("");
const interruptsOf = (events: any[]) => last(events).outcome.interrupts as any[];

describe("createAgUiHandler", () => {
  it("a plain run: RUN_STARTED, the text as one message, one RUN_FINISHED; no field is null", async () => {
    const w = interopWorld();
    const res = await w.postAgUi(ask("t-plain", "hello"));
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = await dataFrames(res);
    expect([...new Set(types(events))]).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(textOf(events)).toBe("You said: hello");
    expect(last(events)).toMatchObject({ outcome: { type: "success" }, threadId: "t-plain" });
    expect(JSON.stringify(events)).not.toContain("null");
  });

  it("the thread's stored transcript is the truth: the client's history contributes only the new message", async () => {
    const w = interopWorld();
    await dataFrames(await w.postAgUi(ask("t-hist", "first")));
    const forged = [
      { id: "x", role: "user", content: "FORGED" },
      { id: "y", role: "user", content: "what did I say?" },
    ];
    const events = await dataFrames(await w.postAgUi(input("t-hist", { messages: forged })));
    expect(textOf(events)).toBe("Earlier: first");
  });

  it("a halt ends with an interrupt outcome, one Interrupt per open request, after a STATE_SNAPSHOT", async () => {
    const w = interopWorld({ resumeSecret: "interop-secret-0123456789-abcdefghij" });
    const events = await dataFrames(await w.postAgUi(ask("t-halt", "deploy twice")));
    expect(types(events).slice(-2)).toEqual(["STATE_SNAPSHOT", "RUN_FINISHED"]);
    const interrupts = interruptsOf(events);
    expect(interrupts).toHaveLength(2);
    expect(interrupts[0]).toMatchObject({ reason: "tool_call", toolCallId: "call_a", message: expect.any(String) });
    expect(typeof interrupts[0].metadata.token).toBe("string");
    expect(w.ran).toEqual([]);
  });

  it("a halt sends MESSAGES_SNAPSHOT before RUN_FINISHED: the page's messages and the run's calls, nothing secret", async () => {
    const w = interopWorld({ systemPrompt: "SYSTEM-SECRET-42" });
    const messages = [
      { id: "s0", role: "system", content: "PAGE-SYSTEM" },
      { id: "u0", role: "user", content: "earlier" },
      { id: "t0", role: "tool", toolCallId: "x", content: "TOOL-INTERNAL" },
      { id: "u1", role: "user", content: "deploy twice" },
    ];
    const events = await dataFrames(await w.postAgUi(input("t-snap", { messages })));
    expect(types(events).slice(-3)).toEqual(["MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    const snapshot = events.find((e) => e.type === "MESSAGES_SNAPSHOT");
    const call = (id: string, env: string) => ({
      id,
      type: "function",
      function: { name: "deploy", arguments: JSON.stringify({ env }) },
    });
    expect(snapshot.messages).toEqual([
      { id: "u0", role: "user", content: "earlier" },
      { id: "u1", role: "user", content: "deploy twice" },
      { id: expect.any(String), role: "assistant", toolCalls: [call("call_a", "a"), call("call_b", "b")] },
    ]);
    const text = JSON.stringify(snapshot);
    for (const secret of ["SYSTEM-SECRET-42", "PAGE-SYSTEM", "TOOL-INTERNAL"]) expect(text).not.toContain(secret);
  });

  it("approve and decline in one resume: the approved call runs once, the declined never; TOOL_CALL_RESULT per call", async () => {
    const w = interopWorld();
    const [a, b] = interruptsOf(await dataFrames(await w.postAgUi(ask("t-ok", "deploy twice"))));
    const resume = [
      { interruptId: a.id, status: "resolved", payload: { approved: true } },
      { interruptId: b.id, status: "resolved", payload: { approved: false } },
    ];
    const events = await dataFrames(await w.postAgUi(input("t-ok", { resume })));
    expect(w.ran).toEqual(["deploy:a"]);
    const results = events.filter((e) => e.type === "TOOL_CALL_RESULT");
    expect(results.map((r) => r.toolCallId)).toEqual(["call_a", "call_b"]);
    expect(last(events)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    // an identical replay gets the same outcome, and runs nothing again
    const again = await dataFrames(await w.postAgUi(input("t-ok", { resume })));
    expect(last(again)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(w.ran).toEqual(["deploy:a"]);
  });

  it("a partial resume is RUN_ERROR and consumes nothing; new input while interrupts are open is RUN_ERROR", async () => {
    const w = interopWorld();
    const [a, b] = interruptsOf(await dataFrames(await w.postAgUi(ask("t-part", "deploy twice"))));
    const partial = await dataFrames(
      await w.postAgUi(
        input("t-part", { resume: [{ interruptId: a.id, status: "resolved", payload: { approved: true } }] }),
      ),
    );
    expect(types(partial)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    const blocked = await dataFrames(await w.postAgUi(ask("t-part", "hello")));
    expect(types(blocked)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(w.ran).toEqual([]);
    const resume = [a, b].map((i) => ({ interruptId: i.id, status: "resolved", payload: { approved: true } }));
    expect(last(await dataFrames(await w.postAgUi(input("t-part", { resume }))))).toMatchObject({
      type: "RUN_FINISHED",
    });
    expect(w.ran).toEqual(["deploy:a", "deploy:b"]);
  });

  it("a question: input_required with the options as its schema; the chosen option is the answer", async () => {
    const w = interopWorld();
    const [q] = interruptsOf(await dataFrames(await w.postAgUi(ask("t-q", "which city?"))));
    expect(q).toMatchObject({ reason: "input_required", responseSchema: { type: "string", enum: ["Oslo", "Lima"] } });
    const events = await dataFrames(
      await w.postAgUi(input("t-q", { resume: [{ interruptId: q.id, status: "resolved", payload: "Lima" }] })),
    );
    expect(events.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({
      toolCallId: "call_city",
      content: "city Lima",
    });
    expect(w.ran).toEqual(["ask_city:Lima"]);
  });

  it("an expired interrupt resolved is RUN_ERROR and runs nothing; cancelled, the thread goes on", async () => {
    const w = interopWorld();
    const [late] = interruptsOf(await dataFrames(await w.postAgUi(ask("t-late", "late"))));
    expect(late.expiresAt).toBe("2001-01-01T00:00:00.000Z");
    const refused = await dataFrames(
      await w.postAgUi(input("t-late", { resume: [{ interruptId: late.id, status: "resolved", payload: "now" }] })),
    );
    expect(last(refused)).toMatchObject({ type: "RUN_ERROR", code: "run_conflict" });
    expect(w.ran).toEqual([]);
    const cancelled = await dataFrames(
      await w.postAgUi(input("t-late", { resume: [{ interruptId: late.id, status: "cancelled" }] })),
    );
    expect(last(cancelled)).toMatchObject({ type: "RUN_FINISHED" });
  });

  it("expiry is read on the client's clock: an interrupt not yet expired by it is resolved and runs", async () => {
    // the client's time stands a day before the request's expiresAt (2001-01-01), long past by the system clock
    const w = interopWorld({ clock: { now: () => Date.parse("2000-12-31T00:00:00.000Z") } });
    const [late] = interruptsOf(await dataFrames(await w.postAgUi(ask("t-clock", "late"))));
    const events = await dataFrames(
      await w.postAgUi(input("t-clock", { resume: [{ interruptId: late.id, status: "resolved", payload: "now" }] })),
    );
    expect(last(events)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(w.ran).toEqual(["late:ok"]);
  });

  it("another owner's thread is not theirs: the same threadId is a thread of their own", async () => {
    const w = interopWorld();
    const [a, b] = interruptsOf(await dataFrames(await w.postAgUi(ask("t-own", "deploy twice"))));
    const resume = [a, b].map((i) => ({ interruptId: i.id, status: "resolved", payload: { approved: true } }));
    const stranger = await dataFrames(await w.postAgUi(input("t-own", { resume }), "eve"));
    expect(types(stranger)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(w.ran).toEqual([]);
  });

  it("a body too large, too deep, not JSON or without a thread is a 4xx with the error body", async () => {
    const w = interopWorld({ maxBodyBytes: 4096 });
    const big = await w.postAgUi(ask("t-big", "x".repeat(5000)));
    expect(big.status).toBe(413);
    let deep: unknown = "x";
    for (let i = 0; i < 200; i++) deep = [deep];
    const nested = await w.postAgUi(input("t-deep", { state: deep }));
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as any).error.code).toBe("bad_request");
    expect((await w.postAgUi("{not json")).status).toBe(400);
    expect((await w.postAgUi({ runId: "r", messages: [] })).status).toBe(400);
  });
});
