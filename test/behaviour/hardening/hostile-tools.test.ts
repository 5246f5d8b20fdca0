// Hostile tools through the whole loop (docs/guide/reliability.md, "Hostile values"): tools that throw
// non-Errors, return non-JSON or malformed results or metadata, or hang past their timeout. Every case ends
// as a result (an error result where something was wrong) or a typed ToolnexusError — never a crash.
import { afterEach, describe, expect, it } from "vitest";
import { answerOutput, createClient, defineTool, pending, type Tool } from "toolnexus";
import { STYLES } from "../../support/drive";
import { scripted, toolResultsIn } from "../../support/scripted";
import { asPending } from "../../support/results";
import { crash, nestedValue, probe, unpolluted } from "../../support/hostile";

afterEach(unpolluted);

for (const style of STYLES) {
  const base = { baseUrl: "https://llm.test/v1", style, model: "m", apiKey: "sk-test" } as const;

  describe(`hostile tools (${style})`, () => {
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
