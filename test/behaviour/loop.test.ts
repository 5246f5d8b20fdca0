// The agent loop against scripted OpenAI and Anthropic endpoints, run and streamed.
import { describe, expect, it } from "vitest";
import {
  AnswerMismatchError,
  answerDeclined,
  answerOutput,
  createClient,
  createToolkit,
  defineTool,
  pending,
  type Answer,
  type ToolContext,
} from "toolnexus";
import { MODES, runIn, STYLES, types } from "../support/drive";
import { scripted, toolResultsIn } from "../support/scripted";
import { asPending } from "../support/results";

const weather = () => {
  const seen: ToolContext[] = [];
  const tool = defineTool({
    name: "ask_city",
    description: "Weather for a city the user picks",
    execute: (_args, ctx) => {
      seen.push(ctx!);
      if (!ctx?.answer) return pending({ kind: "input", prompt: "Which city?", id: "city-1" });
      return `Weather in ${String(ctx.answer.data?.output)}: 31°C, sunny`;
    },
  });
  return { tool, seen };
};

for (const style of STYLES) {
  for (const mode of MODES) {
    describe(`loop (${style}, ${mode})`, () => {
      const base = { baseUrl: "https://llm.test/v1", style, model: "model-x", apiKey: "sk-test-secret" } as const;

      it("answers a plain prompt with no tools and no tools key on the wire", async () => {
        const s = scripted(style, [{ text: "Hello there" }], { chunkSize: 1 });
        const client = createClient({ ...base, fetch: s.fetch });
        const { result, events } = await runIn(client, mode, "hi");
        expect(result).toMatchObject({
          status: "done",
          text: "Hello there",
          turns: 1,
          model: "model-x",
          toolCallCount: 0,
        });
        expect(result.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
        expect(s.bodies[0]!.tools).toBeUndefined();
        expect(s.bodies[0]!.tool_choice).toBeUndefined();
        expect(s.bodies[0]!.model).toBe("model-x");
        if (mode === "stream") {
          expect(
            events
              .filter((e) => e.type === "text")
              .map((e) => (e as { delta: string }).delta)
              .join(""),
          ).toBe("Hello there");
          expect(types(events).slice(-2)).toEqual(["usage", "done"]);
        }
      });

      it("the Clojure ask_city flow: waitFor answers Chennai, the tool re-runs with ctx.answer", async () => {
        const { tool, seen } = weather();
        const s = scripted(style, [
          { calls: [{ name: "ask_city", args: {} }] },
          (body) => ({ text: `It is ${toolResultsIn(body)[0]}` }),
        ]);
        const asked: string[] = [];
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async (req) => (asked.push(req.prompt), answerOutput(req.id, "Chennai")),
        });
        const { result, events } = await runIn(client, mode, "weather?", { toolkit: [tool] });
        expect(asked).toEqual(["Which city?"]);
        expect(result.status).toBe("done");
        expect(result.text).toBe("It is Weather in Chennai: 31°C, sunny");
        expect(result.toolCalls).toHaveLength(1);
        expect(result.toolCalls[0]).toMatchObject({
          name: "ask_city",
          output: "Weather in Chennai: 31°C, sunny",
          isError: false,
        });
        expect(seen).toHaveLength(2);
        expect(seen[0]!.answer).toBeUndefined();
        expect(seen[1]!.answer).toEqual(answerOutput("city-1", "Chennai"));
        expect(s.bodies).toHaveLength(2);
        expect(result.usage.totalTokens).toBe(30);
        // the call's argument deltas (tool_input) come first; the wire tests check them
        const shown = events.filter((e) => e.type !== "tool_input");
        if (mode === "stream")
          expect(types(shown)).toEqual([
            "tool_call",
            "pending",
            "tool_result",
            ...types(shown).slice(3, -2),
            "usage",
            "done",
          ]);
      });

      it("the Elixir flow: a JSON round-tripped answerOutput('q1', 'Ada')", async () => {
        const askHuman = defineTool({
          name: "ask_human",
          description: "asks the human a question",
          inputSchema: { type: "object", properties: {} },
          execute: (_a, ctx) =>
            ctx?.answer
              ? `got: ${ctx.answer.data?.output}`
              : pending({ id: "q1", kind: "input", prompt: "your name?" }),
        });
        const s = scripted(style, [{ calls: [{ name: "ask_human" }] }, (b) => ({ text: toolResultsIn(b).join("|") })]);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async () => JSON.parse(JSON.stringify(answerOutput("q1", "Ada"))) as Answer,
        });
        const { result } = await runIn(client, mode, "name?", { toolkit: [askHuman] });
        expect(result.text).toBe("got: Ada");
      });

      it("the Python flow: createToolkit({ builtins: false, tools }) and waitFor → staging", async () => {
        const deploy = defineTool({
          name: "deploy",
          description: "Deploys to an environment",
          execute: (_a, ctx) =>
            ctx?.answer
              ? `deployed to ${ctx.answer.data?.output}`
              : pending({ kind: "input", prompt: "which environment?" }),
        });
        const toolkit = await createToolkit({ builtins: false, tools: [deploy] });
        expect(toolkit.tools().map((t) => t.name)).toEqual(["deploy"]);
        const s = scripted(style, [{ calls: [{ name: "deploy" }] }, (b) => ({ text: toolResultsIn(b)[0]! })]);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async (req) => answerOutput(req.id, "staging"),
        });
        const { result } = await runIn(client, mode, "ship it", { toolkit });
        expect(result.text).toBe("deployed to staging");
        const declared =
          style === "openai"
            ? s.bodies[0]!.tools.map((t: any) => t.function.name)
            : s.bodies[0]!.tools.map((t: any) => t.name);
        expect(declared).toEqual(["deploy"]);
      });

      it("a declined answer becomes an error result the model sees; the run continues", async () => {
        const { tool } = weather();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, (b) => ({ text: toolResultsIn(b)[0]! })]);
        const client = createClient({ ...base, fetch: s.fetch, waitFor: async (req) => answerDeclined(req.id) });
        const { result } = await runIn(client, mode, "weather?", { toolkit: [tool] });
        expect(result).toMatchObject({ status: "done", text: "declined/expired: Which city?" });
        expect(result.toolCalls[0]!.isError).toBe(true);
      });

      it("a second suspension of the re-run tool is unresolved, never a loop", async () => {
        let runs = 0;
        const stubborn = defineTool({
          name: "stubborn",
          description: "always asks",
          execute: () => (runs++, pending({ kind: "approval", prompt: "Approve?" })),
        });
        const s = scripted(style, [{ calls: [{ name: "stubborn" }] }, (b) => ({ text: toolResultsIn(b)[0]! })]);
        const client = createClient({ ...base, fetch: s.fetch, waitFor: async (req) => ({ id: req.id, ok: true }) });
        const { result } = await runIn(client, mode, "go", { toolkit: [stubborn] });
        expect(result.text).toBe("unresolved: Approve?");
        expect(runs).toBe(2);
      });

      it("an answer for another id rejects the run with AnswerMismatchError", async () => {
        const { tool } = weather();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }]);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async () => answerOutput("someone-else", "Paris"),
        });
        await expect(runIn(client, mode, "weather?", { toolkit: [tool] })).rejects.toThrow(AnswerMismatchError);
      });

      it("past expiresAt an ok answer counts as expired", async () => {
        let ran = 0;
        const late = defineTool({
          name: "late",
          description: "expired ask",
          execute: (_a, ctx) =>
            ctx?.answer
              ? (ran++, "used")
              : pending({ kind: "input", prompt: "Too late?", expiresAt: "2001-01-01T00:00:00Z" }),
        });
        const s = scripted(style, [{ calls: [{ name: "late" }] }, (b) => ({ text: toolResultsIn(b)[0]! })]);
        const client = createClient({ ...base, fetch: s.fetch, waitFor: async (req) => answerOutput(req.id, "yes") });
        const { result } = await runIn(client, mode, "x", { toolkit: [late] });
        expect(result.text).toBe("declined/expired: Too late?");
        expect(ran).toBe(0);
      });

      it("without waitFor the run halts pending with a runId and does not call the model again", async () => {
        const { tool } = weather();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }]);
        const client = createClient({ ...base, fetch: s.fetch });
        const { result, events } = await runIn(client, mode, "weather?", { toolkit: [tool] });
        expect(result.status).toBe("pending");
        const halted = asPending(result);
        expect(halted.pending).toEqual({ id: "city-1", kind: "input", prompt: "Which city?" });
        expect(halted.requests).toEqual([halted.pending]);
        expect(halted.runId).toMatch(/^run-/);
        expect(result.text).toBe("Which city?");
        expect(s.bodies).toHaveLength(1);
        if (mode === "stream") {
          // the call's argument deltas (tool_input) come first; the wire tests check them
          const shown = events.filter((e) => e.type !== "tool_input");
          expect(events[0]!.type).toBe("tool_input");
          expect(types(shown)).toEqual(["tool_call", "pending", "usage", "done"]);
          expect(shown[1]).toEqual({ type: "pending", request: halted.pending, runId: halted.runId });
        }
      });

      it("tool errors go back to the model: unknown tool, bad JSON arguments, schema failure, a throw", async () => {
        const strict = defineTool({
          name: "strict",
          description: "needs n",
          inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          execute: () => "ran",
        });
        const boom = defineTool({
          name: "boom",
          description: "throws",
          execute: () => {
            throw new Error("kaput");
          },
        });
        const s = scripted(style, [
          {
            calls: [
              { name: "nope" },
              { name: "strict", raw: "{not json" },
              { name: "strict", args: { n: "x" } },
              { name: "boom" },
            ],
          },
          (b) => ({ text: JSON.stringify(toolResultsIn(b)) }),
        ]);
        const client = createClient({ ...base, fetch: s.fetch });
        const { result } = await runIn(client, mode, "x", { toolkit: [strict, boom] });
        const outputs = JSON.parse(result.text) as string[];
        expect(outputs).toHaveLength(4);
        expect(outputs[0]).toBe("Unknown tool: nope");
        expect(outputs[1]).toContain("Invalid arguments for strict");
        expect(outputs[2]).toContain("Invalid arguments for strict");
        expect(outputs[3]).toBe("kaput");
        expect(result.toolCalls.map((c) => c.isError)).toEqual([true, true, true, true]);
      });

      it("runs the calls of a turn concurrently and records them in call order, with ctx ids", async () => {
        const order: string[] = [];
        const ctxs: ToolContext[] = [];
        const slow = defineTool({
          name: "slow",
          description: "waits",
          inputSchema: { type: "object", properties: { label: { type: "string" }, wait: { type: "number" } } },
          execute: async (a, ctx) => {
            ctxs.push(ctx!);
            await new Promise((r) => setTimeout(r, a.wait as number));
            order.push(a.label as string);
            return a.label as string;
          },
        });
        const s = scripted(style, [
          {
            calls: [
              { id: "c1", name: "slow", args: { label: "first", wait: 30 } },
              { id: "c2", name: "slow", args: { label: "second", wait: 0 } },
            ],
          },
          (b) => ({ text: toolResultsIn(b).join(",") }),
        ]);
        const client = createClient({ ...base, fetch: s.fetch });
        const { result } = await runIn(client, mode, "x", { toolkit: [slow] });
        expect(order).toEqual(["second", "first"]);
        expect(result.text).toBe("first,second");
        expect(result.toolCalls.map((c) => c.id)).toEqual(["c1", "c2"]);
        const runId = ctxs[0]!.runId;
        expect(ctxs.map((c) => c.idempotencyKey).sort()).toEqual([`${runId}:c1`, `${runId}:c2`]);
        expect(ctxs.every((c) => c.signal instanceof AbortSignal)).toBe(true);
      });
    });
  }
}
