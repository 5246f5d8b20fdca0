// How many waits one caller keeps open at once: a prompt sent with `stopped` waits for the exchange it stopped
// to let go of the conversation, holding its request open meanwhile. Past maxHeldWaits, the next is refused at
// once with 429 too_many_requests; another caller is not held back by them, and the waits go on to their ends.
import { describe, expect, it } from "vitest";
import { answerOutput, memoryStorage, type RunStorage } from "toolnexus";
import { frames, gate, isolate, provider, textOf, tools } from "../../support/edge-streams";

/** Memory storage that counts reads of keys starting with `prefix` (a prompt's every try reads its conversation). */
function counted(prefix = "conversation:"): RunStorage & { reads: () => number } {
  const inner = memoryStorage();
  let reads = 0;
  return {
    ...inner,
    get: (key) => {
      if (key.startsWith(prefix)) reads++;
      return inner.get(key);
    },
    compareAndSet: inner.compareAndSet,
    reads: () => reads,
  };
}

/** Waits, a task at a time, until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 0));
}

const as = (user?: string) => (user ? { "x-user": user } : ({} as Record<string, string>));

function world(maxHeldWaits?: number) {
  const storage = counted();
  const held = gate();
  const turns = [
    { tokens: ["one ", "two"], gateAt: 1, gate: held.promise },
    { tokens: ["ok"] },
    { tokens: ["ok"] },
    { tokens: ["ok"] },
  ];
  const edge = isolate(storage, provider(turns), tools().list, {
    owner: (r) => r.headers.get("x-user"),
    ...(maxHeldWaits === undefined ? {} : { maxHeldWaits }),
  });
  const post = (user: string | undefined, body: Record<string, unknown>) => edge.post(body, as(user));
  return { storage, held, post };
}

describe("held waits", () => {
  it("past maxHeldWaits, a stopped prompt is refused with 429 at once; the waits held go on to their runs", async () => {
    const w = world(2);
    const busy = await w.post("alice", { prompt: "count", conversationId: "c1" }); // holds c1 at the gate
    const reading = frames(busy).rest();
    const before = w.storage.reads();
    const stopped = { prompt: "again", conversationId: "c1", stopped: true };
    const waiting = [w.post("alice", stopped), w.post("alice", stopped)];
    await until(() => w.storage.reads() >= before + 2); // each tried once, found c1 busy, and waits
    await new Promise((resolve) => setTimeout(resolve, 0));
    const refused = await w.post("alice", stopped);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("too_many_requests");
    expect(body.error.message).toContain("2 waits");
    // another caller is not held back by alice's waits
    const bobs = await w.post("bob", { prompt: "hi", conversationId: "c1", stopped: true });
    expect(textOf(await frames(bobs).rest())).toBe("ok");
    w.held.open();
    expect(textOf(await reading)).toBe("one two");
    for (const res of await Promise.all(waiting)) {
      expect(res.status).toBe(200);
      expect(textOf(await frames(res).rest())).toBe("ok");
    }
  });

  it("an anonymous caller's waits are bounded per conversation, and a bad bound is a config error", async () => {
    const w = world(1);
    const busy = await w.post(undefined, { prompt: "count", conversationId: "a1" });
    const reading = frames(busy).rest();
    const before = w.storage.reads();
    const stopped = { prompt: "again", conversationId: "a1", stopped: true };
    const waiting = w.post(undefined, stopped);
    await until(() => w.storage.reads() >= before + 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await w.post(undefined, stopped)).status).toBe(429);
    w.held.open();
    await reading;
    expect(textOf(await frames(await waiting).rest())).toBe("ok");
    expect(() => isolate(memoryStorage(), provider([]), [], { maxHeldWaits: -1 })).toThrow(/maxHeldWaits/);
  });

  it("a restore of a run another resume holds is a held wait too: past the bound, 429", async () => {
    const storage = counted("run:");
    const held = gate();
    const kit = tools();
    const turns = [
      { tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] },
      { tokens: ["Lima ", "it is."], gateAt: 1, gate: held.promise },
    ];
    const edge = isolate(storage, provider(turns), kit.list, {
      owner: (r) => r.headers.get("x-user"),
      maxHeldWaits: 1,
    });
    const halted = (await frames(await edge.post({ prompt: "city?" }, as("alice"))).rest()).at(-1)!.event as {
      result: { runId: string; pending: { id: string } };
    };
    const { runId, pending } = halted.result;
    // the run resumed by another process (not through this endpoint), held mid-answer
    const elsewhere = (async () => {
      let text = "";
      const answer = answerOutput(pending.id, "Lima");
      for await (const e of edge.client.resumeStream(runId, answer, { toolkit: kit.list })) {
        if (e.type === "text") text += e.delta;
      }
      return text;
    })();
    await until(() => kit.seen.asked.length === 1); // it claimed the run and ran the tool
    const before = storage.reads();
    const waiting = edge.post({ runId, restore: true }, as("alice"));
    await until(() => storage.reads() > before); // it found the run running, and waits
    await new Promise((resolve) => setTimeout(resolve, 0));
    const refused = await edge.post({ runId, restore: true }, as("alice"));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("too_many_requests");
    held.open();
    expect(await elsewhere).toBe("Lima it is.");
    const restored = await frames(await waiting).rest();
    expect(restored.at(-1)!.event).toMatchObject({ type: "done", result: { status: "done" } });
  });
});
