// An "always allow" can be taken back: listApprovals / revokeApprovals list and withdraw remembered approvals per
// conversation and per owner, through the scoping createRunHandler({ owner }) gives a signed-in user's
// conversations, and client.forget(id, { owner }) discards that user's conversation with its approvals. After a
// revoke, the gated tool asks again.
import { describe, expect, it } from "vitest";
import {
  answerApproval,
  ConfigError,
  createInProcessClient,
  createRunHandler,
  defineTool,
  listApprovals,
  memoryStorage,
  readEventStream,
  revokeApprovals,
  type GenerateRequest,
  type RunResult,
} from "toolnexus";

function world() {
  const ran: string[] = [];
  const seen: number[] = []; // how many user messages each model call saw
  const deploy = defineTool({
    name: "deploy",
    description: "Deploys",
    needsApproval: true,
    execute: () => (ran.push("deploy"), "deployed"),
  });
  const generate = ({ messages }: GenerateRequest) => {
    const list = messages as { role: string }[];
    seen.push(list.filter((m) => m.role === "user").length);
    return list.at(-1)?.role === "tool"
      ? { content: "Deployed." }
      : { toolCalls: [{ id: "call_1", name: "deploy", arguments: {} }] };
  };
  const client = createInProcessClient({ model: "m", generate, storage: memoryStorage() });
  const handler = createRunHandler({ client, toolkit: [deploy], owner: (r) => r.headers.get("x-user") });
  /** Posts `body` as `user` and reads the stream to its done result; a refusal is its status. */
  async function post(user: string, body: unknown): Promise<RunResult | number> {
    const headers = { "content-type": "application/json", "x-user": user };
    const res = await handler(
      new Request("http://edge.test/api/run", { method: "POST", headers, body: JSON.stringify(body) }),
    );
    if (!res.ok) return res.status;
    let result: RunResult | undefined;
    for await (const event of readEventStream(res)) if (event.type === "done") result = event.result;
    return result!;
  }
  /** A prompt in `conversationId`, approved with `remember` when it asks; resolves whether it asked. */
  async function ship(user: string, conversationId: string, remember?: "conversation" | "owner") {
    const result = await post(user, { prompt: "ship", conversationId });
    if (typeof result === "number") throw new Error(`refused: ${result}`);
    if (result.status !== "pending") return "ran without asking";
    const answer = answerApproval(result.pending.id, remember ? { remember } : {});
    await post(user, { runId: result.runId, answer });
    return "asked";
  }
  return { ran, seen, client, post, ship };
}

describe("withdrawing remembered approvals", () => {
  it("a conversation's always-allow, listed and revoked through the owner's scoping: the tool asks again", async () => {
    const w = world();
    expect(await w.ship("alice", "c1", "conversation")).toBe("asked");
    expect(await w.ship("alice", "c1")).toBe("ran without asking");
    const where = { conversationId: "c1", owner: "alice" };
    expect(await listApprovals(w.client, where)).toEqual([{ scope: "conversation", tool: "deploy", args: "any" }]);
    expect(await listApprovals(w.client, { conversationId: "c1" })).toEqual([]); // not an anonymous c1's
    expect(await listApprovals(w.client, { conversationId: "c1", owner: "bob" })).toEqual([]);
    expect(await revokeApprovals(w.client, where)).toBe(1);
    expect(await listApprovals(w.client, where)).toEqual([]);
    expect(await w.ship("alice", "c1")).toBe("asked");
    expect(w.ran).toEqual(["deploy", "deploy", "deploy"]);
  });

  it("an owner's always-allow, revoked for one tool: every conversation of hers asks again", async () => {
    const w = world();
    expect(await w.ship("alice", "c1", "owner")).toBe("asked");
    expect(await w.ship("alice", "c2")).toBe("ran without asking");
    expect(await listApprovals(w.client, { owner: "alice" })).toEqual([
      { scope: "owner", tool: "deploy", args: "any" },
    ]);
    expect(await listApprovals(w.client, { owner: "bob" })).toEqual([]);
    expect(await revokeApprovals(w.client, { owner: "alice", tool: "other" })).toBe(0);
    expect(await w.ship("alice", "c3")).toBe("ran without asking");
    expect(await revokeApprovals(w.client, { owner: "alice", tool: "deploy" })).toBe(1);
    expect(await w.ship("alice", "c4")).toBe("asked");
  });

  it("forget(id, { owner }) discards the signed-in user's conversation, its history and its approvals", async () => {
    const w = world();
    expect(await w.ship("alice", "c1", "conversation")).toBe("asked");
    const open = await w.post("alice", { prompt: "ship", conversationId: "c1" });
    expect(open).toMatchObject({ status: "done" }); // remembered: it ran
    await w.client.forget("c1", { owner: "alice" });
    const before = w.seen.length;
    expect(await w.ship("alice", "c1")).toBe("asked");
    expect(w.seen[before]).toBe(1); // the model saw no earlier prompt of hers
  });

  it("a place named by nothing, or a bad field, is a ConfigError and changes nothing", async () => {
    const w = world();
    expect(await w.ship("alice", "c1", "owner")).toBe("asked");
    for (const where of [{}, { owner: "" }, { owner: "alice", scope: "all" }, { conversationId: 7 }]) {
      const error = await revokeApprovals(w.client, where as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
    }
    expect(await w.ship("alice", "c2")).toBe("ran without asking");
  });
});
