// Questions that time out by themselves (semantics 8): the deadline a Request gets from its tool or the
// client's options, and a run whose deadline passed continuing as `answerDeclined(id, "expired")` on every
// read — `inspect` with a toolkit, `resume` — with a clock the test moves (nothing waits in real time).
import {
  AnswerMismatchError,
  answerApproval,
  answerOutput,
  ConfigError,
  createClient,
  defineTool,
  memoryStorage,
  pending,
  relayTool,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { approvalTool, askTool, clientOn, echoModel, fakeClock, T0 } from "../../support/deadlines";
import { asPending } from "../../support/results";
import { scripted } from "../../support/scripted";

const iso = (ms: number) => new Date(ms).toISOString();

describe("a Request's deadline", () => {
  it("approvalTimeoutSeconds stamps the approval; answerTimeoutSeconds every request; the earlier wins", async () => {
    const clock = fakeClock();
    const { tool } = approvalTool(60);
    const halted = asPending(
      await clientOn(clock, echoModel({ calls: [{ name: "book" }] }).fetch).run("book", { toolkit: [tool] }),
    );
    expect(halted.pending.expiresAt).toBe(iso(T0 + 60_000));

    const ask = askTool(clock);
    const s = echoModel({
      calls: [
        { name: "ask", args: { q: "A", in: 600 } },
        { name: "ask", args: { q: "B" } },
      ],
    });
    const client = clientOn(clock, s.fetch, { answerTimeoutSeconds: 120 });
    const both = asPending(await client.run("ask", { toolkit: [ask.tool] }));
    // A's own 600 s is later than the client's 120 s; B has none of its own
    expect(both.requests.map((r) => r.expiresAt)).toEqual([iso(T0 + 120_000), iso(T0 + 120_000)]);
    const sooner = echoModel({ calls: [{ name: "ask", args: { q: "C", in: 30 } }] });
    const own = asPending(
      await clientOn(clock, sooner.fetch, { answerTimeoutSeconds: 120 }).run("c", { toolkit: [ask.tool] }),
    );
    expect(own.pending.expiresAt).toBe(iso(T0 + 30_000));
  });

  it("a bad timeout, clock, onExpire or expiresAt is a ConfigError where it is passed, and nothing halts", async () => {
    const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "k" } as const;
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "60"])
      expect(() => createClient({ ...base, answerTimeoutSeconds: bad as number })).toThrow(ConfigError);
    expect(() => createClient({ ...base, clock: {} as never })).toThrow(ConfigError);
    const tool = { name: "t", description: "d", execute: () => "x" };
    expect(() => defineTool({ ...tool, needsApproval: true, approvalTimeoutSeconds: 0 })).toThrow(ConfigError);
    expect(() => defineTool({ ...tool, onExpire: "ignore" as never })).toThrow(ConfigError);
    expect(() => pending({ kind: "question", prompt: "p", expiresAt: "next tuesday" })).toThrow(ConfigError);

    const storage = memoryStorage();
    const asks = defineTool({
      ...tool,
      execute: () => pending({ kind: "question", prompt: "p", expiresAt: "next tuesday" }),
    });
    const s = echoModel({ calls: [{ name: "t" }] });
    const result = await createClient({ ...base, fetch: s.fetch, storage }).run("go", { toolkit: [asks] });
    expect(result.status).toBe("done"); // the tool's throw was an error result the model saw
    expect(result.text).toContain("expiresAt");
  });
});

