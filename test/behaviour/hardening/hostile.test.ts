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
  isToolnexusError,
  memoryStorage,
  pending,
  relayAnswer,
  relayTool,
  type Tool,
  type ToolContext,
} from "toolnexus";
import { MODES, resumeIn, runIn, STYLES } from "../support/drive";
import { scripted, toolResultsIn } from "../support/scripted";
import { asPending } from "../support/results";

const HOSTILE_ARGS =
  '{"__proto__":{"polluted":"args"},"constructor":{"prototype":{"polluted":"ctor"}},"prototype":{"polluted":"proto"},"city":"x"}';
const HOSTILE_ANSWER =
  '{"id":"q","ok":true,"__proto__":{"polluted":"top"},"data":{"output":"Pune","__proto__":{"polluted":"answer"},"constructor":{"prototype":{"polluted":"c"}}}}';
const MB = 1024 * 1024;

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const nestedValue = (depth: number): unknown => JSON.parse(nested(depth));

function unpolluted(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  expect(Object.hasOwn(Array.prototype, "polluted")).toBe(false);
}

/** `""` when the call resolved or rejected with a typed ToolnexusError; else `"<label>: <the untyped error>"`. */
async function crash(label: string, promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "";
  } catch (error) {
    return isToolnexusError(error) ? "" : `${label}: ${String(error).slice(0, 120)}`;
  }
}

const crashes = async (checks: Promise<string>[]): Promise<string[]> => (await Promise.all(checks)).filter(Boolean);

