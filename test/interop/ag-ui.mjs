// The AG-UI endpoint driven by the real client: @ag-ui/client's HttpAgent (which runs verifyEvents on every
// stream), over HTTP on 127.0.0.1, and every frame checked against @ag-ui/core's own schemas as well.
import assert from "node:assert/strict";
import { buildResumeArray, HttpAgent, verifyEvents } from "@ag-ui/client";
import { EventSchema } from "@ag-ui/core/schemas";
import { from, lastValueFrom, toArray } from "rxjs";
import { serve, world } from "./world.mjs";

/** A run of `agent`, every event it got validated; resolves the events. */
async function run(agent, params = {}) {
  const events = [];
  await agent.runAgent(params, {
    onEvent({ event }) {
      const checked = EventSchema.safeParse(event);
      if (!checked.success) throw new Error(`${event.type} fails @ag-ui/core's schema: ${checked.error.message}`);
      events.push(event);
    },
  });
  return events;
}

const say = (agent, content) => agent.addMessage({ id: crypto.randomUUID(), role: "user", content });
const approveAll = (interrupts, approved) =>
  buildResumeArray(
    interrupts,
    Object.fromEntries(
      interrupts.map((i) => [
        i.id,
        { status: "resolved", payload: { approved }, metadata: { token: i.metadata?.token } },
      ]),
    ),
  );

/** The raw frames of a POST, read back and run through verifyEvents on its own. */
async function rawRun(url, input, headers = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  const events = text
    .split("\n\n")
    .filter((f) => f.startsWith("data: "))
    .map((f) => JSON.parse(f.slice(6)));
  for (const e of events) assert.ok(EventSchema.safeParse(e).success, `${e.type} fails the schema`);
  return lastValueFrom(from(events).pipe(verifyEvents(false), toArray()));
}

export async function agUiChecks({ check }) {
  const w = world();
  const server = await serve(w.agUi);
  const agent = (threadId) => new HttpAgent({ url: server.url, threadId });
  try {
    await check("AG-UI: a plain run streams the reply through HttpAgent", async () => {
      const a = agent("plain");
      say(a, "hello");
      const events = await run(a);
      assert.equal(events[0].type, "RUN_STARTED");
      assert.equal(events.at(-1).type, "RUN_FINISHED");
      assert.equal(a.messages.at(-1).content, "You said: hello");
    });
    await check("AG-UI: a halt is an interrupt outcome HttpAgent keeps as pendingInterrupts", async () => {
      const a = agent("halt");
      say(a, "deploy twice");
      const events = await run(a);
      assert.deepEqual(events.at(-1).outcome.type, "interrupt");
      assert.equal(a.pendingInterrupts.length, 2);
      assert.equal(a.pendingInterrupts[0].reason, "tool_call");
      assert.equal(a.pendingInterrupts[0].toolCallId, "call_a");
    });
    await check(
      "AG-UI: approve with buildResumeArray — the tool runs once, TOOL_CALL_RESULT for each call",
      async () => {
        const a = agent("approve");
        say(a, "deploy twice");
        await run(a);
        const resume = approveAll(a.pendingInterrupts, true);
        const events = await run(a, { resume });
        assert.deepEqual(
          events.filter((e) => e.type === "TOOL_CALL_RESULT").map((e) => e.toolCallId),
          ["call_a", "call_b"],
        );
        assert.deepEqual(
          w.ran.filter((r) => r.startsWith("deploy")),
          ["deploy:a", "deploy:b"],
        );
        assert.equal(a.pendingInterrupts.length, 0);
        // replayed (a retried request): the same outcome, nothing runs again
        const again = await rawRun(server.url, { threadId: "approve", runId: "again", messages: [], resume });
        assert.equal(again.at(-1).type, "RUN_FINISHED");
        assert.deepEqual(
          w.ran.filter((r) => r.startsWith("deploy")),
          ["deploy:a", "deploy:b"],
        );
      },
    );
    await check("AG-UI: decline — the tool never runs", async () => {
      const a = agent("decline");
      say(a, "deploy");
      await run(a);
      const before = w.ran.length;
      await run(a, { resume: approveAll(a.pendingInterrupts, false) });
      assert.equal(w.ran.length, before);
    });
    await check("AG-UI: a partial resume is RUN_ERROR (verifyEvents accepts it) and consumes nothing", async () => {
      const a = agent("partial");
      say(a, "deploy twice");
      await run(a);
      const [first] = a.pendingInterrupts;
      const before = w.ran.length;
      const input = { threadId: "partial", runId: "p2", messages: [], resume: approveAll([first], true) };
      const events = await rawRun(server.url, input);
      assert.equal(events.at(-1).type, "RUN_ERROR");
      assert.equal(w.ran.length, before);
      // the whole set answered afterwards still goes through: nothing was consumed
      await run(a, { resume: approveAll(a.pendingInterrupts, true) });
      assert.equal(w.ran.length, before + 2);
    });
    await check("AG-UI: an expired interrupt is RUN_ERROR; HttpAgent itself asks for it to be cancelled", async () => {
      const a = agent("late");
      say(a, "late");
      await run(a);
      const [late] = a.pendingInterrupts;
      assert.equal(late.expiresAt, "2001-01-01T00:00:00.000Z");
      const input = {
        threadId: "late",
        runId: "l2",
        messages: [],
        resume: [{ interruptId: late.id, status: "resolved", payload: "x" }],
      };
      assert.equal((await rawRun(server.url, input)).at(-1).type, "RUN_ERROR");
      const events = await run(a, { resume: [{ interruptId: late.id, status: "cancelled" }] });
      assert.equal(events.at(-1).type, "RUN_FINISHED");
      assert.ok(!w.ran.includes("late:ok"));
    });
    await check("AG-UI: another owner's resume is RUN_ERROR and runs nothing", async () => {
      const a = agent("owned");
      say(a, "deploy");
      await run(a);
      const before = w.ran.length;
      const input = { threadId: "owned", runId: "o2", messages: [], resume: approveAll(a.pendingInterrupts, true) };
      const events = await rawRun(server.url, input, { "x-user": "eve" });
      assert.equal(events.at(-1).type, "RUN_ERROR");
      assert.equal(w.ran.length, before);
    });
  } finally {
    await server.close();
  }
}
