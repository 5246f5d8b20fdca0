// Hostile values through the whole loop (docs/guide/reliability.md, "Hostile values"): prototype-shaped keys, 1 MB strings, 10,000-level
// nesting, non-JSON numbers, tools that throw non-Errors, return non-JSON or hang. Every case ends as a
// result (an error result where something was wrong) or a typed ToolnexusError — never a crash, never
// a polluted prototype.
import { afterEach, describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  InvalidAnswerError,
  memoryStorage,
  relayAnswer,
  relayTool,
} from "toolnexus";
import { MODES, resumeIn, runIn, STYLES } from "../../support/drive";
import { scripted, toolResultsIn } from "../../support/scripted";
import { asPending } from "../../support/results";
import { crash, crashes, nested, nestedValue, probe, unpolluted } from "../../support/hostile";

const HOSTILE_ARGS =
  '{"__proto__":{"polluted":"args"},"constructor":{"prototype":{"polluted":"ctor"}},"prototype":{"polluted":"proto"},"city":"x"}';
const HOSTILE_ANSWER =
  '{"id":"q","ok":true,"__proto__":{"polluted":"top"},"data":{"output":"Pune","__proto__":{"polluted":"answer"},"constructor":{"prototype":{"polluted":"c"}}}}';
const MB = 1024 * 1024;

/**
 * A provider whose first reply calls `name` with arguments nested `depth` levels deep (built as text: a
 * JSON.stringify of such a value overflows the stack), streamed or not; every later reply is plain text.
 */
function deepReply(style: "openai" | "anthropic", name: string, depth: number): typeof fetch {
  let calls = 0;
  const args = `{"x":${nested(depth)}}`;
  return (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const first = calls++ === 0;
    const stream = JSON.parse(String(init?.body)).stream === true;
    const sse = (lines: string[]) => new Response(lines.join(""), { headers: { "content-type": "text/event-stream" } });
    if (style === "openai") {
      const message = first
        ? `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"${name}","arguments":${JSON.stringify(args)}}}]}`
        : '{"role":"assistant","content":"after"}';
      if (!stream) return new Response(`{"choices":[{"index":0,"message":${message},"finish_reason":"stop"}]}`);
      const delta = first
        ? `{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"${name}","arguments":${JSON.stringify(args)}}}]}`
        : '{"content":"after"}';
      return sse([
        `data: {"choices":[{"index":0,"delta":${delta}}]}\n\n`,
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
        "data: [DONE]\n\n",
      ]);
    }
    const block = first
      ? `{"type":"tool_use","id":"c1","name":"${name}","input":${args}}`
      : '{"type":"text","text":"after"}';
    if (!stream)
      return new Response(
        `{"id":"m","type":"message","role":"assistant","content":[${block}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`,
      );
    const ev = (type: string, data: string) => `event: ${type}\ndata: {"type":"${type}",${data}}\n\n`;
    const start = first ? `{"type":"tool_use","id":"c1","name":"${name}","input":{}}` : '{"type":"text","text":""}';
    const delta = first
      ? `{"type":"input_json_delta","partial_json":${JSON.stringify(args)}}`
      : '{"type":"text_delta","text":"after"}';
    return sse([
      ev(
        "message_start",
        '"message":{"id":"m","type":"message","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}',
      ),
      ev("content_block_start", `"index":0,"content_block":${start}`),
      ev("content_block_delta", `"index":0,"delta":${delta}`),
      ev("content_block_stop", '"index":0'),
      ev("message_delta", '"delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}'),
      ev("message_stop", '"x":0'),
    ]);
  }) as typeof fetch;
}

afterEach(unpolluted);

