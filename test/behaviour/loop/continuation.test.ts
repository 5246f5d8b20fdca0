// A tool that carries a continuation (`pending(request, { state })`, as an MCP elicitation does) across its
// suspensions: it gets its state back, asks round after round, and hears a refusal too — inline and durable.
import {
  answerDeclined,
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  pending,
  type Answer,
  type PendingRequest,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../../support/results";
import { scripted, toolResultsIn } from "../../support/scripted";

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

/** Asks two questions one after the other, keeping the first answer in its state; tells what a refusal was. */
function twoRounds() {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: "form",
    description: "asks twice",
    execute: (_a, ctx) => {
      seen.push(ctx.state);
      const st = ctx.state as { round: number; first?: string } | undefined;
      if (!ctx.answer) return pending({ kind: "input", id: "q-1", prompt: "first?" }, { state: { round: 1 } });
      if (!ctx.answer.ok) return `told the server: ${ctx.answer.reason} in round ${st?.round}`;
      const output = String(ctx.answer.data?.output);
      if (st?.round === 1)
        return pending({ kind: "input", id: "q-2", prompt: "second?" }, { state: { round: 2, first: output } });
      return `${st?.first}+${output}`;
    },
  });
  return { tool, seen };
}

const model = () =>
  scripted(
    "openai",
    Array.from({ length: 10 }, () => (b: Record<string, any>) => {
      const seen = toolResultsIn(b);
      return seen.length ? { text: seen.join("|") } : { calls: [{ name: "form" }] };
    }),
  );

describe("a tool with a continuation", () => {
  it("durably: round after round under one runId, its state back each time, never sent to the page", async () => {
    const storage = memoryStorage();
    const { tool, seen } = twoRounds();
    const client = createClient({ ...base, fetch: model().fetch, storage });
    const first = asPending(await client.run("x", { toolkit: [tool] }));
    expect(JSON.stringify(first)).not.toContain("round");
    const second = asPending(await client.resume(first.runId, answerOutput("q-1", "A"), { toolkit: [tool] }));
    expect(second.runId).toBe(first.runId);
    expect(second.requests.map((r) => r.id)).toEqual(["q-2"]);
    expect(JSON.stringify(second)).not.toContain("first");
    const done = await client.resume(first.runId, answerOutput("q-2", "B"), { toolkit: [tool] });
    expect(done.text).toBe("A+B");
    expect(seen).toEqual([undefined, { round: 1 }, { round: 2, first: "A" }]);
  });

  it("durably: a refusal reaches the tool, which can tell its server", async () => {
    const { tool } = twoRounds();
    const client = createClient({ ...base, fetch: model().fetch, storage: memoryStorage() });
    const first = asPending(await client.run("x", { toolkit: [tool] }));
    const done = await client.resume(first.runId, answerDeclined("q-1", "cancelled"), { toolkit: [tool] });
    expect(done.text).toBe("told the server: cancelled in round 1");
  });

  it("inline: waitFor is asked once per round, and a refusal reaches the tool too", async () => {
    for (const [answers, text] of [
      [(r: PendingRequest): Answer => answerOutput(r.id, r.id === "q-1" ? "A" : "B"), "A+B"],
      [(r: PendingRequest): Answer => answerDeclined(r.id), "told the server: declined in round 1"],
    ] as const) {
      const { tool } = twoRounds();
      const asked: string[] = [];
      const waitFor = async (r: PendingRequest) => (asked.push(r.id), answers(r));
      const result = await createClient({ ...base, fetch: model().fetch, waitFor }).run("x", { toolkit: [tool] });
      expect(result.text).toBe(text);
      expect(asked).toEqual(text === "A+B" ? ["q-1", "q-2"] : ["q-1"]);
    }
  });

  it("a tool without a continuation that suspends again on its answer is still unresolved, and a refusal never runs it", async () => {
    let runs = 0;
    const tool = defineTool({
      name: "form",
      description: "asks forever",
      execute: (_a, ctx) => (
        runs++,
        ctx.answer?.ok === false ? "ran on a refusal" : pending({ kind: "input", id: `q-${runs}`, prompt: "again?" })
      ),
    });
    const client = createClient({ ...base, fetch: model().fetch, storage: memoryStorage() });
    const first = asPending(await client.run("x", { toolkit: [tool] }));
    expect((await client.resume(first.runId, answerOutput(first.pending.id, "x"), { toolkit: [tool] })).text).toBe(
      "unresolved: again?",
    );
    const other = asPending(await client.run("x", { toolkit: [tool] }));
    expect((await client.resume(other.runId, answerDeclined(other.pending.id), { toolkit: [tool] })).text).toBe(
      "declined/expired: again?",
    );
  });
});
