// Remembered approvals: answerApproval(id, { remember }) lets the next calls of that tool in that scope run
// without asking — the conversation (a bare run: that run alone) or the run's owner — optionally only with
// the same arguments; forget(conversationId) clears it; it never crosses conversations or owners.
import { describe, expect, it } from "vitest";
import {
  answerApproval,
  ConfigError,
  createInProcessClient,
  defineTool,
  InvalidAnswerError,
  memoryStorage,
  parseAnswer,
  pending,
  type Answer,
  type GenerateRequest,
  type PendingRequest,
  type RunResult,
} from "toolnexus";

type Message = { role: string; content?: unknown };

/**
 * The model: "<tool> <env>" calls the tool once; "<tool> <env>,<env>" calls it for each in one turn;
 * "<tool> <env> twice" calls it again after the first result.
 */
function generate({ messages }: GenerateRequest) {
  const list = messages as Message[];
  const prompt = String([...list].reverse().find((m) => m.role === "user")?.content ?? "");
  const [name = "deploy", envs = "prod"] = prompt.split(" ");
  const from = list.map((m) => m.role).lastIndexOf("user");
  const results = list.slice(from).filter((m) => m.role === "tool").length;
  if (prompt.endsWith("twice") ? results < 2 : results === 0)
    return {
      toolCalls: envs.split(",").map((env, i) => ({ id: `call_${results}_${i}`, name, arguments: { env } })),
    };
  return { content: `done after ${results}` };
}

function world(waitFor?: (r: PendingRequest) => Promise<Answer>) {
  const ran: string[] = [];
  const storage = memoryStorage();
  const deploy = defineTool({
    name: "deploy",
    description: "Deploys a build",
    inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
    needsApproval: true,
    execute: (args) => {
      ran.push(String(args.env));
      return `deployed to ${String(args.env)}`;
    },
  });
  // a tool that asks for its own approval (not needsApproval): it decides what an answer means, every time
  const book = defineTool({
    name: "book",
    description: "Books a table",
    execute: (args, ctx) => {
      if (!ctx.answer) return pending({ kind: "approval", prompt: "Book it?", data: { what: args.env } });
      ran.push(`book:${String(args.env)}`);
      return "booked";
    },
  });
  const drop = defineTool({
    name: "drop",
    description: "Drops a database",
    needsApproval: true,
    execute: (args) => {
      ran.push(`drop:${String(args.env)}`);
      return "dropped";
    },
  });
  // a second process over the same storage: what it remembers is only what the storage holds
  const fresh = () => createInProcessClient({ model: "m", generate, storage, ...(waitFor ? { waitFor } : {}) });
  let client = fresh();
  const toolkit = [deploy, book, drop];
  /** Runs `prompt`; a halt on an approval is answered with `answer(id)` (resumed with the same owner). */
  async function ask(
    prompt: string,
    opts: { conversationId?: string; owner?: string } = {},
    answer: (id: string) => Answer = (id) => answerApproval(id),
  ): Promise<{ asked: number; result: RunResult }> {
    let result = await client.run(prompt, { toolkit, ...opts });
    let asked = 0;
    while (result.status === "pending") {
      asked++;
      const owner = opts.owner === undefined ? {} : { owner: opts.owner };
      result = await client.resume(result.runId, answer(result.pending.id), { toolkit, ...owner });
    }
    return { asked, result };
  }
  return {
    get client() {
      return client;
    },
    restart: () => void (client = fresh()),
    ran,
    storage,
    toolkit,
    ask,
  };
}

const remember =
  (scope: "conversation" | "owner", sameArgs = false) =>
  (id: string) =>
    answerApproval(id, { remember: scope, sameArgs });

