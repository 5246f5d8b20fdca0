// Resume tokens are credentials and are not kept at rest: the exchange log stores a halted exchange's
// `pending` events and its `done` without their tokens (the live page got them), and a replay of the log signs
// fresh ones — a page that re-attaches can answer with them.
import { describe, expect, it } from "vitest";
import { answerOutput, type StreamEvent } from "toolnexus";
import { edgeWorld, framesOf, RESUME_SECRET } from "../../support/edge";

type Pending = Extract<StreamEvent, { type: "pending" }> & { token?: string };

describe("resume tokens at rest", () => {
  it("no token is stored; a replay carries fresh ones, and the page answers with them", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const res = await w.post({ prompt: "which city?" });
    const runId = res.headers.get("toolnexus-run-id")!;
    const live = await framesOf(res);
    const pending = live.find((e) => e.type === "pending") as Pending;
    const done = live.at(-1) as Extract<StreamEvent, { type: "done" }>;
    expect(pending.token).toMatch(/\S{20}/);
    const issued = [pending.token!, (done.result as { token?: string }).token!];
    expect(issued[1]).toMatch(/\S{20}/);
    for (const value of w.storage.written) for (const token of issued) expect(value).not.toContain(token);

    const replayed = await framesOf(await w.handler(new Request(`http://edge.test/api/run?runId=${runId}&after=1:0`)));
    const again = replayed.find((e) => e.type === "pending") as Pending;
    expect(again.request.id).toBe(pending.request.id);
    expect(again.token).toMatch(/\S{20}/);
    expect(replayed.at(-1)).toMatchObject({ type: "done", result: { status: "pending", token: expect.any(String) } });

    const answered = await framesOf(
      await w.post({ runId, answer: answerOutput(pending.request.id, "Lima"), token: again.token }),
    );
    expect(answered.at(-1)).toMatchObject({ type: "done", result: { status: "done" } });
    expect(w.executions).toEqual(["ask_city:Lima"]);
    for (const value of w.storage.written) expect(value).not.toContain(again.token!);
  });
});
