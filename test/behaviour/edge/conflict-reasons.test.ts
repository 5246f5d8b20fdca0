// Which conflict a 409 is, as a typed `reason` — in the handler's body, in an `error` event, in the error
// readEventStream rebuilds on the page side, and in the RunConflictError the client throws: busy, waiting,
// claimed, answered, finished, changed. Code on either side branches on it, never on a message's words.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  type ConflictReason,
  memoryStorage,
  readEventStream,
  RunConflictError,
  type StreamEvent,
} from "toolnexus";
import { doneOf, edgeWorld, framesOf } from "../../support/edge";
import { frames, gate, isolate, provider, tools, type Turn } from "../../support/edge-streams";

const askCity: Turn = { tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] };

/** The error a promise rejects with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** A refused request as the page sees it: the 409 body, and the error readEventStream throws for it. */
async function refusal(res: Response) {
  expect(res.status).toBe(409);
  const body = (await res.clone().json()) as { error: { code: string; reason?: string; message: string } };
  const thrown = await rejection(drain(readEventStream(res)));
  return { body: body.error, thrown };
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function expectConflict(error: unknown, reason: ConflictReason): void {
  expect(error).toBeInstanceOf(RunConflictError);
  expect((error as RunConflictError).code).toBe("run_conflict");
  expect((error as RunConflictError).reason).toBe(reason);
}

describe("a conflict says which one it is: reason", () => {
  it("waiting: a prompt on a conversation that waits on an open question", async () => {
    const a = isolate(memoryStorage(), provider([askCity]), tools().list);
    await frames(await a.post({ prompt: "city?", conversationId: "c1" })).rest();
    const { body, thrown } = await refusal(await a.post({ prompt: "again", conversationId: "c1" }));
    expect(body).toMatchObject({ code: "run_conflict", reason: "waiting" });
    expectConflict(thrown, "waiting");
    expect((thrown as Error).message).toBe(body.message);
    expectConflict(await rejection(a.client.ask("again", { conversationId: "c1" })), "waiting");
  });

  it("busy: a prompt on a conversation that streams another exchange", async () => {
    const held = gate();
    const a = isolate(memoryStorage(), provider([{ tokens: ["slow ", "one"], gateAt: 1, gate: held.promise }]), []);
    const running = await a.post({ prompt: "slow", conversationId: "c2" });
    const { body, thrown } = await refusal(await a.post({ prompt: "me too", conversationId: "c2" }));
    expect(body).toMatchObject({ code: "run_conflict", reason: "busy" });
    expectConflict(thrown, "busy");
    expectConflict(await rejection(a.client.ask("me too", { conversationId: "c2" })), "busy");
    held.open();
    await frames(running).rest();
  });

  it("claimed: an answer while another resume holds the run", async () => {
    const held = gate();
    const kit = tools();
    const a = isolate(
      memoryStorage(),
      provider([askCity, { tokens: ["Done."], gateAt: 0, gate: held.promise }]),
      kit.list,
    );
    const halted = await frames(await a.post({ prompt: "city?" })).rest();
    const { runId, pending } = (halted.at(-1)!.event as { result: { runId: string; pending: { id: string } } }).result;
    const first = frames(await a.post({ runId, answer: answerOutput(pending.id, "Lima") }));
    await first.next(); // the first resume holds the run
    const { body, thrown } = await refusal(await a.post({ runId, answer: answerOutput(pending.id, "Oslo") }));
    expect(body).toMatchObject({ code: "run_conflict", reason: "claimed" });
    expectConflict(thrown, "claimed");
    expectConflict(await rejection(a.client.resume(runId, answerOutput(pending.id, "Oslo"))), "claimed");
    held.open();
    await first.rest();
    expect(kit.seen.asked).toEqual(["Lima"]);
  });

  it("answered: another answer to a request already answered (the run was left ready)", async () => {
    const w = edgeWorld({ failsAfterTool: 1 });
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    await framesOf(await w.post({ runId: halted.runId, answer: answerOutput(halted.pending.id, "Oslo") }));
    const other = answerOutput(halted.pending.id, "Lima");
    const { body, thrown } = await refusal(await w.post({ runId: halted.runId, answer: other }));
    expect(body).toMatchObject({ code: "run_conflict", reason: "answered" });
    expectConflict(thrown, "answered");
    expectConflict(await rejection(w.client.resume(halted.runId, other)), "answered");
    expect(w.executions).toEqual(["ask_city:Oslo"]);
  });

  it("finished: another answer to a run that is done, and a stop with nothing streaming", async () => {
    const w = edgeWorld();
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    await framesOf(await w.post({ runId: halted.runId, answer: answerOutput(halted.pending.id, "Oslo") }));
    const other = answerOutput(halted.pending.id, "Lima");
    const { body, thrown } = await refusal(await w.post({ runId: halted.runId, answer: other }));
    expect(body).toMatchObject({ code: "run_conflict", reason: "finished" });
    expectConflict(thrown, "finished");
    expectConflict(await rejection(w.client.resume(halted.runId, other)), "finished");
    const stop = await refusal(await w.post({ runId: halted.runId, stop: true }));
    expect(stop.body).toMatchObject({ code: "run_conflict", reason: "finished" });
    expectConflict(stop.thrown, "finished");
    expect(w.executions).toEqual(["ask_city:Oslo"]);
  });

  it("changed: a conversation forgotten while its exchange ran — an error event, and the error the page reads", async () => {
    const held = gate();
    const turns = [{ tokens: ["slow ", "one"], gateAt: 1, gate: held.promise }];
    const a = isolate(memoryStorage(), provider(turns), []);
    const res = await a.post({ prompt: "slow", conversationId: "c3" });
    const reading = drain(readEventStream(res.clone()));
    const events = frames(res).rest();
    await a.client.forget("c3");
    held.open();
    const last = (await events).at(-1)!.event;
    expect(last).toMatchObject({ type: "error", code: "run_conflict", reason: "changed" });
    expectConflict(await rejection(reading), "changed");
  });
});
