// Resumable exchanges as a page and a second isolate meet them: the events of an exchange kept in the run's
// storage in batches, replayed from an event id (`?after=` or Last-Event-ID) by another handler over the same
// storage and followed live to the end, each event once, the text whole; and a bounded number of log writes.
import { describe, expect, it } from "vitest";
import { memoryStorage, type RunStorage, type StreamEvent } from "toolnexus";
import { frames, gate, isolate, provider, textOf, tools } from "../../support/edge-streams";

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${i + from} `);

/** The whole answer of an uninterrupted run of the same script. */
async function uninterrupted(tokens: string[]) {
  const a = isolate(memoryStorage(), provider([{ tokens }]), tools().list);
  return frames(await a.post({ prompt: "talk" })).rest();
}

/** Storage that fails its first `failures` writes of the log's batches (a transient error), keeping every value written. */
function flaky(failures: number): RunStorage & { written: Map<string, string> } {
  const inner = memoryStorage();
  const written = new Map<string, string>();
  let left = failures;
  return {
    get: (key) => inner.get(key),
    set: async (key, value, opts) => {
      if (/^edge:.*:\d+:\d+$/.test(key) && left-- > 0) throw new Error("storage blinked");
      written.set(key, value);
      return inner.set(key, value, opts);
    },
    delete: (key) => inner.delete(key),
    compareAndSet: async (key, expected, value, opts) => {
      const wrote = await inner.compareAndSet!(key, expected, value, opts);
      if (wrote) written.set(key, value);
      return wrote;
    },
    capabilities: inner.capabilities,
    written,
  };
}

/** Storage counting the writes under the event log's keys. */
function counting(): RunStorage & { logWrites: () => number } {
  const inner = memoryStorage();
  let writes = 0;
  const count = (key: string) => (key.startsWith("edge:") ? writes++ : 0);
  return {
    get: (key) => inner.get(key),
    set: (key, value, opts) => (count(key), inner.set(key, value, opts)),
    delete: (key) => (count(key), inner.delete(key)),
    compareAndSet: (key, expected, value, opts) => (count(key), inner.compareAndSet!(key, expected, value, opts)),
    capabilities: inner.capabilities,
    logWrites: () => writes,
  };
}

describe("resumable exchanges", () => {
  it("a reader dropped midway re-attaches from its last id on another isolate: every event once, the same text", async () => {
    const storage = memoryStorage();
    const held = gate();
    const tokens = words(40);
    const a = isolate(storage, provider([{ tokens, gateAt: 25, gate: held.promise }]), tools().list);
    const b = isolate(storage, provider([]), tools().list); // another isolate: it runs nothing itself
    const res = await a.post({ prompt: "talk" });
    const runId = res.headers.get("toolnexus-run-id")!;
    expect(runId).toMatch(/^run-/);
    const first = frames(res);
    const seen: { id?: string; event: StreamEvent }[] = [];
    while (seen.length < 10) seen.push((await first.next())!);
    await first.cancel(); // the page reloaded
    const replay = b.get({ runId, after: seen.at(-1)!.id! });
    held.open(); // the model goes on after the page left
    const rest = await frames(await replay).rest();
    const all = [...seen, ...rest];
    expect(all.map((f) => f.id)).toEqual(all.map((_, i) => `1:${i + 1}`)); // each once, none lost
    expect(all.at(-1)!.event.type).toBe("done");
    const whole = await uninterrupted(tokens);
    expect(textOf(all)).toBe(textOf(whole));
    expect((all.at(-1)!.event as { result: { text: string } }).result.text).toBe(tokens.join(""));
    expect(JSON.stringify(all.at(-1)!.event)).not.toContain('"messages"'); // page-safe in the log too
  });

  it("Last-Event-ID resumes exactly like ?after=, and a replay after the end returns what was left", async () => {
    const storage = memoryStorage();
    const a = isolate(storage, provider([{ tokens: words(12) }]), tools().list);
    const res = await a.post({ prompt: "talk" });
    const runId = res.headers.get("toolnexus-run-id")!;
    const live = await frames(res).rest();
    const byHeader = await frames(await a.get({ runId }, { "last-event-id": "1:5" })).rest();
    const byQuery = await frames(await a.get({ runId, after: "1:5" })).rest();
    expect(byHeader).toEqual(live.slice(5));
    expect(byQuery).toEqual(live.slice(5));
    expect(await frames(await a.get({ runId, after: "1:0" })).rest()).toEqual(live);
    // an EventSource reconnecting to ?after=1:0 sends the id it got last: that one counts
    expect(await frames(await a.get({ runId, after: "1:0" }, { "last-event-id": "1:9" })).rest()).toEqual(
      live.slice(9),
    );
  });

  it("a bad event id is a 400; an exchange the run never had is the unknown run's 404", async () => {
    const a = isolate(memoryStorage(), provider([{ tokens: words(3) }]), tools().list);
    const res = await a.post({ prompt: "talk" });
    const runId = res.headers.get("toolnexus-run-id")!;
    await frames(res).rest();
    expect((await a.get({ runId, after: "one" })).status).toBe(400);
    const later = await a.get({ runId, after: "2:0" });
    const unknown = await a.get({ runId: "run-nobody", after: "1:0" });
    expect(later.status).toBe(404);
    expect(await later.text()).toBe((await unknown.text()).replace("run-nobody", runId));
  });

  it("a 2,000-token answer costs at most 2 + ceil(events / 256) + 1 log writes, not one per token", async () => {
    const storage = counting();
    const a = isolate(storage, provider([{ tokens: words(2000) }]), tools().list);
    const events = await frames(await a.post({ prompt: "talk" })).rest();
    expect(events.filter((f) => f.event.type === "text")).toHaveLength(2000);
    // the head at the start and the end, a batch per 256 events, and the last batch with usage and done
    const bound = 2 + Math.ceil(events.length / 256) + 1;
    expect(storage.logWrites()).toBeGreaterThan(2);
    expect(storage.logWrites()).toBeLessThanOrEqual(bound);
  });

  it("an exchange with tool calls is replayed whole on another isolate: tool_call and tool_result each once", async () => {
    const storage = memoryStorage();
    const model = provider([
      { tokens: ["Let ", "me ", "look."], calls: [{ id: "c1", name: "slow" }] },
      { tokens: ["Found ", "it."] },
    ]);
    const done = gate();
    done.open();
    const a = isolate(storage, model, tools(done.promise).list);
    const res = await a.post({ prompt: "look" });
    const live = await frames(res).rest();
    const b = isolate(storage, provider([]), tools().list);
    const replay = await frames(await b.get({ runId: res.headers.get("toolnexus-run-id")!, after: "1:0" })).rest();
    expect(replay).toEqual(live);
    expect(replay.filter((f) => f.event.type === "tool_call")).toHaveLength(1);
    expect(replay.filter((f) => f.event.type === "tool_result")).toHaveLength(1);
    expect(textOf(replay)).toBe("Let me look.Found it.");
  });

  it("a batch write that fails is written again with the next: the replay is still whole, and holds no secret", async () => {
    const storage = flaky(2);
    const secrets = { systemPrompt: "SYSTEM-PROMPT-not-for-pages", apiKey: "sk-SECRET-not-for-pages" };
    const model = provider([
      { tokens: ["Let ", "me ", "look."], calls: [{ id: "c1", name: "slow" }] },
      { tokens: ["Done."] },
    ]);
    const opened = gate();
    opened.open();
    const a = isolate(storage, model, tools(opened.promise).list, {}, secrets);
    const res = await a.post({ prompt: "look" });
    const live = await frames(res).rest();
    const replay = await frames(await a.get({ runId: res.headers.get("toolnexus-run-id")!, after: "1:0" })).rest();
    expect(replay).toEqual(live);
    const log = [...storage.written].filter(([key]) => key.startsWith("edge:"));
    expect(log.map(([key]) => key.split(":").slice(2).join(":")).sort()).toEqual(["", "1:0"]); // the head, one batch
    for (const secret of Object.values(secrets)) expect(JSON.stringify(log)).not.toContain(secret);
  });

  it("a resume posted as soon as the pending event arrives, before done, keeps its own log", async () => {
    const storage = memoryStorage();
    const kit = tools();
    const model = provider([
      { tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] },
      { tokens: ["Lima ", "it ", "is."] },
    ]);
    const a = isolate(storage, model, kit.list);
    const first = await a.post({ prompt: "city?" });
    const runId = first.headers.get("toolnexus-run-id")!;
    const reader = frames(first);
    let event = (await reader.next())!.event;
    while (event.type !== "pending") event = (await reader.next())!.event;
    const answer = { id: event.request.id, ok: true, data: { output: "Lima" } };
    const [resumed] = await Promise.all([a.post({ runId, answer }), reader.rest()]); // answered before done
    const live = await frames(resumed).rest();
    expect(live[0]!.id).toBe("2:1");
    expect(live.at(-1)!.event).toMatchObject({ type: "done", result: { status: "done", text: "Lima it is." } });
    const replay = await frames(await a.get({ runId, after: "2:0" })).rest();
    expect(replay).toEqual(live);
  });
});
