// A streamed run (what the edge run handler starts for `POST { prompt, conversationId }`) as a conversation's
// next exchange: the earlier turns are its history, and its outcome is saved — the same as ask(prompt, { id }).
import { answerOutput, createClient, memoryStorage, RunConflictError, type StreamEvent } from "toolnexus";
import { describe, expect, it } from "vitest";
import { askCity } from "../../support/asking-tool";
import { scripted } from "../../support/scripted";

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const e of events) seen.push(e);
  return seen;
}

describe("stream(prompt, { conversationId })", () => {
  it("remembers the earlier exchanges and saves its own; a reader that walks away frees the conversation", async () => {
    const s = scripted("openai", [{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }]);
    const client = createClient({ ...base, fetch: s.fetch, storage: memoryStorage() });
    await drain(client.stream("first question", { conversationId: "c1" }));
    await drain(client.stream("second question", { conversationId: "c1" }));
    const contents = (s.bodies[1]!.messages as { content: unknown }[]).map((m) => m.content);
    expect(contents).toEqual(["first question", "one", "second question"]);
    for await (const _ of client.stream("third", { conversationId: "c1" })) break; // the tab closed
    const last = await client.run("fourth", { conversationId: "c1" });
    expect(last.text).not.toBe("");
    const saved = (await client.conversation({ id: "c1" }).messages()) as { content: unknown }[];
    expect(saved.map((m) => m.content)).toContain("fourth");
  });

  it("the conversation is saved before the done event goes out: an answer sent the moment it arrives settles it", async () => {
    const s = scripted("openai", [{ calls: [{ name: "ask_city" }] }, { text: "Oslo it is" }, { text: "next" }]);
    const ask = askCity("q");
    const client = createClient({ ...base, fetch: s.fetch, storage: memoryStorage() });
    const events = client.stream("which city?", { conversationId: "c-now", toolkit: [ask] })[Symbol.asyncIterator]();
    let runId: string | undefined;
    while (!runId) {
      const step = await events.next();
      if (step.done) throw new Error("the stream ended without a done event");
      if (step.value.type === "done") runId = (step.value.result as { runId?: string }).runId;
    }
    // the reader holds the done event and has not asked for more, as a page that answers at once
    await expect(client.run("meanwhile", { conversationId: "c-now" })).rejects.toThrow(/waits on run/);
    await client.resume(runId, answerOutput("q", "Oslo"), { toolkit: [ask] });
    await events.return?.(undefined as never);
    const saved = JSON.stringify(await client.conversation({ id: "c-now" }).messages());
    expect(saved).toContain("which city?");
    expect(saved).toContain("Oslo it is");
    expect((await client.run("and then?", { conversationId: "c-now" })).text).toBe("next");
  });

  it("an answer sent the moment the pending event arrives, before done, leaves the conversation free for the next prompt", async () => {
    const s = scripted("openai", [{ calls: [{ name: "ask_city" }] }, { text: "Oslo it is" }, { text: "next" }]);
    const ask = askCity("q");
    const client = createClient({ ...base, fetch: s.fetch, storage: memoryStorage() });
    const seen: string[] = [];
    for await (const event of client.stream("which city?", { conversationId: "c-fast", toolkit: [ask] })) {
      seen.push(event.type);
      // a host that auto-answers: the run finishes before this stream's done event goes out
      if (event.type === "pending")
        expect((await client.resume(event.runId!, answerOutput("q", "Oslo"), { toolkit: [ask] })).status).toBe("done");
    }
    expect(seen.slice(-2)).toEqual(["usage", "done"]);
    const next = await client.ask("and then?", { id: "c-fast" });
    expect(next.text).toBe("next");
    const saved = JSON.stringify(await client.conversation({ id: "c-fast" }).messages());
    for (const said of ["which city?", "Oslo it is", "and then?", "next"]) expect(saved).toContain(said);
    expect(ask.answered()).toBe(1);
  });

  it("a second exchange while one streams is a RunConflictError before anything runs", async () => {
    let calls = 0;
    const s = scripted("openai", [{ text: "slow" }, { text: "never" }]);
    const fetch = (async (i: RequestInfo | URL, init?: RequestInit) => (
      calls++, s.fetch(i, init)
    )) as typeof globalThis.fetch;
    const client = createClient({ ...base, fetch, storage: memoryStorage() });
    const first = client.stream("a", { conversationId: "c2" })[Symbol.asyncIterator]();
    await first.next(); // the first exchange is running
    await expect(client.run("b", { conversationId: "c2" })).rejects.toThrow(RunConflictError);
    while (!(await first.next()).done);
    expect(calls).toBe(1);
  });
});
