// Exactly once on the paths real pages and edge functions walk: a reader that walks away, a retry after a
// failed model call or a throwing hook, refused resumes that must consume nothing, double submits on a
// conversation, halts that could never resume, silent drops and collisions, a stored record checked
// against itself, secrets in errors — each as the outcome a user would check (how often a tool ran, what is
// stored, what the model received). docs/guide/reliability.md indexes them.
import {
  answerDeclined,
  answerOutput,
  ConfigError,
  createClient,
  createInProcessClient,
  defineTool,
  InvalidAnswerError,
  isToolnexusError,
  memoryStorage,
  pending,
  relayAnswer,
  relayTool,
  RunConflictError,
  RunNotFoundError,
  RunStateError,
  type Answer,
  type MetricEvent,
  type RunResult,
  type RunStorage,
  type ToolContext,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../support/results";
import { naturalStorage } from "../support/natural-storage";
import { scripted, toolResultsIn, type ScriptTurn } from "../support/scripted";

const base = { baseUrl: "https://llm.test/v1", model: "m", apiKey: "sk-secret-key-123" } as const;
const natural = naturalStorage();

function kit() {
  const runs: Record<string, number> = {};
  const keys: string[] = [];
  const count = (n: string, ctx?: ToolContext) => {
    runs[n] = (runs[n] ?? 0) + 1;
    if (ctx?.idempotencyKey) keys.push(ctx.idempotencyKey);
  };
  const ask = (name: string, id: string) =>
    defineTool({
      name,
      description: `asks ${id}`,
      execute: (_a, ctx) => {
        if (!ctx?.answer) return pending({ kind: "input", prompt: `${id}?`, id });
        count(name, ctx);
        return `${name}=${(ctx.answer.data as { output?: string } | undefined)?.output ?? "ok"}`;
      },
    });
  const effect = (name: string) =>
    defineTool({
      name,
      description: `side effect ${name}`,
      execute: (_a, ctx) => {
        count(name, ctx);
        return `${name} done`;
      },
    });
  return {
    runs,
    keys,
    tools: [
      ask("ask_city", "q-city"),
      ask("ask_date", "q-date"),
      ask("ask_seat", "q-seat"),
      effect("charge"),
      effect("book"),
    ],
  };
}

/** A model that answers from its transcript: `plan` maps what it has seen so far to its next turn. */
const model = (style: "openai" | "anthropic", plan: (seen: string) => ScriptTurn) =>
  scripted(
    style,
    Array.from({ length: 50 }, () => (b: Record<string, any>) => plan(toolResultsIn(b).join("|"))),
  );

for (const style of ["openai", "anthropic"] as const) {
  describe(`exactly once (${style})`, () => {
    it("a reader that walks away mid-resume gives the claim back: the same answer finishes the run, the tool ran once, its result kept", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: `end ${seen}` } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      for await (const event of client.resumeStream(halted.runId!, answerOutput("q-city", "Oslo"), {
        toolkit: k.tools,
      })) {
        if (event.type === "tool_result") break; // the tab closed
      }
      expect((await client.inspect(halted.runId!))?.status).toBe("ready");
      const done = await client.resume(halted.runId!, answerOutput("q-city", "Oslo"), { toolkit: k.tools });
      expect(done.text).toBe("end ask_city=Oslo");
      expect(k.runs.ask_city).toBe(1);
    });

    it("a retry after a failed model call in a later turn runs none of the tools the resumed run already ran", async () => {
      const storage = await natural.make();
      const k = kit();
      let fail = true;
      const s = model(style, (seen) => {
        if (!seen) return { calls: [{ name: "ask_city" }] };
        if (!seen.includes("charge")) return { calls: [{ name: "charge" }] };
        return { text: `paid: ${seen}` };
      });
      const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body));
        if (fail && toolResultsIn(body).some((r: string) => r.includes("charge"))) {
          fail = false;
          return new Response('{"error":{"message":"overloaded"}}', { status: 400 });
        }
        return s.fetch(input, init);
      }) as typeof globalThis.fetch;
      const client = createClient({ ...base, style, fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const a = answerOutput("q-city", "Rome");
      await expect(client.resume(halted.runId!, a, { toolkit: k.tools })).rejects.toThrow();
      const done = await client.resume(halted.runId!, a, { toolkit: k.tools });
      expect(done.text).toBe("paid: ask_city=Rome|charge done");
      expect(k.runs).toMatchObject({ ask_city: 1, charge: 1 });
    });

    it("an afterTool hook that throws after the tool ran: the retry never runs it again, the model is told it was interrupted", async () => {
      const storage = await natural.make();
      const k = kit();
      let throwOnce = true;
      const s = model(style, (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({
        ...base,
        style,
        fetch: s.fetch,
        storage,
        hooks: {
          afterTool: () => {
            if (throwOnce) {
              throwOnce = false;
              throw new Error("audit log down");
            }
          },
        },
      });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const a = answerOutput("q-city", "Pune");
      await expect(client.resume(halted.runId!, a, { toolkit: k.tools })).rejects.toThrow("audit log down");
      const done = await client.resume(halted.runId!, a, { toolkit: k.tools });
      expect(done.text).toBe("interrupted: ask_city did not finish");
      expect(k.runs.ask_city).toBe(1);
    });

    it("refused resumes consume nothing: a toolkit without the tool, an aborted signal, a null answer — then the right resume works", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const key = `run:${halted.runId}`;
      const before = await storage.get(key);
      const a = answerOutput("q-city", "Lima");
      const missing = await client.resume(halted.runId!, a, { toolkit: [] }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(ConfigError);
      expect((missing as ConfigError).message).toContain('"ask_city"');
      const aborted = AbortSignal.abort(new Error("user left"));
      await expect(client.resume(halted.runId!, a, { toolkit: k.tools, signal: aborted })).rejects.toThrow("user left");
      await expect(client.resume(halted.runId!, null as unknown as Answer, { toolkit: k.tools })).rejects.toThrow(
        InvalidAnswerError,
      );
      await expect(client.resume(halted.runId!, [a, a], { toolkit: k.tools })).rejects.toThrow(InvalidAnswerError);
      expect(await storage.get(key)).toBe(before);
      expect(k.runs.ask_city).toBeUndefined();
      expect((await client.resume(halted.runId!, a, { toolkit: k.tools })).text).toBe("ask_city=Lima");
    });

    it("a bad option is a ConfigError from createClient itself, naming it", () => {
      for (const [option, value] of [
        ["completedTtlSeconds", Number.NaN],
        ["completedTtlSeconds", "3600"],
        ["retries", -1],
        ["claimLeaseMs", 0],
        ["pendingTtlSeconds", "1d"],
        ["timeoutMs", Number.POSITIVE_INFINITY],
        // longer than a timer can wait: it would fire at once and cut every run or tool call off
        ["timeoutMs", 2 ** 31],
        ["toolTimeoutMs", 3e9],
        ["headers", { "X-Key": 5 }],
      ] as const) {
        let error: unknown;
        try {
          createClient({ ...base, style, [option]: value } as never);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect({ option: (error as ConfigError).option, named: (error as Error).message.includes(option) }).toEqual({
          option,
          named: true,
        });
      }
    });

    it("three open requests of one turn are answered in every order, one at a time or together; the model is called once, balanced", async () => {
      const orders = [
        ["q-city", "q-date", "q-seat"],
        ["q-city", "q-seat", "q-date"],
        ["q-date", "q-city", "q-seat"],
        ["q-date", "q-seat", "q-city"],
        ["q-seat", "q-city", "q-date"],
        ["q-seat", "q-date", "q-city"],
      ];
      const answerFor = (id: string) => answerOutput(id, id.slice(2));
      for (const order of [...orders, "together"] as const) {
        const storage = await natural.make();
        const k = kit();
        const s = model(style, (seen) =>
          seen ? { text: seen } : { calls: [{ name: "ask_city" }, { name: "ask_date" }, { name: "ask_seat" }] },
        );
        const client = createClient({ ...base, style, fetch: s.fetch, storage });
        const halted = asPending(await client.run("x", { toolkit: k.tools }));
        expect(halted.requests?.map((r) => r.id)).toEqual(["q-city", "q-date", "q-seat"]);
        let result: RunResult = halted;
        if (order === "together") {
          result = await client.resume(halted.runId!, ["q-seat", "q-city", "q-date"].map(answerFor), {
            toolkit: k.tools,
          });
        } else {
          for (const [i, id] of order.entries()) {
            result = await client.resume(halted.runId!, answerFor(id), { toolkit: k.tools });
            const left = order.slice(i + 1);
            expect(result.status).toBe(left.length ? "pending" : "done");
            if (left.length) {
              expect(asPending(result).runId).toBe(halted.runId);
              expect(
                asPending(result)
                  .requests.map((r) => r.id)
                  .sort(),
              ).toEqual([...left].sort());
              expect((await client.inspect(halted.runId!))?.requests.map((r) => r.id).sort()).toEqual([...left].sort());
            }
          }
        }
        expect(result.text).toBe("ask_city=city|ask_date=date|ask_seat=seat"); // results in call order
        expect(s.bodies).toHaveLength(2); // the model was called once after the halt, with every result
        expect(k.runs).toEqual({ ask_city: 1, ask_date: 1, ask_seat: 1 });
        expect((await client.inspect(halted.runId!))?.status ?? "done").toBe("done");
      }
    });

    it("a double-submitted card (the same partial answer twice) returns the run as it left it: nothing runs again", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) =>
        seen ? { text: seen } : { calls: [{ name: "ask_city" }, { name: "ask_date" }] },
      );
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const a = answerOutput("q-date", "Friday");
      const [one, two] = await Promise.allSettled([
        client.resume(halted.runId!, a, { toolkit: k.tools }),
        client.resume(halted.runId!, a, { toolkit: k.tools }),
      ]);
      const ok = [one, two].filter((r) => r.status === "fulfilled");
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of [one, two]) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(RunConflictError);
      const again = await client.resume(halted.runId!, a, { toolkit: k.tools });
      expect(asPending(again).requests.map((r) => r.id)).toEqual(["q-city"]);
      expect(k.runs.ask_date).toBe(1);
    });

    it("an earlier partial answer sent again after a walk-away and a retry still gets the kept outcome", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => {
        if (!seen) return { calls: [{ name: "ask_city" }, { name: "ask_date" }] };
        if (!seen.includes("book")) return { calls: [{ name: "book" }] };
        return { text: `end ${seen}` };
      });
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const date = answerOutput("q-date", "Friday");
      const city = answerOutput("q-city", "Oslo");
      await client.resume(halted.runId!, date, { toolkit: k.tools }); // one card answered
      for await (const event of client.resumeStream(halted.runId!, city, { toolkit: k.tools })) {
        if (event.type === "tool_result" && event.name === "book") break; // the tab closed after a later turn's checkpoint
      }
      const done = await client.resume(halted.runId!, city, { toolkit: k.tools });
      expect(done.status).toBe("done");
      const again = await client.resume(halted.runId!, date, { toolkit: k.tools }); // the first card, submitted twice
      expect(again.text).toBe(done.text);
      expect([k.runs.ask_city, k.runs.ask_date, k.runs.book]).toEqual([1, 1, 1]);
    });

    it("a run claimed and given back again and again keeps one copy of its calls in the stored text", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: `end ${seen}` } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const sizes: number[] = [];
      for (let i = 0; i < 4; i++) {
        for await (const event of client.resumeStream(halted.runId!, answerOutput("q-city", "Oslo"), {
          toolkit: k.tools,
        })) {
          void event;
          break; // the tab closed at the first event, again
        }
        const stored = (await storage.get(`run:${halted.runId}`))!;
        sizes.push(stored.split('"calls":').length - 1);
      }
      expect(sizes.every((n) => n <= 2)).toBe(true); // the record's own, and at most one edit appended
      expect((await client.resume(halted.runId!, answerOutput("q-city", "Oslo"), { toolkit: k.tools })).status).toBe(
        "done",
      );
      expect(k.runs.ask_city).toBe(1);
    });

    it("inspect tells a reloaded page where the run stands: pending with its requests, then done; unknown runs are undefined", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: seen } : { calls: [{ name: "charge" }, { name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const seen = await client.inspect(halted.runId!);
      expect(seen).toEqual({ status: "pending", requests: [halted.pending] });
      expect(JSON.stringify(seen)).not.toContain("sk-secret"); // nothing but the requests
      await client.resume(halted.runId!, answerOutput("q-city", "Kyoto"), { toolkit: k.tools });
      expect((await client.inspect(halted.runId!))?.status).toBe("done");
      expect(await client.inspect("run-unknown")).toBeUndefined();
    });
  });
}

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
    let runs = 0;
    const soon = defineTool({
      name: "soon",
      description: "asks, briefly",
      execute: (_a, ctx) => {
        if (!ctx.answer)
          return pending({ kind: "input", prompt: "Quick?", expiresAt: new Date(Date.now() + 30).toISOString() });
        runs++;
        return "ran";
      },
    });
    const s = model("openai", (seen) => (seen ? { text: seen } : { calls: [{ name: "soon" }] }));
    const client = createClient({ ...openai, fetch: s.fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [soon] }));
    await new Promise((resolve) => setTimeout(resolve, 60));
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
    const client = createClient({ ...openai, fetch: s.fetch, storage, claimLeaseMs: 20 });
    const halted = asPending(await client.run("x", { toolkit: [slow] }));
    void client.resume(halted.runId!, answerOutput("q-go", "yes"), { toolkit: [slow] }).catch(() => {});
    while (keys.length === 0) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 60)); // the owner hangs in the tool; its lease passes
    const done = await createClient({ ...openai, fetch: s.fetch, storage }).resume(
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
