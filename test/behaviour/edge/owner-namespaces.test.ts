// Anonymous callers and signed-in owners live in disjoint namespaces at createRunHandler({ owner }): whatever
// spelling of a signed-in user's conversation id an anonymous caller sends (the raw id, the scoped id it is
// stored under, variants), the model never sees her history, her "always allow" does not let a gated tool run
// without asking, a question the caller leaves open does not lock her conversation, and her transcript does
// not gain the caller's exchange. Her runs are unknown runs to the anonymous caller.
import { describe, expect, it } from "vitest";
import {
  answerApproval,
  answerOutput,
  createInProcessClient,
  createRunHandler,
  defineTool,
  memoryStorage,
  pending,
  readEventStream,
  type GenerateRequest,
  type RunResult,
} from "toolnexus";

type Message = { role: string; content?: unknown };

function world() {
  const ran: string[] = [];
  const seen: string[][] = []; // the user messages of every model call
  const deploy = defineTool({
    name: "deploy",
    description: "Deploys",
    needsApproval: true,
    execute: () => (ran.push("deploy"), "deployed"),
  });
  const askCity = defineTool({
    name: "ask_city",
    description: "asks which city",
    execute: (_args, ctx) => (ctx.answer ? "city" : pending({ kind: "question", prompt: "Which city?" })),
  });
  const generate = ({ messages }: GenerateRequest) => {
    const list = messages as Message[];
    seen.push(list.filter((m) => m.role === "user").map((m) => String(m.content)));
    const last = list.at(-1)!;
    if (last.role === "tool") return { content: "Done." };
    const prompt = String(last.content);
    if (prompt.includes("ship")) return { toolCalls: [{ id: "call_d", name: "deploy", arguments: {} }] };
    if (prompt.includes("city")) return { toolCalls: [{ id: "call_c", name: "ask_city", arguments: {} }] };
    return { content: `You said: ${prompt}` };
  };
  const client = createInProcessClient({ model: "m", generate, storage: memoryStorage() });
  const handler = createRunHandler({ client, toolkit: [deploy, askCity], owner: (r) => r.headers.get("x-user") });
  const send = async (user: string | undefined, body: unknown) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...(user ? { "x-user": user } : {}) };
    return handler(new Request("http://edge.test/api/run", { method: "POST", headers, body: JSON.stringify(body) }));
  };
  /** Posts `body` and reads the stream to its done result (a refusal: its status and error code). */
  async function post(user: string | undefined, body: unknown): Promise<RunResult | { refused: number }> {
    const res = await send(user, body);
    if (!res.ok) return { refused: res.status };
    let result: RunResult | undefined;
    for await (const event of readEventStream(res)) if (event.type === "done") result = event.result;
    return result!;
  }
  const get = (user: string | undefined, runId: string) =>
    handler(new Request(`http://edge.test/api/run?runId=${runId}`, { headers: user ? { "x-user": user } : {} }));
  return { ran, seen, send, post, get };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("createRunHandler({ owner }): anonymous callers and owners", () => {
  it("no spelling of a signed-in user's conversation id takes an anonymous caller into it", async () => {
    const w = world();
    const halted = await w.post("alice", { prompt: "ship ALICE-SECRET-HISTORY", conversationId: "c1" });
    if (!("status" in halted) || halted.status !== "pending") throw new Error("expected an approval");
    const approved = await w.post("alice", {
      runId: halted.runId,
      answer: answerApproval(halted.pending.id, { remember: "conversation" }),
    });
    expect(approved).toMatchObject({ status: "done" });
    expect(w.ran).toEqual(["deploy"]);
    const hash = await sha256Hex("alice");
    const scoped = `owner-${hash.slice(0, 32)}:c1`;
    const spellings = [
      "c1",
      scoped,
      `anon:${scoped}`,
      `owner-${hash.slice(0, 32).toUpperCase()}:c1`,
      `owner-${hash}:c1`,
      `Owner-${hash.slice(0, 32)}:c1`,
      `${scoped} `,
    ];
    const before = w.seen.length;
    for (const conversationId of spellings) {
      // the gated tool asks the attacker (it does not run on her "always allow"); a question is left open
      expect(await w.post(undefined, { prompt: "ship ATTACKER", conversationId })).toMatchObject({ status: "pending" });
      await w.post(undefined, { prompt: "city ATTACKER", conversationId });
    }
    expect(w.ran).toEqual(["deploy"]);
    expect(w.seen.slice(before).flat().join(" ")).not.toContain("ALICE");
    // her next prompt is hers: not refused, with her history and none of the attacker's
    const next = await w.post("alice", { prompt: "hello again", conversationId: "c1" });
    expect(next).toMatchObject({ status: "done", text: "You said: hello again" });
    expect(w.seen.at(-1)).toEqual(["ship ALICE-SECRET-HISTORY", "hello again"]);
  });

  it("an anonymous caller's resume, inspect and stop of a signed-in user's run are an unknown run's 404", async () => {
    const w = world();
    const halted = await w.post("alice", { prompt: "city?", conversationId: "c1" });
    if (!("status" in halted) || halted.status !== "pending") throw new Error("expected a question");
    const { runId } = halted;
    const answer = answerOutput(halted.pending.id, "Lima");
    expect(await w.post(undefined, { runId, answer })).toEqual({ refused: 404 });
    expect(await w.post(undefined, { runId, restore: true })).toEqual({ refused: 404 });
    expect(await w.post(undefined, { runId, stop: true })).toEqual({ refused: 404 });
    expect((await w.get(undefined, runId)).status).toBe(404);
    expect(await w.post("alice", { runId, answer })).toMatchObject({ status: "done" });
  });

  it("an anonymous caller keeps its own conversations, whatever their ids look like", async () => {
    const w = world();
    for (const conversationId of ["c1", "anon:c1", "owner-x:c1"]) {
      expect(await w.post(undefined, { prompt: `first ${conversationId}`, conversationId })).toMatchObject({
        status: "done",
      });
      await w.post(undefined, { prompt: "second", conversationId });
      expect(w.seen.at(-1)).toEqual([`first ${conversationId}`, "second"]);
    }
  });
});
