// The limit of a restore's looking again at a run another resume holds (POST { runId, restore: true }): once a
// second for a minute, then a 409. Here, not in the behavioural suite, because it needs fake timers (only
// setTimeout: the clock stays real, so the other resume's claim stays held), which Node's vitest has.
import { describe, expect, it, vi } from "vitest";
import { answerOutput } from "toolnexus";
import { doneOf, edgeWorld, framesOf } from "../support/edge";

async function errorOf(res: Response) {
  return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
}

describe("POST { runId, restore: true } of a run another resume holds", () => {
  it("a run another resume holds is looked at again once a second; after a minute of that, a 409", async () => {
    let release = () => {};
    const w = edgeWorld({ answered: new Promise<void>((resolve) => (release = resolve)) });
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    const { runId, requests } = halted as { runId: string; requests: { id: string }[] };
    const answering = w.post({ runId, answer: answerOutput(requests[0]!.id, "Rome") }); // held in its tool
    const status = async () => ((await (await w.get(runId)).json()) as { status: string }).status;
    while ((await status()) !== "running") await new Promise((resolve) => setTimeout(resolve, 5));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // the clock stays real: the claim stays held
    try {
      let settled = false;
      const restoring = w.post({ runId, restore: true }).finally(() => (settled = true));
      for (let second = 0; second < 59; second++) {
        await vi.advanceTimersByTimeAsync(1_000);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(settled).toBe(false); // still looking
      // a minute's polls, each a timer after a few storage reads: on a slow machine one may land a tick late
      for (let second = 0; second < 120 && !settled; second++) {
        await vi.advanceTimersByTimeAsync(1_000);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await errorOf(await restoring)).toEqual([409, "run_conflict"]);
    } finally {
      vi.useRealTimers();
    }
    release();
    expect(doneOf(await framesOf(await answering))).toMatchObject({ status: "done", text: "Done: city Rome" });
    expect(w.executions).toEqual(["ask_city:Rome"]);
  });
});
