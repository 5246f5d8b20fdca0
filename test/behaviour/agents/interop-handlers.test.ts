// createAgUiHandler({ client, agent }) and createUiMessageStreamHandler({ client, agent }): a page on AG-UI or
// useChat talks to an agent as to a run. On AG-UI a delegation shows as SUBAGENT_STARTED (the first under the
// `task` call that delegated) and, while the leaf waits, SUBAGENT_FINISHED `suspended` with its interrupt's id;
// the leaf's interrupt carries `subagentRunId`. Answered, the tree finishes and the tool ran once.
import { createAgUiHandler } from "toolnexus/ag-ui";
import { createUiMessageStreamHandler } from "toolnexus/ai-sdk";
import { describe, expect, it } from "vitest";
import { dataFrames } from "../../support/interop";
import { clientOn, world } from "./support";

const post = (handler: (request: Request) => Promise<Response>, body: unknown) =>
  handler(
    new Request("https://edge.test/api", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

const input = (threadId: string, runId: string, extra: Record<string, unknown>) => ({
  threadId,
  runId,
  messages: [],
  tools: [],
  context: [],
  state: {},
  ...extra,
});

describe("the interop handlers with an agent", () => {
  it("AG-UI: each delegation a SUBAGENT_STARTED, the leaf's interrupt names its sub-agent; resumed, it ran once", async () => {
    const w = world();
    const handler = createAgUiHandler({ client: clientOn(w.storage, w.counts), agent: w.coordinator });
    const ask = input("t-agents", "r1", { messages: [{ id: "u1", role: "user", content: "dinner on Friday" }] });
    const events = await dataFrames(await post(handler, ask));
    const sub = events.filter((e) => e.type.startsWith("SUBAGENT_"));
    const planner = "root/coordinator.1/planner.1";
    const booker = `${planner}/booker.1`;
    expect(sub).toEqual([
      { type: "SUBAGENT_STARTED", subagentRunId: planner, parentToolCallId: "c1" },
      { type: "SUBAGENT_STARTED", subagentRunId: booker, parentSubagentRunId: planner },
      { type: "SUBAGENT_FINISHED", subagentRunId: booker, outcome: "suspended", interruptIds: [expect.any(String)] },
      { type: "SUBAGENT_FINISHED", subagentRunId: planner, outcome: "suspended", interruptIds: [expect.any(String)] },
    ]);
    const finished = events.at(-1);
    expect(finished.outcome.type).toBe("interrupt");
    const [interrupt] = finished.outcome.interrupts;
    expect(interrupt).toMatchObject({ reason: "tool_call", subagentRunId: booker });
    expect(sub[2].interruptIds).toEqual([interrupt.id]);
    expect(w.counts.booked).toEqual([]);

    const resume = [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }];
    const done = await dataFrames(await post(handler, input("t-agents", "r2", { resume })));
    expect(done.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(done.at(-1).result).toBe("coord: planned: booker: table booked for friday");
    expect(w.counts.booked).toEqual(["friday"]);
  });

  it("useChat: the leaf's approval reaches the page and, approved, the tree finishes once", async () => {
    const w = world();
    const handler = createUiMessageStreamHandler({ client: clientOn(w.storage, w.counts), agent: w.coordinator });
    const user = { id: "u1", role: "user", parts: [{ type: "text", text: "dinner on Friday" }] };
    const chunks = await dataFrames(await post(handler, { id: "chat-agents", messages: [user] }));
    const asked = chunks.find((c) => c.type === "tool-approval-request");
    expect(asked).toMatchObject({ toolCallId: "c1" });
    expect(w.counts.booked).toEqual([]);
    const part = {
      type: "tool-task",
      toolCallId: "c1",
      state: "approval-responded",
      approval: { id: asked.approvalId, approved: true },
    };
    const answer = { id: "a1", role: "assistant", parts: [part] };
    const done = await dataFrames(await post(handler, { id: "chat-agents", messages: [user, answer] }));
    const text = done.filter((c) => c.type === "text-delta").map((c) => c.delta);
    expect(text.join("")).toBe("coord: planned: booker: table booked for friday");
    expect(w.counts.booked).toEqual(["friday"]);
  });

  it("an agent and a toolkit together are refused by both", () => {
    const w = world();
    const client = clientOn(w.storage, w.counts);
    expect(() => createAgUiHandler({ client, agent: w.planner, toolkit: [] })).toThrow(/agent must be given alone/);
    expect(() => createUiMessageStreamHandler({ client, agent: w.planner, toolkit: [] })).toThrow(
      /agent must be given alone/,
    );
  });
});
