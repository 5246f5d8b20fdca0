// What the loser of a resume race gets, as the README's exactly-once paragraph says: a RunConflictError
// whose `reason` tells why — `claimed` while another resume holds the run, `answered` when another answer
// was applied, `finished` for another answer once the run is done — while the same answer again after the
// run finished gets the kept outcome. The tool runs once whatever happens.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createInProcessClient,
  defineTool,
  type GenerateRequest,
  memoryStorage,
  pending,
  RunConflictError,
} from "toolnexus";

function world() {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen = { runs: 0, started: 0 };
  const weather = defineTool({
    name: "weather",
    description: "The weather where the user is",
    execute: async (_args, ctx) => {
      if (!ctx.answer) return pending({ kind: "input", prompt: "Which city?" });
      seen.started++;
      await held; // the winning resume holds the run until the test lets it go
      seen.runs++;
      return `31 °C in ${ctx.answer.data?.output}`;
    },
  });
  const generate = ({ messages }: GenerateRequest) => {
    const last = messages.at(-1) as { role: string; content: string };
    return last.role === "tool"
      ? { content: `Forecast: ${last.content}` }
      : { toolCalls: [{ name: "weather", arguments: {} }] };
  };
  const client = createInProcessClient({ model: "demo", generate, storage: memoryStorage() });
  return { client, toolkit: [weather], seen, release };
}

const reasonOf = (error: unknown) => (error instanceof RunConflictError ? error.reason : `not a conflict: ${error}`);

describe("the loser of a resume race", () => {
  it("gets RunConflictError `claimed` while the winner holds the run; the same answer later gets the kept outcome", async () => {
    const { client, toolkit, seen, release } = world();
    const halted = await client.run("weather?", { toolkit });
    if (halted.status !== "pending") throw new Error("expected a halt");
    const answer = answerOutput(halted.pending.id, "Chennai");
    const winning = client.resume(halted.runId, answer, { toolkit });
    while (seen.started === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const lost = await client.resume(halted.runId, answer, { toolkit }).catch((e: unknown) => e);
    expect(reasonOf(lost)).toBe("claimed");
    release();
    const won = await winning;
    expect(won.text).toBe("Forecast: 31 °C in Chennai");
    expect(await client.resume(halted.runId, answer, { toolkit })).toEqual(won);
    expect(seen.runs).toBe(1);
  });

  it("with another answer: `claimed` while the winner runs, `finished` once it is done", async () => {
    const { client, toolkit, seen, release } = world();
    const halted = await client.run("weather?", { toolkit });
    if (halted.status !== "pending") throw new Error("expected a halt");
    const winning = client.resume(halted.runId, answerOutput(halted.pending.id, "Chennai"), { toolkit });
    while (seen.started === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const other = answerOutput(halted.pending.id, "Paris");
    expect(reasonOf(await client.resume(halted.runId, other, { toolkit }).catch((e: unknown) => e))).toBe("claimed");
    release();
    await winning;
    expect(reasonOf(await client.resume(halted.runId, other, { toolkit }).catch((e: unknown) => e))).toBe("finished");
    expect(seen.runs).toBe(1);
  });
});
