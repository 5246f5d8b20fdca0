// Who may touch a run: with createRunHandler({ owner }), a stranger's resume, inspect, stop and replay of a
// run are each answered with exactly the bytes an unknown run gets (status, headers, body), the run goes on
// untouched for its owner, conversations are per owner, and no refusal names a run the caller did not send.
import { describe, expect, it } from "vitest";
import { answerOutput, memoryStorage, type RunStorage } from "toolnexus";
import { frames, gate, isolate, provider, tools } from "../../support/edge-streams";

const owner = (request: Request) => request.headers.get("x-user");

function world(turns: Parameters<typeof provider>[0], storage: RunStorage = memoryStorage()) {
  const kit = tools();
  const edge = isolate(storage, provider(turns), kit.list, { owner });
  const as = (user: string | undefined) => (user ? { "x-user": user } : ({} as Record<string, string>));
  return {
    kit,
    post: (user: string | undefined, body: unknown) => edge.post(body, as(user)),
    get: (user: string | undefined, query: Record<string, string>) => edge.get(query, as(user)),
  };
}

/** What a response is, byte for byte: its status, its headers and its body. */
async function bytes(res: Response) {
  return { status: res.status, headers: [...res.headers.entries()], body: await res.text() };
}

const askCity = { tokens: ["Asking."], calls: [{ id: "c1", name: "ask_city" }] };

describe("createRunHandler({ owner })", () => {
  it("a stranger's resume, inspect and replay each get the unknown run's 404, byte for byte; the owner's run goes on", async () => {
    const w = world([askCity, { tokens: ["Lima ", "it ", "is."] }]);
    const nobody = world([]); // a deployment where the run does not exist: what an unknown run gets
    const halted = (await frames(await w.post("alice", { prompt: "city?" })).rest()).at(-1)!.event as {
      result: { runId: string; pending: { id: string } };
    };
    const { runId, pending } = halted.result;
    const answer = answerOutput(pending.id, "Lima");
    for (const stranger of ["bob", undefined]) {
      expect(await bytes(await w.post(stranger, { runId, answer }))).toEqual(
        await bytes(await nobody.post(stranger, { runId, answer })),
      );
      expect(await bytes(await w.get(stranger, { runId }))).toEqual(await bytes(await nobody.get(stranger, { runId })));
      const replay = { runId, after: "1:0" };
      expect(await bytes(await w.get(stranger, replay))).toEqual(await bytes(await nobody.get(stranger, replay)));
    }
    expect((await w.get("bob", { runId })).status).toBe(404);
    expect(w.kit.seen.asked).toEqual([]); // nothing ran for the strangers
    const inspected = (await (await w.get("alice", { runId })).json()) as { status: string };
    expect(inspected.status).toBe("pending");
    const own = await frames(await w.get("alice", { runId, after: "1:0" })).rest(); // the owner's own replay
    expect(own.at(-1)!.event).toMatchObject({ type: "done", result: { status: "pending", runId } });
    const done = (await frames(await w.post("alice", { runId, answer })).rest()).at(-1)!.event;
    expect(done).toMatchObject({ type: "done", result: { status: "done", text: "Lima it is." } });
    expect(w.kit.seen.asked).toEqual(["Lima"]);
  });

  it("a stranger's stop of a running exchange is the unknown run's 404, and the exchange goes on", async () => {
    const held = gate();
    const w = world([{ tokens: ["one ", "two ", "three"], gateAt: 1, gate: held.promise }]);
    const nobody = world([]);
    const res = await w.post("alice", { prompt: "count" });
    const runId = res.headers.get("toolnexus-run-id")!;
    const reading = frames(res).rest();
    const stop = { runId, stop: true };
    expect(await bytes(await w.post("bob", stop))).toEqual(await bytes(await nobody.post("bob", stop)));
    held.open();
    const events = await reading;
    expect(events.at(-1)!.event).toMatchObject({ type: "done", result: { status: "done", text: "one two three" } });
  });

  it("conversations are per owner, and a refused prompt names no run", async () => {
    const held = gate();
    const w = world([
      askCity, // alice's c1 waits on a question
      { tokens: ["Hello ", "Bob."] }, // bob's c1 is his own
      { tokens: ["slow ", "one"], gateAt: 1, gate: held.promise }, // alice's c2, held
    ]);
    const conversation = (id: string, prompt: string) => ({ prompt, conversationId: id });
    const halted = await frames(await w.post("alice", conversation("c1", "city?"))).rest();
    const runId = (halted.at(-1)!.event as { result: { runId: string } }).result.runId;
    const waiting = await w.post("alice", conversation("c1", "again"));
    expect(waiting.status).toBe(409);
    const waitingBody = await waiting.text();
    expect(waitingBody).toContain("the conversation waits on an open question");
    expect(waitingBody).not.toContain(runId);
    expect(waitingBody).not.toContain("run-");
    const bobs = await frames(await w.post("bob", conversation("c1", "hi"))).rest();
    expect(bobs.at(-1)!.event).toMatchObject({ type: "done", result: { status: "done", text: "Hello Bob." } });
    const running = await w.post("alice", conversation("c2", "slow"));
    const busy = await w.post("alice", conversation("c2", "me too"));
    expect(busy.status).toBe(409);
    const busyBody = await busy.text();
    expect(busyBody).toContain("the conversation is busy");
    expect(busyBody).not.toContain(running.headers.get("toolnexus-run-id")!);
    expect(busyBody).not.toContain("run-");
    held.open();
    await frames(running).rest();
  });

  it("an owner function that returns something else is a config error, and nothing runs", async () => {
    const kit = tools();
    const model = provider([{ tokens: ["never"] }]);
    const edge = isolate(memoryStorage(), model, kit.list, { owner: () => 42 as unknown as string });
    const res = await edge.post({ prompt: "hi" });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("config");
    expect(model.calls()).toBe(0);
  });
});
