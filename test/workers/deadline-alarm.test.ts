// A question nobody answers, on Durable Objects in workerd (semantics 8): the demo Worker binds EXPIRING_STORE
// to ExpiringRunStore (examples/worker/expiring-store.ts), a RunStoreObject subclass whose `alarm()` is
// `await super.alarm()`, then `client.expire({ toolkit })` on the storage it serves, as the guide writes it.
// A run halts there, nobody calls it again, and the runtime's own alarm continues it as expired — into the
// run's event log when a handler served it, so the handler's GET replays the continuation.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createClient, createRunHandler, durableObjectStorage, type StreamEvent } from "toolnexus";
import { approvalTool, echoModel } from "../support/deadlines";
import { doneOf } from "../support/edge";
import { frames } from "../support/edge-streams";
import { scriptedFetch } from "../../examples/worker/scripted-fetch";
import { demoTools } from "../../examples/worker/tools";

const stubFor = (name: string) => env.EXPIRING_STORE.get(env.EXPIRING_STORE.idFromName(name));

/** The demo's client (its scripted model) on `name`'s object, its clock an hour back: the deadline is past. */
const haltingClient = (name: string) =>
  createClient({
    baseUrl: "http://scripted.invalid/v1",
    style: "openai",
    model: "scripted-demo",
    retries: 0,
    fetch: scriptedFetch,
    storage: durableObjectStorage({ namespace: env.EXPIRING_STORE, name }),
    clock: { now: () => Date.now() - 3600_000 },
    answerTimeoutSeconds: 60,
  });

describe("ExpiringRunStore, the demo Worker's Durable Object with deadlines", () => {
  it("a run halts, nobody calls it again, the object's alarm continues it as expired", async () => {
    const name = `deadline-${crypto.randomUUID()}`;
    const client = haltingClient(name);
    const chat = client.conversation({ toolkit: demoTools(env, "http://127.0.0.1:8787") });
    const halted = await chat.send("Book a table for two tonight");
    if (halted.status !== "pending") throw new Error(`expected a halted run, got ${halted.status}`);
    expect(halted.requests.map((r) => r.kind)).toEqual(["approval"]);
    const deadline = Date.parse(halted.requests[0]!.expiresAt!);
    expect(deadline).toBeLessThan(Date.now()); // halted with its deadline already past: no waiting
    // the object armed its alarm when it stored the deadline; one already past, the runtime may run it on its
    // own as the run halts — then the claim makes that run of alarm() skip or win, exactly once, and the
    // alarm stays armed for the record's expiry. Nothing calls the run again: the runtime runs the object's
    // alarm, and the subclass's alarm() continues the run.
    expect(await runDurableObjectAlarm(stubFor(name))).toBe(true);

    expect((await client.inspect(halted.runId))?.status).toBe("done");
    const booked = await env.RUNS.list({ prefix: "exec:book_table:" });
    expect(booked.keys).toEqual([]); // the gated tool never ran
    const transcript = JSON.stringify(await chat.messages());
    expect(transcript).toContain("declined/expired: Book a table for 2 at Dakshin, 19:30 tonight?");
    expect(transcript).toContain("No problem — I've left it there."); // the scripted model's words for it
  });

  it("the alarm's continuation streams into the run's event log: the handler's GET replays it after the halt", async () => {
    const name = `deadline-log-${crypto.randomUUID()}`;
    const handler = createRunHandler({ client: haltingClient(name), toolkit: demoTools(env, "http://127.0.0.1:8787") });
    const started = await handler(
      new Request("http://edge.test/api/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "Book a table for two tonight" }),
      }),
    );
    const runId = started.headers.get("toolnexus-run-id")!;
    const halt = await frames(started).rest();
    expect(doneOf(halt.map((f) => f.event))).toMatchObject({ status: "pending" });
    expect(halt.at(-1)!.id).toMatch(/^1:\d+$/);

    expect(await runDurableObjectAlarm(stubFor(name))).toBe(true);
    // a page that saw the halt follows on from the next exchange: the one the alarm wrote
    const replayed = await frames(
      await handler(new Request(`http://edge.test/api/run?runId=${runId}`, { headers: { "last-event-id": "2:0" } })),
    ).rest();
    expect(replayed.map((f) => f.id)).toEqual(replayed.map((_, i) => `2:${i + 1}`));
    const text = replayed
      .map(({ event }: { event: StreamEvent }) => (event.type === "text" ? event.delta : ""))
      .join("");
    expect(text).toContain("No problem — I've left it there.");
    expect(doneOf(replayed.map((f) => f.event))).toMatchObject({ status: "done" });
    const booked = await env.RUNS.list({ prefix: "exec:book_table:" });
    expect(booked.keys).toEqual([]);
  });

  it("a deadline still ahead arms the object's alarm at it, before the record's expiry", async () => {
    const name = `deadline-${crypto.randomUUID()}`;
    const { tool } = approvalTool(60);
    const s = echoModel({ calls: [{ name: "book" }] });
    const client = createClient({
      baseUrl: "https://llm.test/v1",
      style: "openai",
      model: "m",
      apiKey: "k",
      fetch: s.fetch,
      storage: durableObjectStorage({ namespace: env.RUN_STORE, name }),
    });
    const halted = await client.run("book", { toolkit: [tool] });
    if (halted.status !== "pending") throw new Error(`expected a halted run, got ${halted.status}`);
    const stub = env.RUN_STORE.get(env.RUN_STORE.idFromName(name));
    const alarm = await runInDurableObject(stub, (_object, ctx) => ctx.storage.getAlarm());
    expect(alarm).toBe(Date.parse(halted.pending.expiresAt!));
  });
});
