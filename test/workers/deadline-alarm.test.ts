// A question nobody answers, on Durable Objects in workerd (semantics 8): RunStoreObject keeps its alarm at
// the earliest deadline it stores; when it fires, the object's `alarm()` — `await super.alarm()`, then
// `client.expire({ toolkit })` on the storage it serves, as a Worker's subclass does — continues the run.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createClient, durableObjectStorage, RunStoreObject, type RunStorage } from "toolnexus";
import { approvalTool, echoModel, fakeClock } from "../behaviour/support/deadlines";

const stubFor = (name: string) => env.RUN_STORE.get(env.RUN_STORE.idFromName(name));

describe("RunStoreObject and deadlines", () => {
  it("a run halts, nobody calls it again, the object's alarm continues it as expired", async () => {
    const name = `deadline-${crypto.randomUUID()}`;
    const clock = fakeClock(Date.now());
    const { tool, state } = approvalTool(60);
    const s = echoModel({ calls: [{ name: "book" }] });
    const clientOn = (storage: RunStorage) =>
      createClient({
        baseUrl: "https://llm.test/v1",
        style: "openai",
        model: "m",
        apiKey: "k",
        fetch: s.fetch,
        storage,
        clock,
      });
    const halted = await clientOn(durableObjectStorage({ namespace: env.RUN_STORE, name })).run("book", {
      toolkit: [tool],
    });
    if (halted.status !== "pending") throw new Error(`expected a halted run, got ${halted.status}`);
    const deadline = Date.parse(halted.pending.expiresAt!);
    const alarm = await runInDurableObject(stubFor(name), (_object, ctx) => ctx.storage.getAlarm());
    expect(alarm).toBe(deadline); // the earliest thing the object stores: before the run's TTL

    clock.advance(61);
    // the runtime runs the alarm the object scheduled at the deadline
    expect(await runDurableObjectAlarm(stubFor(name))).toBe(true);
    // and a Worker's subclass's alarm, as the guide writes it, over the object's own state: it sweeps, then
    // continues the due runs
    let continued: string[] = [];
    class ExpiringRunStore extends RunStoreObject {
      override async alarm(): Promise<void> {
        await super.alarm();
        continued = (await clientOn(this.runStorage()).expire({ toolkit: [tool] })).continued;
      }
    }
    await runInDurableObject(stubFor(name), async (_object, state) => new ExpiringRunStore(state).alarm());
    expect(continued).toEqual([halted.runId]);
    expect(state.runs).toBe(0);
    expect(JSON.stringify(s.bodies[1])).toContain("declined/expired: Approve running the tool book?");
    const after = clientOn(durableObjectStorage({ namespace: env.RUN_STORE, name }));
    expect((await after.inspect(halted.runId))?.status).toBe("done");
  });
});
