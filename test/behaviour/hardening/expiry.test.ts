// `client.expire()` (semantics 8): it continues the due runs alone, found through the deadline index, and
// exactly once — an answer racing an expiry, or two sweepers, never run the loop twice; a write that fails
// during a continuation leaves the run to the next sweep.
import { answerApproval, memoryStorage, RunConflictError, type RunStorage } from "toolnexus";
import { raceSweepers } from "toolnexus/testing";
import { describe, expect, it } from "vitest";
import { approvalTool, askTool, clientOn, echoModel, fakeClock } from "../../support/deadlines";
import { barrier, faultyStorage, type FaultyStorage } from "../../support/faulty-storage";
import { asPending } from "../../support/results";
import { scripted } from "../../support/scripted";

/** Halts `n` runs of `ask`, the i-th due `dueIn(i)` seconds from now; resolves their run ids. */
async function haltMany(
  clock: ReturnType<typeof fakeClock>,
  storage: RunStorage,
  n: number,
  dueIn: (i: number) => number,
) {
  const ask = askTool(clock);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = echoModel({ calls: [{ name: "ask", args: { q: `Q${i}`, in: dueIn(i) } }] });
    ids.push(asPending(await clientOn(clock, s.fetch, {}, storage).run("ask", { toolkit: [ask.tool] })).runId);
  }
  return { ids, ask };
}

/** A storage that counts the reads of each run's record. */
function counted(inner: RunStorage) {
  const reads = new Map<string, number>();
  const storage: RunStorage = {
    ...inner,
    capabilities: inner.capabilities,
    get: (key) => {
      if (key.startsWith("run:")) reads.set(key.slice(4), (reads.get(key.slice(4)) ?? 0) + 1);
      return inner.get(key);
    },
    set: (k, v, o) => inner.set(k, v, o),
    delete: (k) => inner.delete(k),
    compareAndSet: (k, e, v, o) => inner.compareAndSet!(k, e, v, o),
  };
  return { storage, reads };
}

/** Holds the first claim of a run until a second claim of it has been tried (and, unhindered, landed). */
function holdFirstClaim(storage: FaultyStorage) {
  let release: (() => void) | undefined;
  let claims = 0;
  return async (key: string) => {
    if (!key.startsWith("run:")) return;
    claims++;
    if (claims === 1) await new Promise<void>((resolve) => (release = resolve));
    else if (claims === 2) {
      const inner = storage.inner;
      const original = storage.inner.compareAndSet!.bind(inner);
      // let the second claim land first, then the first one goes on (and loses)
      inner.compareAndSet = async (...args) => {
        inner.compareAndSet = original;
        const wrote = await original(...args);
        release?.();
        return wrote;
      };
    }
  };
}

