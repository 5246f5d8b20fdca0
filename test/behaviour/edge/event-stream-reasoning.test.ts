// What a page sees of the model's work: tool_input events always pass; reasoning only when the host
// asks for it with eventStreamResponse(events, { reasoning: true }), and readEventStream yields both.
import { describe, expect, it } from "vitest";
import { eventStreamResponse, readEventStream, type StreamEvent } from "toolnexus";
import { collect } from "../../support/wire-streams";
import { doneResult } from "../../support/results";

const result = doneResult("Paris", "secret system prompt");

const run: StreamEvent[] = [
  { type: "reasoning", delta: "The user wants " },
  { type: "reasoning", delta: "the capital." },
  { type: "tool_input", id: "c1", name: "lookup", delta: '{"q":' },
  { type: "tool_input", id: "c1", name: "lookup", delta: '"France"}' },
  { type: "tool_call", id: "c1", name: "lookup", args: { q: "France" } },
  { type: "text", delta: "Paris" },
  { type: "done", result },
];

async function* events(list: StreamEvent[]): AsyncGenerator<StreamEvent> {
  yield* list;
}

describe("reasoning and tool_input over the page-safe stream", () => {
  it("by default reasoning is held back and tool_input passes", async () => {
    const seen = await collect(readEventStream(await eventStreamResponse(events(run))));
    expect(seen.map((e) => e.type)).toEqual(["tool_input", "tool_input", "tool_call", "text", "done"]);
    expect(seen.slice(0, 2)).toEqual(run.slice(2, 4));
  });

  it("with reasoning: true the page reads every reasoning delta, in order", async () => {
    const seen = await collect(readEventStream(await eventStreamResponse(events(run), { reasoning: true })));
    expect(seen.slice(0, -1)).toEqual(run.slice(0, -1));
  });

  it("a stream that opens with reasoning still starts, and its later failure is an error event", async () => {
    async function* failing(): AsyncGenerator<StreamEvent> {
      yield { type: "reasoning", delta: "hmm" };
      yield { type: "text", delta: "Par" };
      throw Object.assign(new Error("boom"), { code: "stream" });
    }
    const response = await eventStreamResponse(failing());
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).not.toContain("hmm");
    expect(body).toContain('"delta":"Par"');
    expect(body).toContain("event: error");
  });

  it("a long run of reasoning held back does not hold up the events after it", async () => {
    const many: StreamEvent[] = Array.from({ length: 5000 }, () => ({ type: "reasoning", delta: "x" }));
    const seen = await collect(readEventStream(await eventStreamResponse(events([...many, ...run.slice(5)]))));
    expect(seen.map((e) => e.type)).toEqual(["text", "done"]);
  });
});