/** A tool that suspends once, then returns what it saw; `seen` keeps every call's args and answer. */
function probe(name = "probe", inputSchema: Tool["inputSchema"] = { type: "object" }) {
  const seen: { args: Record<string, unknown>; answer?: ToolContext["answer"] }[] = [];
  const tool = defineTool({
    name,
    description: "suspends once",
    inputSchema,
    execute: (args, ctx) => {
      seen.push({ args, ...(ctx?.answer ? { answer: ctx.answer } : {}) });
      return ctx?.answer
        ? `got ${String(ctx.answer.data?.output).length} chars`
        : pending({ kind: "input", prompt: "more?", id: "q" });
    },
  });
  return { tool, seen };
}

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

    it("tools that throw non-Error values become error results", async () => {
      const throwers: [string, () => never][] = [
        [
          "string",
          () => {
            throw "plain string";
          },
        ],
        [
          "null",
          () => {
            throw null;
          },
        ],
        [
          "undefined",
          () => {
            throw undefined;
          },
        ],
        [
          "number",
          () => {
            throw 42;
          },
        ],
        [
          "symbol",
          () => {
            throw Symbol("sym");
          },
        ],
        [
          "object",
          () => {
            throw { code: 7 };
          },
        ],
        [
          "toString throws",
          () => {
            throw {
              toString: () => {
                throw new Error("nope");
              },
            };
          },
        ],
        [
          "frozen error",
          () => {
            throw Object.freeze(new RangeError("frozen"));
          },
        ],
        [
          "empty message",
          () => {
            throw new Error("");
          },
        ],
      ];
      const tools = throwers.map(([name, fn]) =>
        defineTool({ name: name.replace(/ /g, "_"), description: "", execute: fn }),
      );
      const raw: Tool = {
        name: "raw",
        description: "",
        inputSchema: { type: "object" },
        source: "custom",
        execute: () => Promise.reject(Symbol.for("raw")),
      };
      const s = scripted(style, [
        { calls: [...tools, raw].map((t) => ({ name: t.name })) },
        (b) => ({ text: String(toolResultsIn(b).length) }),
      ]);
      const result = await createClient({ ...base, fetch: s.fetch }).run("x", { toolkit: [...tools, raw] });
      expect(result.status).toBe("done");
      expect(result.toolCalls).toHaveLength(throwers.length + 1);
      for (const call of result.toolCalls) {
        expect(call.isError).toBe(true);
        expect(call.output).toBeTypeOf("string");
      }
      expect(result.toolCalls[0]!.output).toBe("plain string");
      expect(result.toolCalls.at(-1)!.output).toContain("raw");
    });

    it("tools that return non-JSON or malformed results become error results (or their JSON)", async () => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const returns: [string, unknown][] = [
        ["bigint", 10n],
        ["circular", circular],
        ["symbol", Symbol("s")],
        ["function", () => 1],
        ["nan", NaN],
        ["bad_output", { output: 5, isError: false }],
        ["bad_flag", { output: "x", isError: "yes" }],
        ["deep", nestedValue(10_000)],
      ];
      const tools = returns.map(([name, value]) => defineTool({ name, description: "", execute: () => value }));
      const rogue: Tool = {
        name: "rogue",
        description: "",
        inputSchema: { type: "object" },
        source: "custom",
        execute: async () => ({ output: 5 }) as never,
      };
      const s = scripted(style, [{ calls: [...tools, rogue].map((t) => ({ name: t.name })) }, { text: "done" }]);
      const result = await createClient({ ...base, fetch: s.fetch }).run("x", { toolkit: [...tools, rogue] });
      expect(result.status).toBe("done");
      const byName = Object.fromEntries(result.toolCalls.map((c) => [c.name, c]));
      for (const name of ["bigint", "circular", "symbol", "function", "rogue"])
        expect({ name, isError: byName[name]!.isError }).toEqual({ name, isError: true });
      expect(byName.rogue!.output).toContain("invalid result");
      // 10,000 levels: its JSON where the engine can stringify that deep (Chromium), else an error result (Node)
      expect(byName.deep!.isError ? byName.deep!.output : byName.deep!.output.length).toEqual(
        byName.deep!.isError ? expect.stringContaining("cannot be turned into JSON") : 60_001,
      );
      expect(byName.nan!.output).toBe("null");
    });

    it("a result whose metadata is not JSON (BigInt, circular) does not crash a halt or a resume", async () => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const found: string[] = [];
      for (const [label, metadata] of [
        ["BigInt", { n: 10n }],
        ["circular", circular],
      ] as const) {
        const odd = defineTool({
          name: "odd",
          description: "",
          execute: () => ({ output: "odd", isError: false, metadata }),
        });
        const p = probe();
        // halting turn: odd finishes beside a suspension; resumed turn: the model calls odd again, then ends
        const s = scripted(style, [
          { calls: [{ name: "odd" }, { name: "probe" }] },
          { calls: [{ name: "odd" }] },
          { text: "end" },
        ]);
        const client = createClient({ ...base, fetch: s.fetch });
        let runId: string | undefined;
        found.push(
          await crash(
            `${label} halt`,
            client
              .run("x", { toolkit: [odd, p.tool] })
              .then((r) => (runId = r.status === "pending" ? r.runId : undefined)),
          ),
        );
        if (runId)
          found.push(
            await crash(`${label} resume`, client.resume(runId, answerOutput("q", "go"), { toolkit: [odd, p.tool] })),
          );
        // the resumed tool itself returns the metadata, and the run completes
        const late = defineTool({
          name: "late",
          description: "",
          execute: (_a, ctx) =>
            ctx?.answer
              ? { output: "late", isError: false, metadata }
              : pending({ kind: "input", prompt: "?", id: "q" }),
        });
        const s2 = scripted(style, [{ calls: [{ name: "late" }] }, { text: "end" }]);
        const c2 = createClient({ ...base, fetch: s2.fetch });
        const halted = asPending(await c2.run("x", { toolkit: [late] }));
        found.push(
          await crash(`${label} resumed tool`, c2.resume(halted.runId, answerOutput("q", "go"), { toolkit: [late] })),
        );
      }
      expect(found.filter(Boolean)).toEqual([]);
    });

    it("a tool that hangs past toolTimeoutMs — even ignoring its signal — becomes an error result, also when re-run on resume", async () => {
      const signals: AbortSignal[] = [];
      const hang = defineTool({
        name: "hang",
        description: "",
        execute: (_a, ctx) => {
          signals.push(ctx!.signal!);
          return ctx?.answer ? new Promise(() => {}) : pending({ kind: "input", prompt: "?", id: "q" });
        },
      });
      const stuck = defineTool({ name: "stuck", description: "", execute: () => new Promise(() => {}) });
      const s = scripted(style, [
        { calls: [{ name: "stuck" }, { name: "hang" }] },
        (b) => ({ text: toolResultsIn(b).join("|") }),
      ]);
      const client = createClient({ ...base, fetch: s.fetch, toolTimeoutMs: 30 });
      const halted = asPending(await client.run("x", { toolkit: [stuck, hang] }));
      expect(halted.toolCalls).toEqual([]);
      const done = await client.resume(halted.runId, answerOutput("q", "go"), { toolkit: [stuck, hang] });
      expect(done.text).toBe("tool stuck timed out after 30ms|tool hang timed out after 30ms");
      expect(signals.at(-1)!.aborted).toBe(true);
    });
  });
}