for (const style of STYLES) {
  const base = { baseUrl: "https://llm.test/v1", style, model: "m", apiKey: "sk-test" } as const;

  describe(`hostile values (${style})`, () => {
    for (const mode of MODES) {
      it(`__proto__/constructor/prototype keys in arguments and answers stay plain data through halt and resume (${mode})`, async () => {
        const storage = memoryStorage();
        const p = probe();
        const s = scripted(
          style,
          [
            { calls: [{ name: "probe", args: JSON.parse(HOSTILE_ARGS) }] },
            (b) => ({ text: toolResultsIn(b).join("|") }),
          ],
          { chunkSize: 7 },
        );
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: [p.tool] })).result);
        expect(halted.status).toBe("pending");
        const { result } = await resumeIn(client, mode, halted.runId, JSON.parse(HOSTILE_ANSWER), {
          toolkit: [p.tool],
        });
        expect(result.text).toBe("got 4 chars");
        for (const { args } of p.seen) {
          expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
          expect(Object.keys(args).sort()).toEqual(["__proto__", "city", "constructor", "prototype"]);
          expect((args as { polluted?: unknown }).polluted).toBeUndefined();
        }
        const answer = p.seen[1]!.answer!;
        expect(Object.getPrototypeOf(answer.data)).toBe(Object.prototype);
        expect(Object.keys(answer.data!).sort()).toEqual(["constructor", "output"]); // own __proto__ keys are dropped
        expect((answer as { polluted?: unknown }).polluted).toBeUndefined();
      });
    }

    it("relay calls and relay answers carrying prototype keys stay plain data", async () => {
      const lookup = relayTool("lookup", "host-side", { type: "object" });
      const s = scripted(style, [
        { calls: [{ id: "r1", name: "lookup", args: JSON.parse(HOSTILE_ARGS) }] },
        (b) => ({ text: toolResultsIn(b).join("|") }),
      ]);
      const client = createClient({ ...base, fetch: s.fetch });
      const halted = asPending(await client.run("x", { toolkit: [lookup] }));
      const calls = halted.pending.data!.calls as { input: Record<string, unknown> }[];
      expect(Object.keys(calls[0]!.input).sort()).toEqual(["__proto__", "city", "constructor", "prototype"]);
      const answer = JSON.parse(
        JSON.stringify(relayAnswer(halted.pending.id, [{ id: "r1", output: "ok" }])).replace(
          '"results"',
          '"__proto__":{"polluted":1},"results"',
        ),
      );
      expect((await client.resume(halted.runId, answer, { toolkit: [lookup] })).text).toBe("ok");
    });

    it("tool names shaped like Object.prototype members are unknown tools, answered as error results", async () => {
      const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "prototype"];
      const s = scripted(style, [
        { calls: names.map((name) => ({ name })) },
        (b) => ({ text: toolResultsIn(b).join("|") }),
      ]);
      const result = await createClient({ ...base, fetch: s.fetch }).run("x", { toolkit: [probe().tool] });
      expect(result.text).toBe(names.map((n) => `Unknown tool: ${n}`).join("|"));
      expect(result.toolCalls.every((c) => c.isError)).toBe(true);
    });

    it("tool arguments 64 levels deep reach the tool; one level more is an error result naming the limit", async () => {
      const seen: unknown[] = [];
      const tool = defineTool({
        name: "t",
        description: "",
        inputSchema: { type: "object" },
        execute: (a) => (seen.push(a), "ran"),
      });
      // `{"x": <n objects around 1>}`: the 1 is n + 1 levels down
      const ran = await createClient({ ...base, fetch: deepReply(style, "t", 63) }).run("x", { toolkit: [tool] });
      expect(ran.toolCalls.map((c) => [c.output, c.isError])).toEqual([["ran", false]]);
      const refused = await createClient({ ...base, fetch: deepReply(style, "t", 64) }).run("x", { toolkit: [tool] });
      expect(refused.toolCalls).toHaveLength(1);
      expect(refused.toolCalls[0]!.isError).toBe(true);
      expect(refused.toolCalls[0]!.output).toContain("nested deeper than 64 levels");
      expect(seen).toHaveLength(1);
    });

    it("a schema that requires a property named like an Object.prototype member enforces it", async () => {
      const seen: unknown[] = [];
      const tool = defineTool({
        name: "t",
        description: "",
        inputSchema: { type: "object", required: ["constructor", "toString"] },
        execute: (a) => (seen.push(a), "ran"),
      });
      const s = scripted(style, [{ calls: [{ name: "t", args: {} }] }, (b) => ({ text: toolResultsIn(b).join("|") })]);
      const result = await createClient({ ...base, fetch: s.fetch }).run("x", { toolkit: [tool] });
      expect(result.text).toContain("Invalid arguments for t");
      expect(result.text).toContain("constructor: is required");
      expect(seen).toEqual([]);
    });

    for (const mode of MODES) {
      it(`1 MB strings in arguments, answers and results go through halt, storage and resume intact (${mode})`, async () => {
        const big = "€".repeat(MB / 4) + "x".repeat(MB - MB / 4);
        const storage = memoryStorage();
        const echo = defineTool({
          name: "echo",
          description: "",
          inputSchema: { type: "object" },
          execute: (a) => String(a.text),
        });
        const p = probe();
        const s = scripted(
          style,
          [
            {
              calls: [
                { name: "probe", args: { text: big } },
                { name: "echo", args: { text: big } },
              ],
            },
            (b) => ({
              text: toolResultsIn(b)
                .map((r) => (r.length > 100 ? r.length : r))
                .join("|"),
            }),
          ],
          { chunkSize: 64 * 1024 },
        );
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: [p.tool, echo] })).result);
        expect((await storage.get(`run:${halted.runId}`))!.length).toBeGreaterThan(3 * MB);
        const { result } = await resumeIn(client, mode, halted.runId, answerOutput("q", big), {
          toolkit: [p.tool, echo],
        });
        expect(result.text).toBe(`got ${MB} chars|${MB}`);
        expect(p.seen.map((x) => x.args.text === big)).toEqual([true, true]);
        expect(p.seen[1]!.answer!.data!.output).toBe(big);
      }, 60_000); // several MB through halt, claim, checkpoint and outcome: slow runtimes need more than 5 s
    }

    it("an answer nested 10,000 levels deep is an InvalidAnswerError and the run stays resumable", async () => {
      const storage = memoryStorage();
      const p = probe();
      const s = scripted(style, [{ calls: [{ name: "probe" }] }, { text: "fine" }]);
      const client = createClient({ ...base, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: [p.tool] }));
      const before = await storage.get(`run:${halted.runId}`);
      for (const deep of [nestedValue(10_000), JSON.parse("[".repeat(10_000) + "]".repeat(10_000))]) {
        await expect(
          client.resume(halted.runId, { id: "q", ok: true, data: { output: "x", deep } } as never, {
            toolkit: [p.tool],
          }),
        ).rejects.toThrow(InvalidAnswerError);
      }
      expect(await storage.get(`run:${halted.runId}`)).toBe(before);
      expect((await client.resume(halted.runId, answerOutput("q", "ok"), { toolkit: [p.tool] })).text).toBe("fine");
      expect(p.seen).toHaveLength(2);
    });

    for (const mode of MODES) {
      it(`tool arguments nested 10,000 levels deep are an error result or a typed error, never a stack overflow (${mode})`, async () => {
        const plain = defineTool({
          name: "plain",
          description: "",
          inputSchema: { type: "object" },
          execute: () => "ran",
        });
        const checks: Promise<string>[] = [];
        for (const tool of [plain, probe().tool]) {
          for (const inline of [false, true]) {
            const client = createClient({
              ...base,
              fetch: deepReply(style, tool.name, 10_000),
              ...(inline ? { waitFor: async () => answerOutput("q", "ok") } : {}),
            });
            checks.push(
              crash(`${tool.name}${inline ? " inline" : " halting"}`, runIn(client, mode, "x", { toolkit: [tool] })),
            );
          }
        }
        expect(await crashes(checks)).toEqual([]);
      });
    }

    it("non-JSON numbers: 1e999 arguments do not crash the loop; NaN/Infinity answers are InvalidAnswerErrors", async () => {
      const p = probe();
      // streamed, so both wires parse the raw argument text themselves (JSON.parse("1e999") is Infinity)
      const s = scripted(style, [
        {
          calls: [
            { name: "probe", raw: '{"n":1e999,"m":-1e999,"z":-0}' },
            { name: "probe", raw: "NaN" },
          ],
        },
        (b) => ({ text: toolResultsIn(b).join("|") }),
      ]);
      const client = createClient({ ...base, fetch: s.fetch });
      const halted = asPending((await runIn(client, "stream", "x", { toolkit: [p.tool] })).result);
      expect(halted.status).toBe("pending");
      expect(p.seen[0]!.args).toEqual({ n: Infinity, m: -Infinity, z: -0 });
      for (const bad of [NaN, Infinity, -Infinity]) {
        await expect(
          client.resume(halted.runId, { id: "q", ok: true, data: { output: "x", n: bad } }, { toolkit: [p.tool] }),
        ).rejects.toThrow(InvalidAnswerError);
      }
      const done = await client.resume(halted.runId, answerOutput("q", "go"), { toolkit: [p.tool] });
      expect(done.text).toMatch(/^got 2 chars\|Invalid arguments for probe: not a JSON object/);
      expect(p.seen[1]!.args).toEqual({ n: null, m: null, z: 0 }); // re-run with the stored (JSON) arguments
    });
  });
}
