// The loop in production: retries, typed HTTP errors, deadlines and aborts, hooks, metrics, request
// shaping, conversations and translate — through the client, against scripted and faulty endpoints.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  LlmHttpError,
  memoryStorage,
  pending,
  RunConflictError,
  StreamError,
  type MetricEvent,
  type ToolContext,
} from "toolnexus";
import { MODES, runIn, STYLES } from "../../support/drive";
import { captureWarnings, faulty } from "../../support/faults";
import { scripted, toolResultsIn, userTurnsIn } from "../../support/scripted";
import { asIncomplete, asPending } from "../../support/results";

const KEY = "sk-live-PRODSECRET-0123456789";

for (const style of STYLES) {
  const base = { baseUrl: "https://llm.test/v1", style, model: "m-prod", apiKey: KEY, retryBaseMs: 1 } as const;

  describe(`resilience (${style})`, () => {
    it("retries 503s and a dropped connection, then succeeds", async () => {
      const f = faulty([{ status: 503 }, { drop: true }], scripted(style, [{ text: "up" }]));
      const client = createClient({ ...base, fetch: f.fetch });
      expect((await client.run("x")).text).toBe("up");
      expect(f.hits()).toBe(3);
    });

    it("honours Retry-After: 0 and retries a 429", async () => {
      const f = faulty([{ status: 429, retryAfter: "0" }], scripted(style, [{ text: "ok" }]));
      expect((await createClient({ ...base, fetch: f.fetch }).run("x")).text).toBe("ok");
      expect(f.hits()).toBe(2);
    });

    it("a 400 fails at once with LlmHttpError; the key is nowhere in it", async () => {
      const f = faulty([{ status: 400, body: `{"error":"bad","user_id":"u-42","echo":"Bearer ${KEY}"}` }]);
      const client = createClient({ ...base, fetch: f.fetch });
      const error = await client.run("x").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmHttpError);
      expect((error as LlmHttpError).status).toBe(400);
      expect(f.hits()).toBe(1);
      const text = `${(error as Error).message} ${(error as LlmHttpError).body}`;
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("u-42");
    });

    it("onError: fail stops retrying a 429 after one attempt; retryAfter is kept", async () => {
      const f = faulty([{ status: 429, retryAfter: "3" }]);
      const client = createClient({ ...base, fetch: f.fetch, onError: () => "fail" });
      const error = (await client.run("x").catch((e: unknown) => e)) as LlmHttpError;
      expect(error.retryAfter).toBe("3");
      expect(f.hits()).toBe(1);
    });

    it("a stream cut mid tool-call is a StreamError and no tool runs on half-received arguments", async () => {
      let ran = 0;
      const tool = defineTool({ name: "pay", description: "pays", execute: () => (ran++, "paid") });
      const cut =
        style === "openai"
          ? 'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"pay","arguments":"{\\"amo'
          : 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"pay","input":{}}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"amo"}}\n\n';
      const client = createClient({ ...base, fetch: faulty([{ cut }]).fetch });
      const consume = async () => {
        for await (const _ of client.stream("pay", { toolkit: [tool] })) void _;
      };
      await expect(consume()).rejects.toThrow(StreamError);
      expect(ran).toBe(0);
    });
  });

  describe(`deadlines and aborts (${style})`, () => {
    for (const mode of MODES) {
      it(`timeoutMs ends a hanging call as incomplete/timeout with the transcript so far (${mode})`, async () => {
        const s = scripted(style, [{ calls: [{ name: "clock" }] }]);
        let calls = 0;
        const fetch = (async (i: RequestInfo | URL, init?: RequestInit) =>
          calls++ === 0 ? s.fetch(i, init) : faulty([{ hang: true }]).fetch(i, init)) as typeof globalThis.fetch;
        const clock = defineTool({ name: "clock", description: "time", execute: () => "12:00" });
        // generous: the first turn must finish well inside the deadline even on a loaded machine; the hang never ends
        const client = createClient({ ...base, fetch, timeoutMs: 400 });
        const { result } = await runIn(client, mode, "time?", { toolkit: [clock] });
        expect(result.status).toBe("incomplete");
        expect(asIncomplete(result).limit).toBe("timeout");
        expect(result.turns).toBe(2);
        expect(result.toolCalls.map((c) => c.output)).toEqual(["12:00"]);
        expect(result.usage.totalTokens).toBe(15);
      });
    }

    it("an external signal reaches running tools and ends the run as incomplete/aborted", async () => {
      const controller = new AbortController();
      let toolSignal: AbortSignal | undefined;
      const slow = defineTool({
        name: "slow",
        description: "waits for abort",
        execute: (_a, ctx) =>
          new Promise((resolve) => {
            toolSignal = ctx!.signal;
            ctx!.signal!.addEventListener("abort", () => resolve("stopped"));
            controller.abort(new Error("user left"));
          }),
      });
      const client = createClient({ ...base, fetch: scripted(style, [{ calls: [{ name: "slow" }] }]).fetch });
      const result = await client.run("x", { toolkit: [slow], signal: controller.signal });
      expect(toolSignal?.aborted).toBe(true);
      expect(result).toMatchObject({ status: "incomplete", limit: "aborted" });
    });

    it("reaching maxTurns is incomplete/maxTurns", async () => {
      const loop = defineTool({ name: "again", description: "again", execute: () => "more" });
      const s = scripted(style, [
        { text: "step", calls: [{ name: "again" }] },
        { text: "step", calls: [{ name: "again" }] },
      ]);
      const result = await createClient({ ...base, fetch: s.fetch, maxTurns: 2 }).run("x", { toolkit: [loop] });
      expect(result).toMatchObject({ status: "incomplete", limit: "maxTurns", turns: 2, text: "step" });
    });

    it("toolTimeoutMs turns a hanging tool into an error result", async () => {
      const hang = defineTool({ name: "hang", description: "never returns", execute: () => new Promise(() => {}) });
      const s = scripted(style, [{ calls: [{ name: "hang" }] }, (b) => ({ text: toolResultsIn(b)[0]! })]);
      const result = await createClient({ ...base, fetch: s.fetch, toolTimeoutMs: 20 }).run("x", { toolkit: [hang] });
      expect(result.text).toBe("tool hang timed out after 20ms");
    });
  });

  describe(`hooks (${style})`, () => {
    it("beforeLLM replaces messages, beforeTool rewrites args, afterTool replaces the result", async () => {
      const seen: unknown[] = [];
      const echo = defineTool({
        name: "echo",
        description: "echo",
        inputSchema: { type: "object", properties: { v: { type: "string" } } },
        execute: (a) => String(a.v),
      });
      const s = scripted(style, [
        { calls: [{ name: "echo", args: { v: "raw" } }] },
        (b) => ({ text: toolResultsIn(b)[0]! }),
      ]);
      const client = createClient({
        ...base,
        fetch: s.fetch,
        hooks: {
          beforeLLM: ({ messages, turn }) =>
            turn === 0 ? { messages: [...messages.slice(0, -1), { role: "user", content: "rewritten" }] } : undefined,
          afterLLM: ({ response }) => void seen.push(response),
          beforeTool: ({ args }) => ({ args: { ...args, v: `${args.v}+hooked` } }),
          afterTool: ({ result }) => ({ result: { ...result, output: `${result.output}!` } }),
        },
      });
      const result = await client.run("original", { toolkit: [echo] });
      expect(result.text).toBe("raw+hooked!");
      expect(JSON.stringify(s.bodies[0]!.messages)).toContain("rewritten");
      expect(JSON.stringify(s.bodies[0]!.messages)).not.toContain("original");
      expect(seen).toHaveLength(2);
    });

    it("path B: beforeTool suspends until approved; waitFor approves and the real tool runs; afterTool never sees the suspension", async () => {
      const after: string[] = [];
      const add = defineTool({
        name: "add",
        description: "adds",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        execute: (a) => String((a.a as number) + (a.b as number)),
      });
      const events: MetricEvent[] = [];
      const s = scripted(style, [
        { calls: [{ name: "add", args: { a: 1, b: 2 } }] },
        (b) => ({ text: toolResultsIn(b)[0]! }),
      ]);
      const client = createClient({
        ...base,
        fetch: s.fetch,
        onMetric: (e) => void events.push(e),
        waitFor: async (req) => ({ id: req.id, ok: true }),
        hooks: {
          beforeTool: ({ name }) => ({ result: pending({ kind: "approval", prompt: `Run ${name}?` }) }),
          afterTool: ({ result }) => void after.push(result.output),
        },
      });
      const result = await client.run("1+2", { toolkit: [add] });
      expect(result.text).toBe("3");
      expect(after).toEqual(["3"]);
      const tools = events.filter((e) => e.event === "tool");
      expect(tools[0]).toMatchObject({ tool: "add", isError: false, pending: true });
      expect(tools[1]).toMatchObject({ tool: "add", isError: false });
      expect(client.metrics()).toContain(
        'toolnexus_tool_calls_total{tool="add",source="native",is_error="false",pending="true"} 1',
      );
    });

    it("path B without waitFor halts with the hook's Request", async () => {
      const add = defineTool({ name: "add", description: "adds", execute: () => "3" });
      const client = createClient({
        ...base,
        fetch: scripted(style, [{ calls: [{ name: "add" }] }]).fetch,
        hooks: { beforeTool: () => ({ result: pending({ kind: "approval", prompt: "Approve add?", id: "ap-1" }) }) },
      });
      const result = asPending(await client.run("x", { toolkit: [add] }));
      expect(result.pending).toEqual({ id: "ap-1", kind: "approval", prompt: "Approve add?" });
    });
  });

  describe(`metrics (${style})`, () => {
    it("emits llm, tool and run events and renders them", async () => {
      const events: MetricEvent[] = [];
      const clock = defineTool({ name: "clock", description: "time", execute: () => "12:00" });
      const s = scripted(style, [
        { calls: [{ name: "clock" }], usage: { prompt: 3, completion: 2 } },
        { text: "noon", usage: { prompt: 7, completion: 4 } },
      ]);
      const client = createClient({ ...base, fetch: s.fetch, onMetric: (e) => void events.push(e) });
      await client.run("time?", { toolkit: [clock] });
      expect(events.map((e) => e.event)).toEqual(["llm", "tool", "llm", "run"]);
      expect(events[3]).toMatchObject({ event: "run", model: "m-prod", turns: 2, toolCalls: 1, totalTokens: 16 });
      const text = client.metrics();
      expect(text).toContain('toolnexus_llm_requests_total{model="m-prod",status="ok"} 2');
      expect(text).toContain('toolnexus_llm_tokens_total{type="prompt"} 10');
      expect(text).not.toContain(KEY);
    });
  });

  describe(`request shaping (${style})`, () => {
    for (const mode of MODES) {
      it(`requestParams merge (caller wins, reserved keys refused) and bodyTransform runs last (${mode})`, async () => {
        const s = scripted(style, [{ text: "ok" }]);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          requestParams: { temperature: 0.2, max_tokens: 99, messages: [], stream: false },
          bodyTransform: (body) => ({ ...body, shaped: true }),
        });
        const { value, warnings } = await captureWarnings(() => runIn(client, mode, "x"));
        expect(value.result.text).toBe("ok");
        expect(s.bodies[0]).toMatchObject({ temperature: 0.2, max_tokens: 99, shaped: true });
        expect(s.bodies[0]!.messages.length).toBeGreaterThan(0);
        expect(Boolean(s.bodies[0]!.stream)).toBe(mode === "stream");
        expect(warnings.some((w) => w.includes('requestParams key "messages" is not allowed'))).toBe(true);
      });
    }
  });

  describe(`conversations (${style})`, () => {
    it("ask keeps the transcript in storage; a suspended one is resumed, then continues balanced; forget deletes", async () => {
      const storage = memoryStorage();
      let asked = 0;
      const city = defineTool({
        name: "city",
        description: "asks",
        execute: (_a, ctx: ToolContext | undefined) =>
          ctx?.answer
            ? `city ${ctx.answer.data?.output}`
            : (asked++, pending({ kind: "input", prompt: "Which?", id: `c${asked}` })),
      });
      const s = scripted(style, [
        { text: "hello" },
        { calls: [{ name: "city" }] },
        (b) => ({ text: toolResultsIn(b).at(-1)! }),
        (b) => ({ text: `users=${userTurnsIn(b)}` }),
      ]);
      const client = createClient({ ...base, fetch: s.fetch, storage });
      const convo = client.conversation({ id: "chat-1", toolkit: [city] });
      expect((await convo.send("hi")).text).toBe("hello");
      const halted = asPending(await convo.send("weather?"));
      expect(halted.status).toBe("pending");
      await expect(convo.send("are you there?")).rejects.toThrow(RunConflictError);
      const resumed = await client.resume(halted.runId, answerOutput("c1", "Chennai"), { toolkit: [city] });
      expect(resumed.text).toBe("city Chennai");
      expect((await convo.send("thanks")).text).toBe("users=3");
      expect((await convo.messages()).length).toBeGreaterThan(5);
      await convo.reset();
      expect(await convo.messages()).toEqual([]);
      expect(await storage.get("conversation:chat-1")).toBeUndefined();
    });
  });

  describe(`translate (${style})`, () => {
    it("makes one provider call, executes nothing, fires beforeLLM/afterLLM once", async () => {
      let hooks = 0;
      const s = scripted(style, [{ text: "calling", calls: [{ id: "t1", name: "lookup", args: { q: "x" } }] }]);
      const client = createClient({
        ...base,
        fetch: s.fetch,
        hooks: { beforeLLM: () => void hooks++, afterLLM: () => void hooks++, beforeTool: () => void hooks++ },
      });
      const out = await client.translate({
        messages: [{ role: "user", content: "find x" }],
        tools: [
          {
            type: "function",
            function: { name: "lookup", description: "l", parameters: { type: "object", properties: {} } },
          },
        ],
      });
      expect(out.toolCalls).toEqual([{ id: "t1", name: "lookup", arguments: JSON.stringify({ q: "x" }) }]);
      expect(out.finishReason).toBe("tool_calls");
      expect(s.bodies).toHaveLength(1);
      expect(hooks).toBe(2);
    });
  });
}
