// createRunHandler({ client, agent }): the page talks to an agent as to a run. A question from below arrives
// as a `pending` event carrying the leaf's request (data.path names who asks) with its token; the page's
// answer — after a reload, through a fresh handler and client on the same storage — resumes the tree, once.
import { answerApproval, createRunHandler, type StreamEvent } from "toolnexus";
import { describe, expect, it } from "vitest";
import { doneOf, framesOf } from "../../support/edge";
import { clientOn, world } from "./support";

const secret = { resumeSecret: "a-secret-of-at-least-32-characters!!" };

describe("createRunHandler with an agent", () => {
  it("the leaf's request reaches the page with data.path; a fresh handler's answer resumes the tree", async () => {
    const w = world();
    const handler = () =>
      createRunHandler({ client: clientOn(w.storage, w.counts, undefined, secret), agent: w.coordinator });
    const post = (body: unknown) =>
      handler()(
        new Request("https://edge.test/run", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const events = (await framesOf(await post({ prompt: "dinner on Friday" }))) as StreamEvent[];
    const asked = events.find((e) => e.type === "pending");
    expect(asked?.type === "pending" && asked.request.data?.path).toEqual([
      "root",
      "coordinator.1",
      "planner.1",
      "booker.1",
    ]);
    expect(asked?.type === "pending" && typeof asked.token).toBe("string");
    const halted = doneOf(events);
    expect(halted.status).toBe("pending");
    expect(w.counts.booked).toEqual([]);

    const answer = answerApproval(halted.pending.id);
    const done = doneOf(await framesOf(await post({ runId: halted.runId, answer, token: halted.token })));
    expect(done).toMatchObject({ status: "done", text: "coord: planned: booker: table booked for friday" });
    expect(w.counts.booked).toEqual(["friday"]);
  });

  it("a resume through the handler runs under the root agent's own hooks, onMetric and maxTurns", async () => {
    const toolsAfter: string[] = [];
    const metrics: string[] = [];
    const w = world({
      booker: {
        hooks: { afterTool: (info) => void toolsAfter.push(info.name) },
        onMetric: (event) => void metrics.push(event.event),
        budget: { maxTurns: 1 },
      },
    });
    const handler = createRunHandler({ client: clientOn(w.storage, w.counts, undefined, secret), agent: w.booker });
    const post = (body: unknown) =>
      handler(
        new Request("https://edge.test/run", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const halted = doneOf(await framesOf(await post({ prompt: "book Friday" })));
    expect(halted.status).toBe("pending");
    const metricsBefore = metrics.length;

    const answer = answerApproval(halted.pending.id);
    const done = doneOf(await framesOf(await post({ runId: halted.runId, answer, token: halted.token })));
    expect(w.counts.booked).toEqual(["friday"]);
    expect(toolsAfter).toEqual(["book_table"]);
    expect(metrics.length).toBeGreaterThan(metricsBefore);
    // the agent's maxTurns (1) holds on the resume too: the turn after the booking is not taken
    expect(done).toMatchObject({ status: "incomplete", limit: "maxTurns" });
  });

  it("an agent and a toolkit together are refused where they are passed", () => {
    const w = world();
    expect(() => createRunHandler({ client: clientOn(w.storage, w.counts), agent: w.planner, toolkit: [] })).toThrow(
      /agent must be given alone/,
    );
  });
});