describe("a run whose deadline passed continues on a read", () => {
  it("inspect without a toolkit only reports the deadline; with one it continues the run as expired", async () => {
    const clock = fakeClock();
    const { tool, state } = approvalTool(60);
    const s = echoModel({ calls: [{ name: "book" }] });
    const client = clientOn(clock, s.fetch);
    const halted = asPending(await client.run("book", { toolkit: [tool] }));

    clock.advance(59);
    expect((await client.inspect(halted.runId, { toolkit: [tool] }))?.status).toBe("pending"); // not yet due
    clock.advance(2);
    const reported = await client.inspect(halted.runId);
    expect(reported).toMatchObject({ status: "pending", requests: [{ expiresAt: iso(T0 + 60_000) }] });
    expect(s.bodies).toHaveLength(1);

    expect(await client.inspect(halted.runId, { toolkit: [tool] })).toMatchObject({ status: "done", requests: [] });
    expect(state.runs).toBe(0);
    expect(s.bodies).toHaveLength(2);
    expect(JSON.stringify(s.bodies[1])).toContain("declined/expired: Approve running the tool book?");
  });

  it('onExpire "cancel" answers with reason cancelled, and onDecline words what the model sees', async () => {
    const clock = fakeClock();
    const reasons: unknown[] = [];
    const onDecline = (answer: { reason?: string }) => {
      reasons.push(answer.reason);
      return "nobody approved in time";
    };
    const { tool, state } = approvalTool(60, { onExpire: "cancel", onDecline });
    const s = echoModel({ calls: [{ name: "book" }] });
    const client = clientOn(clock, s.fetch);
    const halted = asPending(await client.run("book", { toolkit: [tool] }));
    clock.advance(61);
    await client.inspect(halted.runId, { toolkit: [tool] });
    expect(reasons).toEqual(["cancelled"]);
    expect(state.runs).toBe(0);
    expect(JSON.stringify(s.bodies[1])).toContain("nobody approved in time");
  });

  it("an answer after the deadline counts as the expired decline and returns the continued run", async () => {
    const clock = fakeClock();
    const { tool, state } = approvalTool(60);
    const s = echoModel({ calls: [{ name: "book" }] });
    const client = clientOn(clock, s.fetch);
    const halted = asPending(await client.run("book", { toolkit: [tool] }));
    clock.advance(61);
    const result = await client.resume(halted.runId, answerApproval(halted.pending.id), { toolkit: [tool] });
    expect(result.status).toBe("done");
    expect(result.text).toBe("declined/expired: Approve running the tool book?");
    expect(state.runs).toBe(0);
  });

  it("once the run moved on, the late answer names no open request: AnswerMismatchError", async () => {
    const clock = fakeClock();
    const { tool, state } = approvalTool(60);
    // the model asks again after the expiry: the run halts on a new approval
    const s = scripted("openai", [{ calls: [{ name: "book" }] }, { calls: [{ name: "book" }] }, { text: "ok" }]);
    const client = clientOn(clock, s.fetch);
    const halted = asPending(await client.run("book", { toolkit: [tool] }));
    clock.advance(61);
    const moved = await client.inspect(halted.runId, { toolkit: [tool] });
    expect(moved?.status).toBe("pending");
    expect(moved?.requests[0]?.id).not.toBe(halted.pending.id);
    const late = client.resume(halted.runId, answerApproval(halted.pending.id), { toolkit: [tool] });
    await expect(late).rejects.toBeInstanceOf(AnswerMismatchError);
    expect(state.runs).toBe(0);
  });

  it("several open requests of one turn, one expired: it is declined, the other still waits", async () => {
    const clock = fakeClock();
    const ask = askTool(clock);
    const s = echoModel({
      calls: [
        { name: "ask", args: { q: "A", in: 60 } },
        { name: "ask", args: { q: "B", in: 600 } },
      ],
    });
    const client = clientOn(clock, s.fetch);
    const halted = asPending(await client.run("ask", { toolkit: [ask.tool] }));
    clock.advance(61);
    const left = await client.inspect(halted.runId, { toolkit: [ask.tool] });
    expect(left).toMatchObject({ status: "pending", requests: [{ id: "q-B" }] });
    expect(s.bodies).toHaveLength(1); // the model waits for every call of the turn
    const done = await client.resume(halted.runId, answerOutput("q-B", "yes"), { toolkit: [ask.tool] });
    expect(done.text).toBe("declined/expired: A|answer yes");
    expect(ask.state.runs).toBe(1);
  });

  it("a resume answering the open request also declines the expired one, in the same claim", async () => {
    const clock = fakeClock();
    const ask = askTool(clock);
    const s = echoModel({
      calls: [
        { name: "ask", args: { q: "A", in: 60 } },
        { name: "ask", args: { q: "B", in: 600 } },
      ],
    });
    const client = clientOn(clock, s.fetch);
    const halted = asPending(await client.run("ask", { toolkit: [ask.tool] }));
    clock.advance(61);
    const done = await client.resume(halted.runId, answerOutput("q-B", "yes"), { toolkit: [ask.tool] });
    expect(done.text).toBe("declined/expired: A|answer yes");
  });

  it("a relay tool's request expires the same way: the model hears the relay was declined as expired", async () => {
    const clock = fakeClock();
    const relay = relayTool("lookup", "looks up on the page");
    const s = echoModel({ calls: [{ name: "lookup", args: { q: 1 } }] });
    const client = clientOn(clock, s.fetch, { answerTimeoutSeconds: 30 });
    const halted = asPending(await client.run("look", { toolkit: [relay] }));
    expect(halted.pending.kind).toBe("tool_call");
    clock.advance(31);
    expect((await client.inspect(halted.runId, { toolkit: [relay] }))?.status).toBe("done");
    expect(JSON.stringify(s.bodies[1])).toContain("relay declined for lookup: expired");
  });

  it("a tool with a continuation (as an MCP elicitation is) hears its expiry with its state, to tell its server", async () => {
    const clock = fakeClock();
    const heard: unknown[] = [];
    const elicit = defineTool({
      name: "elicit",
      description: "asks through a server",
      execute: (_args, ctx) => {
        if (!ctx.answer) return pending({ kind: "input", prompt: "Your name?" }, { state: { server: "s-1" } });
        heard.push([ctx.answer.ok, ctx.answer.reason, ctx.state]);
        return { output: "the server cancelled its request", isError: true };
      },
    });
    const s = echoModel({ calls: [{ name: "elicit" }] });
    const client = clientOn(clock, s.fetch, { answerTimeoutSeconds: 60 });
    const halted = asPending(await client.run("go", { toolkit: [elicit] }));
    clock.advance(61);
    expect((await client.inspect(halted.runId, { toolkit: [elicit] }))?.status).toBe("done");
    expect(heard).toEqual([[false, "expired", { server: "s-1" }]]);
    expect(JSON.stringify(s.bodies[1])).toContain("the server cancelled its request");
  });
});
