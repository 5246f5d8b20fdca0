// Remembered approvals at the edge: createRunHandler({ owner }) gives each run its caller's owner, so an
// approval remembered with remember: "owner" holds in that user's other conversations and never for another user.
import { describe, expect, it } from "vitest";
import { answerApproval, readEventStream, type RunResult } from "toolnexus";
import { deployWorld } from "../../support/edge";

/** The deploy endpoint with each run stamped with its caller's x-user header as its owner. */
function world() {
  const { ran, handler } = deployWorld({ owner: (r) => r.headers.get("x-user") });
  /** Posts `body` as `user` and reads the stream to its done result. */
  async function post(user: string, body: unknown): Promise<RunResult> {
    const headers = { "content-type": "application/json", "x-user": user };
    const res = await handler(
      new Request("http://edge.test/api/run", { method: "POST", headers, body: JSON.stringify(body) }),
    );
    let result: RunResult | undefined;
    for await (const event of readEventStream(res)) if (event.type === "done") result = event.result;
    return result!;
  }
  return { ran, post };
}

describe("remembered approvals through createRunHandler({ owner })", () => {
  it('remember: "owner" holds in the same user\'s other conversations, never for another user', async () => {
    const w = world();
    const halted = await w.post("alice", { prompt: "ship", conversationId: "c1" });
    if (halted.status !== "pending") throw new Error("expected an approval");
    const done = await w.post("alice", {
      runId: halted.runId,
      answer: answerApproval(halted.pending.id, { remember: "owner" }),
    });
    expect(done.status).toBe("done");
    expect((await w.post("alice", { prompt: "ship", conversationId: "c2" })).status).toBe("done");
    expect((await w.post("bob", { prompt: "ship", conversationId: "c1" })).status).toBe("pending");
    expect(w.ran).toEqual(["deploy", "deploy"]);
  });
});