describe("answerApproval", () => {
  it("is an ok answer carrying the choice, unchanged through JSON and parseAnswer", () => {
    const plain = answerApproval("approval-1");
    expect(plain).toEqual({ id: "approval-1", ok: true, data: { approved: true } });
    const kept = answerApproval("approval-1", { remember: "owner", sameArgs: true });
    expect(kept).toEqual({ id: "approval-1", ok: true, data: { approved: true, remember: "owner", sameArgs: true } });
    expect(parseAnswer(JSON.parse(JSON.stringify(kept)))).toEqual(kept);
  });

  it("refuses a scope it does not know and a sameArgs that is not a boolean; sameArgs alone is unused", () => {
    expect(() => answerApproval("a", { remember: "forever" as "owner" })).toThrow(ConfigError);
    expect(() => answerApproval("a", { remember: "forever" as "owner" })).toThrow(/"remember" must be/);
    expect(() => answerApproval("a", { remember: "owner", sameArgs: "yes" as unknown as boolean })).toThrow(
      /"sameArgs" must be a boolean/,
    );
    expect(answerApproval("a", { sameArgs: true })).toEqual({ id: "a", ok: true, data: { approved: true } });
    expect(() => answerApproval("", {})).toThrow(/id is required/);
  });

  it("parseAnswer names a bad remember or sameArgs", () => {
    const bad = (data: unknown) => () => parseAnswer({ id: "a", ok: true, data });
    expect(bad({ remember: "always" })).toThrow(InvalidAnswerError);
    expect(bad({ remember: "always" })).toThrow(/data\.remember/);
    expect(bad({ remember: "owner", sameArgs: 1 })).toThrow(/data\.sameArgs/);
    expect(parseAnswer({ id: "a", ok: true, data: { output: "x" } })).toEqual({
      id: "a",
      ok: true,
      data: { output: "x" },
    });
  });
});