describe("client.expire", () => {
  it("continues only the due runs, reading only their records, and each once", async () => {
    const clock = fakeClock();
    const { storage, reads } = counted(memoryStorage({ now: clock.now }));
    const { ids, ask } = await haltMany(clock, storage, 12, (i) => (i % 4 === 0 ? 60 : 3600));
    reads.clear();
    clock.advance(120);
    const s = echoModel({ text: "unused" });
    const client = clientOn(clock, s.fetch, {}, storage);
    const due = ids.filter((_, i) => i % 4 === 0);
    const { continued } = await client.expire({ toolkit: [ask.tool] });
    expect(continued.sort()).toEqual(due.sort());
    expect([...reads.keys()].sort()).toEqual(due.sort());
    for (const id of due) expect((await client.inspect(id))?.status).toBe("done");
    expect((await client.inspect(ids[1]!))?.status).toBe("pending");
    expect((await client.expire({ toolkit: [ask.tool] })).continued).toEqual([]);
    expect(ask.state.runs).toBe(0);
  });

  it("works through get and set alone on an adapter without compareAndSet (best effort, as Workers KV)", async () => {
    const clock = fakeClock();
    const storage = faultyStorage(memoryStorage({ now: clock.now }), { withoutCompareAndSet: true });
    const { ids, ask } = await haltMany(clock, storage, 3, (i) => (i === 1 ? 3600 : 30));
    clock.advance(60);
    const client = clientOn(clock, echoModel({ text: "x" }).fetch, {}, storage);
    expect((await client.expire({ toolkit: [ask.tool] })).continued.sort()).toEqual([ids[0], ids[2]].sort());
    expect(storage.log.some((e) => e.op === "compareAndSet")).toBe(false);
  });

  it("limit bounds one sweep; the rest are continued by the next", async () => {
    const clock = fakeClock();
    const storage = memoryStorage({ now: clock.now });
    const { ids, ask } = await haltMany(clock, storage, 3, (i) => 10 + i);
    clock.advance(60);
    const client = clientOn(clock, echoModel({ text: "x" }).fetch, {}, storage);
    expect((await client.expire({ toolkit: [ask.tool], limit: 2 })).continued).toEqual(ids.slice(0, 2));
    expect((await client.expire({ toolkit: [ask.tool], limit: 2 })).continued).toEqual(ids.slice(2));
    await expect(client.expire({ toolkit: [ask.tool], limit: 0 })).rejects.toMatchObject({ code: "config" });
    await expect(client.expire({} as never)).rejects.toMatchObject({ code: "config" });
  });

  for (const order of ["as they come", "the first claim held until the second landed"])
    it(`an answer and an expiry racing (${order}): one wins, the loop runs once, the losing answer is told answered`, async () => {
      const clock = fakeClock();
      const storage = faultyStorage(memoryStorage({ now: clock.now }));
      const { tool, state } = approvalTool(60);
      const s = echoModel({ calls: [{ name: "book" }] });
      const client = clientOn(clock, s.fetch, {}, storage);
      const halted = asPending(await client.run("book", { toolkit: [tool] }));
      clock.advance(61);
      const lineUp = barrier(2); // both read the halted record before either claims it
      storage.beforeGet = (key) => (key.startsWith("run:") ? lineUp() : undefined);
      if (order !== "as they come") storage.beforeCompareAndSet = holdFirstClaim(storage);
      const [answered, swept] = await Promise.allSettled([
        client.resume(halted.runId, answerApproval(halted.pending.id), { toolkit: [tool] }),
        client.expire({ toolkit: [tool] }),
      ]);
      storage.beforeGet = undefined;
      storage.beforeCompareAndSet = undefined;
      expect(s.bodies).toHaveLength(2); // the halted turn, then one continuation
      expect(state.runs).toBe(0);
      const continued = swept.status === "fulfilled" ? swept.value.continued : [];
      // as they come, the answer claims first; held, the expiry does
      expect(answered.status).toBe(order === "as they come" ? "fulfilled" : "rejected");
      if (answered.status === "fulfilled") expect(continued).toEqual([]);
      else {
        expect(continued).toEqual([halted.runId]);
        expect(answered.reason).toBeInstanceOf(RunConflictError);
        expect((answered.reason as RunConflictError).reason).toBe("answered");
      }
    });

  it("two sweepers racing continue each run once", async () => {
    const clock = fakeClock();
    const storage = faultyStorage(memoryStorage({ now: clock.now }));
    const { ids, ask } = await haltMany(clock, storage, 3, () => 30);
    clock.advance(60);
    const s = scripted(
      "openai",
      Array.from({ length: 6 }, () => ({ text: "ok" })),
    );
    const { fetch } = s;
    const lineUp = barrier(2);
    storage.beforeGet = (key) => (key.startsWith("run:") ? lineUp() : undefined);
    const [a, b] = await Promise.all([
      clientOn(clock, fetch, {}, storage).expire({ toolkit: [ask.tool] }),
      clientOn(clock, fetch, {}, storage).expire({ toolkit: [ask.tool] }),
    ]);
    storage.beforeGet = undefined;
    expect([...a.continued, ...b.continued].sort()).toEqual([...ids].sort());
    expect(s.bodies).toHaveLength(3);
  });

  it("three sweepers over the published race: every due run continued once, by one of them", async () => {
    const outcome = await raceSweepers(memoryStorage(), { runs: 6, sweepers: 3 });
    expect(new Set(outcome.continued).size).toBe(6);
    expect([outcome.continued.length, outcome.continuations, outcome.executions]).toEqual([6, 6, 0]);
  });

  it("a conversation waiting on a question nobody answers is free again once the sweep continued it", async () => {
    const clock = fakeClock();
    const storage = memoryStorage({ now: clock.now });
    const { tool, state } = approvalTool(60);
    const s = scripted("openai", [{ calls: [{ name: "book" }] }, { text: "expired, sorry" }, { text: "hello again" }]);
    const client = clientOn(clock, s.fetch, {}, storage);
    const first = asPending(await client.ask("book", { id: "conv-1", toolkit: [tool] }));
    await expect(client.ask("hi", { id: "conv-1", toolkit: [tool] })).rejects.toMatchObject({ reason: "waiting" });
    clock.advance(61);
    expect((await client.expire({ toolkit: [tool] })).continued).toEqual([first.runId]);
    const next = await client.ask("hi", { id: "conv-1", toolkit: [tool] });
    expect(next.text).toBe("hello again");
    expect(state.runs).toBe(0);
  });

  it("a write that fails during a continuation leaves the run to the next sweep, which finishes it", async () => {
    const clock = fakeClock();
    const storage = faultyStorage(memoryStorage({ now: clock.now }));
    const { ids, ask } = await haltMany(clock, storage, 1, () => 30);
    clock.advance(60);
    const s = echoModel({ text: "unused" });
    const client = clientOn(clock, s.fetch, {}, storage);
    let casts = 0;
    storage.beforeCompareAndSet = (key) => {
      if (key.startsWith("run:") && ++casts === 2) throw new Error("disk full"); // the claim lands, the next write fails
    };
    const warn = console.warn;
    const warned: unknown[] = [];
    console.warn = (message: unknown) => warned.push(message); // the sweep says which run it could not continue
    try {
      expect((await client.expire({ toolkit: [ask.tool] })).continued).toEqual([]);
    } finally {
      console.warn = warn;
    }
    expect(String(warned[0])).toContain(ids[0]!);
    storage.beforeCompareAndSet = undefined;
    expect((await client.expire({ toolkit: [ask.tool] })).continued).toEqual(ids);
    const seen = s.bodies.map((b) => JSON.stringify(b)).filter((b) => b.includes("declined/expired: Q0"));
    expect(seen).toHaveLength(1);
    expect((await client.inspect(ids[0]!))?.status).toBe("done");
  });
});
