// workerd only: two handlers, each with its own client and its own durableObjectStorage adapter over one
// Durable Object — two isolates of one deployment. A page that dropped its stream on the first re-attaches
// on the second and reads the exchange to its end; a stop posted to the second ends the first's exchange.
// And the same log over Workers KV, which has no compare-and-set (locally it reads its own writes).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { durableObjectStorage, kvStorage, type StreamEvent } from "toolnexus";
import { frames, gate, isolate, provider, textOf, tools } from "../support/edge-streams";

const shared = () => {
  const name = `edge-${crypto.randomUUID()}`;
  return () => durableObjectStorage({ namespace: env.RUN_STORE, name });
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("resumable exchanges and stop over a Durable Object", () => {
  it("a reader dropped on one isolate re-attaches on another: every event once, the whole text", async () => {
    const storage = shared();
    const held = gate();
    const tokens = Array.from({ length: 30 }, (_, i) => `t${i} `);
    const a = isolate(storage(), provider([{ tokens, gateAt: 10, gate: held.promise }]), tools().list);
    const b = isolate(storage(), provider([]), tools().list);
    const res = await a.post({ prompt: "talk" });
    const runId = res.headers.get("toolnexus-run-id")!;
    const first = frames(res);
    const seen: { id?: string; event: StreamEvent }[] = [];
    while (seen.length < 6) seen.push((await first.next())!);
    await first.cancel();
    const replay = b.get({ runId, after: seen.at(-1)!.id! });
    held.open();
    const all = [...seen, ...(await frames(await replay).rest())];
    expect(all.map((f) => f.id)).toEqual(all.map((_, i) => `1:${i + 1}`));
    expect(textOf(all)).toBe(tokens.join(""));
    expect(all.at(-1)!.event).toMatchObject({ type: "done", result: { status: "done", text: tokens.join("") } });
  }, 30_000);

  it("a stop posted to another isolate ends the exchange: the slow tool's signal aborts, the text kept", async () => {
    const storage = shared();
    const kit = tools();
    const model = provider([{ tokens: ["Looking."], calls: [{ id: "c1", name: "slow" }] }]);
    const a = isolate(storage(), model, kit.list);
    const b = isolate(storage(), provider([]), tools().list);
    const res = await a.post({ prompt: "look" });
    const runId = res.headers.get("toolnexus-run-id")!;
    const reading = frames(res).rest();
    while (kit.seen.slowStarted === 0) await tick();
    expect((await b.post({ runId, stop: true })).status).toBe(202);
    const events = await reading;
    expect(events.at(-1)!.event).toMatchObject({
      type: "done",
      result: { status: "incomplete", limit: "aborted", text: "Looking." },
    });
    expect(kit.seen.slowAborted).toBe(1);
  }, 30_000);

  it("on Workers KV (no compare-and-set) the log is kept too: what was flushed replays on another isolate", async () => {
    const prefix = `edge-kv-${crypto.randomUUID()}/`;
    const storage = () => kvStorage({ binding: env.RUNS, prefix });
    const tokens = ["on ", "KV ", "too"];
    const a = isolate(storage(), provider([{ tokens }]), tools().list);
    const b = isolate(storage(), provider([]), tools().list);
    const res = await a.post({ prompt: "talk" });
    const live = await frames(res).rest();
    const replay = await frames(await b.get({ runId: res.headers.get("toolnexus-run-id")!, after: "1:0" })).rest();
    expect(replay).toEqual(live);
    expect(textOf(replay)).toBe(tokens.join(""));
  }, 30_000);
});
