// Exactly once for what a halted run keeps: halts that could never resume refused, relay answers naming no
// call, idempotency keys unique, a stored record checked against itself, secrets masked, expiry and TTLs,
// and a takeover that reruns only what may run again. docs/guide/reliability.md indexes them.
import {
  answerOutput,
  createClient,
  createInProcessClient,
  defineTool,
  InvalidAnswerError,
  isToolnexusError,
  memoryStorage,
  pending,
  relayAnswer,
  relayTool,
  RunNotFoundError,
  RunStateError,
  type MetricEvent,
  type RunStorage,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { fakeClock } from "../../support/deadlines";
import { asPending } from "../../support/results";
import { base, kit, model } from "../../support/exactly-once";

describe("exactly once: the rest of the cases", () => {
  const openai = { ...base, style: "openai" } as const;

  it("halts that could never resume are refused when the tool suspends: the model gets an error result, nothing is stored", async () => {
    const bad: Record<string, unknown>[] = [
      { kind: "input", prompt: "p", expiresAt: 1735689600000 },
      { kind: "input", prompt: "p", url: 42 },
      { kind: "input", prompt: "p", id: "" },
      { kind: "input", prompt: "p", data: "not an object" },
      { kind: "input", prompt: "p", expiresAt: "next tuesday" },
    ];
    for (const request of bad) {
      const storage = memoryStorage();
      const tool = defineTool({ name: "t", description: "t", execute: () => pending(request as never) });
      const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "t" }] }));
      const result = await createClient({ ...openai, fetch: s.fetch, storage }).run("x", { toolkit: [tool] });
      expect(result.status).toBe("done");
      expect(result.text).toMatch(/^toolnexus: pending: /);
      // a hand-made suspension that could not be stored is refused the same way
      const forged = defineTool({
        name: "t",
        description: "t",
        execute: () => ({ output: "x", isError: true, metadata: { pending: request } }),
      });
      const s2 = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "t" }] }));
      const r2 = await createClient({ ...openai, fetch: s2.fetch, storage }).run("x", { toolkit: [forged] });
      expect(r2.status).toBe("done");
      expect(r2.text).toContain("suspended with an unusable request");
    }
  });

  it("a relay answer whose results all name unknown calls is refused; nothing is consumed", async () => {
    const storage = memoryStorage();
    const lookup = relayTool("lookup", "host-side", { type: "object" });
    const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ id: "r1", name: "lookup" }] }));
    const client = createClient({ ...openai, fetch: s.fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [lookup] }));
    const before = await storage.get(`run:${halted.runId}`);
    const wrong = relayAnswer(halted.pending!.id, [{ id: "nope", output: "lost?" }]);
    await expect(client.resume(halted.runId!, wrong, { toolkit: [lookup] })).rejects.toThrow(InvalidAnswerError);
    expect(await storage.get(`run:${halted.runId}`)).toBe(before);
    const right = relayAnswer(halted.pending!.id, [{ id: "r1", output: "found" }]);
    expect((await client.resume(halted.runId!, right, { toolkit: [lookup] })).text).toBe("found");
  });

  it("idempotencyKey is unique within a run: an in-process model repeating call ids, and a model sending none", async () => {
    const k = kit();
    let turn = 0;
    const inProcess = createInProcessClient({
      model: "m",
      generate: () => (++turn <= 2 ? { toolCalls: [{ name: "charge" }, { name: "book" }] } : { content: "ok" }),
    });
    await inProcess.run("x", { toolkit: k.tools });
    expect(new Set(k.keys).size).toBe(4);
    const noIds = kit();
    const s = model("openai", (seen) =>
      seen
        ? { text: "ok" }
        : {
            calls: [
              { id: "", name: "charge" },
              { id: "", name: "book" },
            ],
          },
    );
    const result = await createClient({ ...openai, fetch: s.fetch }).run("x", { toolkit: noIds.tools });
    expect(new Set(noIds.keys).size).toBe(2);
    for (const key of noIds.keys) expect(key).toMatch(/^run-[^:]+:.+$/);
    // the transcript the model received carries the same ids as the results
    const assistant = (s.bodies[1]!.messages as any[]).find((m) => m.tool_calls);
    expect(assistant.tool_calls.map((c: { id: string }) => c.id)).toEqual(result.toolCalls.map((c) => c.id));
  });

  it("a stored record is checked against itself: a call renamed to another tool, or an injected suspended call, is a RunStateError and nothing runs", async () => {
    for (const tamper of [
      (r: any) => (r.calls[0].name = "charge"),
      (r: any) => r.calls.push({ ...r.calls[0], id: "call_injected", request: { ...r.calls[0].request, id: "q-x" } }),
    ]) {
      const storage = memoryStorage();
      const k = kit();
      const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...openai, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const record = JSON.parse((await storage.get(`run:${halted.runId}`))!);
      tamper(record);
      await storage.set(`run:${halted.runId}`, JSON.stringify(record));
      const error = await client
        .resume(halted.runId!, answerOutput("q-city", "x"), { toolkit: k.tools })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunStateError);
      expect(k.runs).toEqual({});
    }
  });

  it("the value of every configured header and the API key are masked in errors and metrics, whatever the header is called", async () => {
    const secret = "tenant-key-9f8e7d6c";
    const metrics: MetricEvent[] = [];
    const fetch = (async () =>
      new Response(JSON.stringify({ error: { message: `Invalid X-Auth-Key ${secret} for key sk-secret-key-123` } }), {
        status: 400,
      })) as typeof globalThis.fetch;
    const client = createClient({
      ...openai,
      fetch,
      retries: 0,
      headers: { "X-Auth-Key": secret, "Ocp-Apim-Subscription-Key": "subscription-0a1b2c3d" },
      onMetric: (e) => metrics.push(e),
    });
    const error = (await client.run("x").catch((e: unknown) => e)) as Error & { body?: string };
    expect(isToolnexusError(error)).toBe(true);
    const seen = JSON.stringify([error.message, error.body, error.stack, metrics]);
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain("sk-secret-key-123");
    expect(seen).toContain("Invalid X-Auth-Key");
  });

  it("halted runs expire after pendingTtlSeconds (never before a request's expiresAt): a late resume is RunNotFoundError", async () => {
    let now = Date.now();
    const storage = memoryStorage({ now: () => now });
    const k = kit();
    const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
    const client = createClient({ ...openai, fetch: s.fetch, storage, pendingTtlSeconds: 60 });
    const halted = asPending(await client.run("x", { toolkit: k.tools }));
    now += 59_000;
    expect((await client.inspect(halted.runId!))?.status).toBe("pending");
    now += 2_000;
    await expect(client.resume(halted.runId!, answerOutput("q-city", "late"), { toolkit: k.tools })).rejects.toThrow(
      RunNotFoundError,
    );
    expect(k.runs).toEqual({});
  });

  it("every write of a halted run keeps pendingTtlSeconds: after a partial answer and after a walk-away", async () => {
    const ttls: (number | undefined)[] = [];
    const inner = memoryStorage();
    const storage: RunStorage = {
      capabilities: inner.capabilities,
      get: (key) => inner.get(key),
      delete: (key) => inner.delete(key),
      set: (key, value, opts) => (ttls.push(opts?.ttlSeconds), inner.set(key, value, opts)),
      compareAndSet: (key, e, value, opts) => (ttls.push(opts?.ttlSeconds), inner.compareAndSet!(key, e, value, opts)),
    };
    const k = kit();
    const s = model("openai", (seen) => {
      if (seen.includes("ask_city")) return { text: seen };
      return seen ? { calls: [{ name: "book" }] } : { calls: [{ name: "ask_city" }, { name: "ask_date" }] };
    });
    const client = createClient({ ...openai, fetch: s.fetch, storage, pendingTtlSeconds: 600 });
    const halted = asPending(await client.run("x", { toolkit: k.tools }));
    await client.resume(halted.runId!, answerOutput("q-date", "Friday"), { toolkit: k.tools }); // still suspended
    for await (const event of client.resumeStream(halted.runId!, answerOutput("q-city", "Oslo"), { toolkit: k.tools }))
      if (event.type === "tool_result") break; // given back, ready
    expect((await client.inspect(halted.runId!))?.status).toBe("ready");
    expect(ttls.length).toBeGreaterThan(4);
    expect(ttls).toEqual(ttls.map(() => 600)); // halt, claims, checkpoints and the give-back alike
  });

  it("an ok answer past its request's expiresAt is expired before anything looks at it: no tool needed, none run", async () => {
    const storage = memoryStorage();
    const clock = fakeClock();
    let runs = 0;
    const soon = defineTool({
      name: "soon",
      description: "asks, briefly",
      execute: (_a, ctx) => {
        if (!ctx.answer)
          return pending({ kind: "input", prompt: "Quick?", expiresAt: new Date(clock.now() + 30).toISOString() });
        runs++;
        return "ran";
      },
    });
    const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "soon" }] }));
    const client = createClient({ ...openai, fetch: s.fetch, storage, clock });
    const halted = asPending(await client.run("x", { toolkit: [soon] }));
    clock.advance(1); // past the request's deadline
    // the resume's toolkit lacks the tool: an expired answer never runs it, so that is no reason to refuse
    const done = await client.resume(halted.runId!, answerOutput(halted.pending.id, "yes"), { toolkit: [] });
    expect(done.text).toBe("declined/expired: Quick?");
    expect(runs).toBe(0);
  });

  it("after a takeover, a tool with recovery: 'rerun' runs again with the same idempotencyKey; others are reported interrupted", async () => {
    const storage = memoryStorage();
    const keys: string[] = [];
    const gate: { open?: () => void } = {};
    const slow = defineTool({
      name: "slow",
      description: "slow",
      recovery: "rerun",
      execute: async (_a, ctx) => {
        if (!ctx?.answer) return pending({ kind: "approval", id: "q-go", prompt: "go?" });
        keys.push(ctx.idempotencyKey!);
        if (keys.length === 1) await new Promise<void>((r) => (gate.open = r)); // the first owner dies in here
        return "went";
      },
    });
    const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "slow" }] }));
    const clock = fakeClock();
    const client = createClient({ ...openai, fetch: s.fetch, storage, claimLeaseMs: 20, clock });
    const halted = asPending(await client.run("x", { toolkit: [slow] }));
    void client.resume(halted.runId!, answerOutput("q-go", "yes"), { toolkit: [slow] }).catch(() => {});
    while (keys.length === 0) await new Promise((r) => setTimeout(r, 1));
    clock.advance(1); // the owner hangs in the tool; its lease passes
    const done = await createClient({ ...openai, fetch: s.fetch, storage, clock }).resume(
      halted.runId!,
      answerOutput("q-go", "yes"),
      { toolkit: [slow] },
    );
    expect(done.text).toBe("went");
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    gate.open?.();
  });
});