describe("remembered approvals", () => {
  it("a plain approval asks again next time", async () => {
    const w = world();
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(1);
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(1);
    expect(w.ran).toEqual(["prod", "prod"]);
  });

  it('remember: "conversation" — the next call in that conversation runs without asking, in no other', async () => {
    const w = world();
    const first = await w.ask("deploy prod", { conversationId: "c1" }, remember("conversation"));
    expect(first.asked).toBe(1);
    const again = await w.ask("deploy staging", { conversationId: "c1" });
    expect(again.asked).toBe(0);
    expect(again.result.status).toBe("done");
    expect((await w.ask("deploy prod", { conversationId: "c2" })).asked).toBe(1);
    expect((await w.ask("deploy prod")).asked).toBe(1); // a bare run is in no conversation
    expect(w.ran).toEqual(["prod", "staging", "prod", "prod"]);
  });

  it("holds in another process over the same storage, and for that tool alone", async () => {
    const w = world();
    await w.ask("deploy prod", { conversationId: "c1", owner: "alice" }, remember("conversation"));
    await w.ask("deploy prod", { conversationId: "c9", owner: "alice" }, remember("owner"));
    w.restart();
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(0);
    expect((await w.ask("deploy prod", { conversationId: "c2", owner: "alice" })).asked).toBe(0);
    expect((await w.ask("drop prod", { conversationId: "c1", owner: "alice" })).asked).toBe(1);
    expect(w.ran).toEqual(["prod", "prod", "prod", "prod", "drop:prod"]);
  });

  it("sameArgs: only a call with the same arguments runs without asking", async () => {
    const w = world();
    await w.ask("deploy prod", { conversationId: "c1" }, remember("conversation", true));
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(0);
    expect((await w.ask("deploy staging", { conversationId: "c1" })).asked).toBe(1);
    expect(w.ran).toEqual(["prod", "prod", "staging"]);
  });

  it("forget(conversationId) clears what the conversation remembered", async () => {
    const w = world();
    await w.ask("deploy prod", { conversationId: "c1" }, remember("conversation"));
    await w.client.forget("c1");
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(1);
  });

  it('remember: "owner" — holds across the owner\'s conversations, never for another owner or none', async () => {
    const w = world();
    await w.ask("deploy prod", { conversationId: "c1", owner: "alice" }, remember("owner"));
    expect((await w.ask("deploy prod", { conversationId: "c2", owner: "alice" })).asked).toBe(0);
    expect((await w.ask("deploy prod", { owner: "alice" })).asked).toBe(0);
    expect((await w.ask("deploy prod", { conversationId: "c2", owner: "bob" })).asked).toBe(1);
    expect((await w.ask("deploy prod", { conversationId: "c3" })).asked).toBe(1);
    await w.client.forget("c1"); // the owner's approval is not the conversation's
    expect((await w.ask("deploy prod", { conversationId: "c4", owner: "alice" })).asked).toBe(0);
  });

  it('without an owner, "owner" is remembered for the conversation alone', async () => {
    const w = world();
    await w.ask("deploy prod", { conversationId: "c1" }, remember("owner"));
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(0);
    expect((await w.ask("deploy prod", { conversationId: "c2", owner: "alice" })).asked).toBe(1);
  });

  it('a bare run: remember "conversation" holds for that run alone', async () => {
    const w = world();
    const twice = await w.ask("deploy prod twice", {}, remember("conversation"));
    expect(twice.asked).toBe(1); // the second call of the same run ran without asking
    expect(twice.result.status).toBe("done");
    expect(w.ran).toEqual(["prod", "prod"]);
    expect((await w.ask("deploy prod")).asked).toBe(1);
  });

  it("inline (waitFor): the remembered approval skips the next ask", async () => {
    const asked: PendingRequest[] = [];
    const w = world(async (r) => {
      asked.push(r);
      return answerApproval(r.id, { remember: "conversation" });
    });
    const first = await w.client.run("deploy prod", { toolkit: w.toolkit, conversationId: "c1" });
    const second = await w.client.run("deploy staging", { toolkit: w.toolkit, conversationId: "c1" });
    expect([first.status, second.status]).toEqual(["done", "done"]);
    expect(asked).toHaveLength(1);
    expect(w.ran).toEqual(["prod", "staging"]);
    await w.client.run("deploy prod", { toolkit: w.toolkit, conversationId: "c2" });
    expect(asked).toHaveLength(2);
  });

  it("several calls of one turn, each always allowed with its arguments: every one is remembered", async () => {
    const w = world();
    const first = await w.ask("deploy prod,staging,dev", { conversationId: "c1" }, remember("conversation", true));
    expect(first.asked).toBe(3);
    expect((await w.ask("deploy dev,prod,staging", { conversationId: "c1" })).asked).toBe(0);
    expect((await w.ask("deploy qa", { conversationId: "c1" })).asked).toBe(1);
  });

  it("a declined answer that carries remember remembers nothing, and the tool does not run", async () => {
    const w = world();
    const declined = (id: string): Answer => ({
      id,
      ok: false,
      reason: "declined",
      data: { remember: "conversation" },
    });
    await w.ask("deploy prod", { conversationId: "c1" }, declined);
    expect(w.ran).toEqual([]);
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(1);
  });

  it("a tool's own approval request is asked every time, even answered with remember", async () => {
    const w = world();
    expect((await w.ask("book table", { conversationId: "c1" }, remember("conversation"))).asked).toBe(1);
    expect((await w.ask("book table", { conversationId: "c1" }, remember("conversation"))).asked).toBe(1);
    expect(w.ran).toEqual(["book:table", "book:table"]);
  });

  it("a stored record that is not ours counts as nothing remembered, and a new approval replaces it", async () => {
    const w = world();
    await w.storage.set("approvals:conversation:c1", "{not json");
    expect((await w.ask("deploy prod", { conversationId: "c1" }, remember("conversation"))).asked).toBe(1);
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(0);
    await w.storage.set("approvals:conversation:c1", JSON.stringify({ v: 1, tools: { deploy: "yes" } }));
    expect((await w.ask("deploy prod", { conversationId: "c1" })).asked).toBe(1);
  });

  it("a resume whose answer has a bad remember is refused, and the run still waits for its approval", async () => {
    const w = world();
    const halted = await w.client.run("deploy prod", { toolkit: w.toolkit, conversationId: "c1" });
    if (halted.status !== "pending") throw new Error("expected the run to wait for its approval");
    const bad = { id: halted.pending.id, ok: true, data: { remember: "everyone" } };
    await expect(w.client.resume(halted.runId, bad, { toolkit: w.toolkit })).rejects.toThrow(InvalidAnswerError);
    expect(w.ran).toEqual([]);
    const done = await w.client.resume(halted.runId, answerApproval(halted.pending.id), { toolkit: w.toolkit });
    expect(done.status).toBe("done");
    expect(w.ran).toEqual(["prod"]);
  });

  it("an owner that is not a non-empty string is a ConfigError, and nothing runs", async () => {
    const w = world();
    await expect(w.client.run("deploy prod", { owner: "" })).rejects.toThrow(ConfigError);
    await expect(w.client.run("deploy prod", { owner: 7 as unknown as string })).rejects.toThrow(/owner/);
    expect(w.ran).toEqual([]);
  });
});
