// Conversations never lose an exchange: a late duplicate resume, two concurrent asks, a lease renewed by a
// long exchange and given up by a dead one, a declined answer settling it once. docs/guide/reliability.md
// indexes them.
import {
  answerDeclined,
  answerOutput,
  createClient,
  createInProcessClient,
  defineTool,
  memoryStorage,
  RunConflictError,
  type RunStorage,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../../support/results";
import { base, kit, model } from "../../support/exactly-once";

describe("conversations never lose an exchange", () => {
  const openai = { ...base, style: "openai" } as const;

  it("a late duplicate resume (a double-submitted form) leaves a conversation that moved on as it is", async () => {
    const storage = memoryStorage();
    const k = kit();
    const s = model("openai", (seen) => {
      if (seen === "") return { calls: [{ name: "ask_city" }] };
      return seen.endsWith("ask_city=Oslo") ? { text: "Oslo noted" } : { text: "second answer" };
    });
    const client = createClient({ ...openai, fetch: s.fetch, storage });
    const conv = client.conversation({ id: "c1", toolkit: k.tools });
    const halted = asPending(await conv.send("plan a trip"));
    const a = answerOutput("q-city", "Oslo");
    await client.resume(halted.runId!, a, { toolkit: k.tools });
    const moved = await conv.send("and then?");
    expect(moved.status).toBe("done");
    const kept = await client.resume(halted.runId!, a, { toolkit: k.tools }); // the duplicate arrives late
    expect(kept.text).toBe("Oslo noted");
    const messages = JSON.stringify(await conv.messages());
    expect(messages).toContain("and then?");
    expect(k.runs.ask_city).toBe(1);
  });

  it("two concurrent asks on one conversation: one runs, the other is a RunConflictError before anything runs", async () => {
    const storage = memoryStorage();
    let calls = 0;
    const s = model("openai", () => (calls++, { text: "hi" }));
    const client = createClient({ ...openai, fetch: s.fetch, storage });
    const settled = await Promise.allSettled([client.ask("one", { id: "c2" }), client.ask("two", { id: "c2" })]);
    expect(settled.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = settled.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(RunConflictError);
    expect(calls).toBe(1);
    const messages = (await client.conversation({ id: "c2" }).messages()) as { content: unknown }[];
    expect(messages.filter((m) => m.content === "one" || m.content === "two")).toHaveLength(1);
    await client.ask("three", { id: "c2" }); // the conversation is free again
  });

  /** A tool that runs until `release()`; an in-process client over `storage` whose model calls it for "wait". */
  /** Long enough that a loaded machine's pauses do not outlast a renewal (every third of it). */
  const LEASE_MS = 300;
  function slowWorld(storage: RunStorage) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const slow = defineTool({
      name: "slow",
      description: "runs until released",
      execute: async () => (runs++, await released, "slow done"),
    });
    const client = createInProcessClient({
      model: "m",
      storage,
      claimLeaseMs: LEASE_MS,
      generate: ({ messages }) => {
        const last = (messages as { role: string; content?: unknown }[]).at(-1)!;
        if (last.role === "tool") return { content: "after the slow tool" };
        return String(last.content) === "wait"
          ? { toolCalls: [{ id: "c", name: "slow", arguments: {} }] }
          : { content: "hi" };
      },
    });
    return { client, slow, release, runs: () => runs };
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Until the exchange's slow tool has started, so the conversation is surely claimed. */
  const started = async (w: { runs: () => number }) => {
    while (w.runs() === 0) await pause(5);
  };

  it("an exchange that runs longer than its lease keeps the conversation busy: the lease is renewed", async () => {
    const w = slowWorld(memoryStorage());
    const first = w.client.ask("wait", { id: "c-long", toolkit: [w.slow] });
    await started(w);
    await pause(4 * LEASE_MS);
    await expect(w.client.ask("meanwhile", { id: "c-long" })).rejects.toBeInstanceOf(RunConflictError);
    w.release();
    expect((await first).text).toBe("after the slow tool");
    expect((await w.client.ask("next", { id: "c-long" })).text).toBe("hi");
    expect(w.runs()).toBe(1);
  });

  it("an exchange whose process died (its writes fail) holds the conversation only until its lease passes", async () => {
    const shared = memoryStorage();
    let dead = false;
    const dying: RunStorage = {
      capabilities: shared.capabilities,
      get: (k) => shared.get(k),
      delete: (k) => shared.delete(k),
      set: (k, v, o) => (dead ? Promise.reject(new Error("gone")) : shared.set(k, v, o)),
      compareAndSet: (k, e, v, o) => (dead ? Promise.reject(new Error("gone")) : shared.compareAndSet!(k, e, v, o)),
    };
    const a = slowWorld(dying);
    const b = slowWorld(shared);
    const first = a.client.ask("wait", { id: "c-dead", toolkit: [a.slow] });
    await started(a);
    await expect(b.client.ask("meanwhile", { id: "c-dead" })).rejects.toBeInstanceOf(RunConflictError);
    dead = true; // from here on nothing of the first exchange reaches the store, as if its isolate had stopped
    await pause(2 * LEASE_MS);
    expect((await b.client.ask("after", { id: "c-dead" })).text).toBe("hi");
    a.release();
    await first.catch(() => {}); // its own outcome cannot be saved: it fails, and the conversation keeps b's exchange
    const said = JSON.stringify(await b.client.conversation({ id: "c-dead" }).messages());
    expect(said).toContain("after");
    expect(said).not.toContain("after the slow tool");
  });

  it("a declined answer still settles the conversation once", async () => {
    const storage = memoryStorage();
    const k = kit();
    const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
    const client = createClient({ ...openai, fetch: s.fetch, storage });
    const halted = asPending(await client.ask("x", { id: "c3", toolkit: k.tools }));
    const done = await client.resume(halted.runId!, answerDeclined("q-city"), { toolkit: k.tools });
    expect(done.text).toBe("declined/expired: q-city?");
    expect(JSON.stringify(await client.conversation({ id: "c3" }).messages())).toContain("declined/expired");
  });
});
