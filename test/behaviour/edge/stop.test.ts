// Stop from anywhere: POST { runId, stop: true } ends a running exchange at its next boundary — from the
// isolate running it or from another one sharing the storage — as `incomplete` with `limit: "aborted"`,
// the streamed text kept and running tools' signals aborted; a stopped resume of a halted run can be resumed.
import { describe, expect, it } from "vitest";
import { answerOutput, memoryStorage, type StreamEvent } from "toolnexus";
import { frames, gate, isolate, provider, textOf, tools } from "../../support/edge-streams";

const encoder = new TextEncoder();
const sse = (delta: Record<string, unknown>, finish: string | null = null) =>
  encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);

/**
 * A model behind a transport that ignores the abort signal (a proxy, an injected fetch): it streams each
 * token only when the test releases it, and streams on to its end whatever happens to the request.
 */
function deafProvider(tokens: string[]) {
  const chunks = [...tokens.map((content) => sse({ content })), sse({}, "stop"), encoder.encode("data: [DONE]\n\n")];
  const released: (() => void)[] = [];
  const held = chunks.map(() => new Promise<void>((resolve) => released.push(resolve)));
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      await held[at];
      c.enqueue(chunks[at++]!);
      if (at === chunks.length) c.close();
    },
  });
  const fetch = (async () =>
    new Response(body, { headers: { "content-type": "text/event-stream" } })) as typeof globalThis.fetch;
  return {
    fetch,
    calls: () => 1,
    release: (n: number) => released[n]?.(),
    releaseAll: () => released.forEach((r) => r()),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

const lookSlowly = () =>
  provider([{ tokens: ["Let ", "me ", "look."], calls: [{ id: "c1", name: "slow" }] }, { tokens: ["never"] }]);

async function untilSlowRuns(seen: { slowStarted: number }) {
  while (seen.slowStarted === 0) await tick();
}

describe("stop", () => {
  for (const where of ["the same isolate", "another isolate"] as const) {
    it(`from ${where} while a slow tool runs: its signal aborts, the run is incomplete (aborted), the text kept`, async () => {
      const storage = memoryStorage();
      const kit = tools();
      const a = isolate(storage, lookSlowly(), kit.list);
      const b = where === "the same isolate" ? a : isolate(storage, provider([]), tools().list);
      const res = await a.post({ prompt: "look" });
      const runId = res.headers.get("toolnexus-run-id")!;
      const reading = frames(res).rest();
      await untilSlowRuns(kit.seen);
      const stopped = await b.post({ runId, stop: true });
      expect(stopped.status).toBe(202);
      const events = await reading;
      const done = events.at(-1)!.event;
      expect(done).toMatchObject({
        type: "done",
        result: { status: "incomplete", limit: "aborted", text: "Let me look." },
      });
      expect(textOf(events)).toBe("Let me look.");
      expect(kit.seen.slowAborted).toBe(1);
      // the log has the same end: a page re-attaching now reads the stop too
      const replay = await frames(await b.get({ runId, after: "1:0" })).rest();
      expect(replay).toEqual(events);
    });
  }

  it("a model whose transport ignores the abort signal: the stop ends the turn at its next chunk, nothing after it is shown", async () => {
    const model = deafProvider(["Let ", "me ", "look."]);
    const a = isolate(memoryStorage(), model, tools().list);
    model.release(0); // the response starts with the first event
    const res = await a.post({ prompt: "look" });
    const runId = res.headers.get("toolnexus-run-id")!;
    const reading = frames(res);
    const before: { event: StreamEvent }[] = [];
    for (let f = await reading.next(); f; f = await reading.next()) {
      before.push(f);
      if (f.event.type === "text") break;
    }
    expect(textOf(before)).toBe("Let ");
    expect((await a.post({ runId, stop: true })).status).toBe(202);
    model.releaseAll(); // the transport streams on to its end
    const after = await reading.rest();
    expect(textOf(after)).toBe("");
    expect(after.at(-1)!.event).toMatchObject({
      type: "done",
      result: { status: "incomplete", limit: "aborted", text: "Let " },
    });
  });

  it("an exchange that is not streaming: 409 naming only the run asked about; an unknown run: 404", async () => {
    const a = isolate(memoryStorage(), provider([{ tokens: ["Hi."] }]), tools().list);
    const res = await a.post({ prompt: "hi" });
    const runId = res.headers.get("toolnexus-run-id")!;
    await frames(res).rest();
    const late = await a.post({ runId, stop: true });
    expect(late.status).toBe(409);
    const body = (await late.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("run_conflict");
    expect(body.error.message).toContain(runId);
    expect((await a.post({ runId: "run-unknown-0000", stop: true })).status).toBe(404);
  });

  it("a stopped resume of a halted run can be resumed again: it finishes, the answered tool ran once", async () => {
    const storage = memoryStorage();
    const held = gate();
    const kit = tools();
    const model = provider([
      { tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] },
      { tokens: ["Lima ", "is ", "nice"], gateAt: 1, gate: held.promise }, // the stopped turn
      { tokens: ["Lima ", "it ", "is."] },
    ]);
    const a = isolate(storage, model, kit.list);
    const b = isolate(storage, provider([]), tools().list);
    const first = await frames(await a.post({ prompt: "city?" })).rest();
    const halted = first.at(-1)!.event as { result: { status: string; runId: string; pending: { id: string } } };
    expect(halted.result.status).toBe("pending");
    const { runId } = halted.result;
    const answer = answerOutput(halted.result.pending.id, "Lima");
    const resumed = frames(await a.post({ runId, answer }));
    expect((await resumed.next())!.id).toBe("2:1"); // the run's second exchange
    while (model.calls() < 2) await tick();
    expect((await b.post({ runId, stop: true })).status).toBe(202);
    const stopped = await resumed.rest();
    expect(stopped.at(-1)!.event).toMatchObject({ type: "done", result: { status: "incomplete", limit: "aborted" } });
    const again = await frames(await a.post({ runId, answer })).rest();
    expect(again.at(-1)!.event).toMatchObject({ type: "done", result: { status: "done", text: "Lima it is." } });
    expect(kit.seen.asked).toEqual(["Lima"]);
  });
});
