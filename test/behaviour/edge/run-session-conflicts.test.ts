// Which conflict a page session ran into, as its state shows it: `state.error.reason`, the field the widget and
// the hook branch on (never the message's words). Two tabs of one conversation, each with its own session.
import { describe, expect, it } from "vitest";
import { answerOutput, createRunSession, memoryStorage } from "toolnexus";
import { memoryWebStorage } from "../../support/edge";
import { gate, isolate, provider, tools } from "../../support/edge-streams";

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

/** Tab B: a session whose Web Storage knows only tab A's conversation (no run of its own to show). */
function secondTab(first: ReturnType<typeof memoryWebStorage>, fetch: typeof globalThis.fetch) {
  const conversationId = JSON.parse([...first.data.values()][0]!).conversationId as string;
  const web = memoryWebStorage();
  web.setItem("toolnexus:run-session", JSON.stringify({ conversationId, messages: [] }));
  return createRunSession({ endpoint: "/api/run", fetch, storage: web });
}

describe("a page session's conflicts carry their reason", () => {
  it('busy: a prompt while another tab streams the conversation → state.error.reason === "busy"', async () => {
    const held = gate();
    const storage = memoryStorage();
    const edge = isolate(storage, provider([{ tokens: ["a ", "b"], gateAt: 1, gate: held.promise }]), []);
    const webA = memoryWebStorage();
    const a = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: webA });
    const sending = a.send("first");
    while (!a.state.text) await tick();
    const b = secondTab(webA, edge.fetch);
    await b.send("second");
    expect(b.state).toMatchObject({ status: "error", error: { code: "run_conflict", reason: "busy" } });
    held.open();
    await sending;
    expect(a.state.status).toBe("done");
  });

  it('waiting: a prompt while the conversation waits on an open question → state.error.reason === "waiting"', async () => {
    const kit = tools();
    const edge = isolate(
      memoryStorage(),
      provider([{ tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] }]),
      kit.list,
    );
    const webA = memoryWebStorage();
    const a = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: webA });
    await a.send("city?");
    expect(a.state.status).toBe("waiting");
    const b = secondTab(webA, edge.fetch);
    await b.send("something else");
    expect(b.state).toMatchObject({ status: "error", error: { code: "run_conflict", reason: "waiting" } });
    expect(a.state.requests).toHaveLength(1); // tab A's question is still open
  });

  it(`finished: an answer to a run the other tab's answer finished → the question is gone, state.error.reason === "finished"`, async () => {
    const kit = tools();
    const turns = [{ tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] }, { tokens: ["Lima it is."] }];
    const edge = isolate(memoryStorage(), provider(turns), kit.list);
    const webA = memoryWebStorage();
    const a = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: webA });
    await a.send("city?");
    const webB = memoryWebStorage();
    for (const [k, v] of webA.data) webB.setItem(k, v);
    const b = createRunSession({ endpoint: "/api/run", fetch: edge.fetch, storage: webB });
    await b.restore();
    const question = a.state.requests[0]!;
    await a.answer(answerOutput(question.id, "Lima"));
    expect(a.state.status).toBe("done");
    await b.answer(answerOutput(question.id, "Quito"));
    expect(b.state.error).toMatchObject({ code: "run_conflict" });
    expect(b.state.error?.reason).toBe("finished");
    expect(b.state.requests).toEqual([]);
    expect(kit.seen.asked).toEqual(["Lima"]);
  });
});
