// A prompt the page sends right after it stopped the conversation's exchange (its abort()): the server
// waits out that exchange, which may hold the conversation a moment longer (a tool running past the stop),
// instead of refusing the prompt as busy; a second abort stops that wait; other conflicts stay errors at once.
import { describe, expect, it } from "vitest";
import { createRunSession, defineTool, memoryStorage, type RunStorage } from "toolnexus";
import { edgeWorld } from "../../support/edge";
import { expectNoSecrets, letGo, page, provider, texts, tick } from "../../support/edge-page";
import type { ScriptTurn } from "../../support/scripted";

/**
 * A world whose first exchange calls `slow_lookup`, a tool that runs until the test calls `release()` and
 * does not stop early: a stop ends that exchange only at the tool's end (DESIGN "Stop"), so until then the
 * stopped exchange still holds the conversation. After `watch()`, `onBusy(n)` is called each time the
 * storage shows a reader the conversation busy: the next prompt's exchange has then been refused n times.
 */
function heldToolWorld(nextText: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const stoppedTools: string[] = [];
  const slow = defineTool({
    name: "slow_lookup",
    description: "looks something up, slowly (and does not stop early)",
    execute: async (_args, ctx) => {
      await held;
      if (ctx.signal.aborted) stoppedTools.push("slow_lookup");
      return "found it late";
    },
  });
  const world = { release, stoppedTools, onBusy: (_looks: number) => {}, busyLooks: 0, watching: false };
  const inner = memoryStorage();
  const storage: RunStorage = {
    ...inner,
    get: async (key) => {
      const raw = await inner.get(key);
      if (world.watching && key.startsWith("conversation:") && raw && JSON.parse(raw).busy !== undefined) {
        world.busyLooks++;
        world.onBusy(world.busyLooks);
      }
      return raw;
    },
  };
  const slowCall: ScriptTurn = { text: "Looking.", calls: [{ id: "call_slow", name: "slow_lookup", args: {} }] };
  const model = provider([slowCall, { text: nextText }]);
  const w = edgeWorld({ model: model.model, tools: [slow], storage });
  return Object.assign(world, { model, w, watch: () => void (world.watching = true) });
}

/** Sends `prompt` and stops its exchange (the page's abort()) while its slow tool runs. */
async function stopWhileToolRuns(p: ReturnType<typeof page>, prompt: string): Promise<void> {
  const sent = p.session.send(prompt);
  while (!p.session.state.calls.some((c) => c.name === "slow_lookup" && c.status === "running")) await tick();
  p.session.abort();
  await sent;
}

describe("createRunSession: a prompt sent right after the page stopped an exchange", () => {
  it("waits until the server has stopped that exchange too, instead of failing as busy", async () => {
    const held = heldToolWorld("Here you go.");
    // the tool ends once the next prompt's exchange has been shown the conversation busy: from then on only
    // a wait on the server, not the handler's first look, can let that prompt through
    held.onBusy = () => {
      held.watching = false;
      held.release();
    };
    const p = page(held.w);
    await stopWhileToolRuns(p, "slow one");
    expect(p.session.state.status).toBe("idle");
    const from = p.seen.length;
    held.watch();
    await p.session.send("next one"); // at once: the server's run still holds the conversation until its tool ends
    expect(held.busyLooks).toBe(1); // the server did find the conversation still held
    expect(p.session.state).toMatchObject({ status: "done", error: undefined });
    expect(p.seen.slice(from).some((s) => s.error !== undefined)).toBe(false); // no busy error, not even briefly
    expect(texts(p.session.state).slice(-2)).toEqual(["user: next one", "assistant: Here you go."]);
    expect(held.stoppedTools).toEqual(["slow_lookup"]); // the stopped exchange's tool ran to its end, signal aborted
    expect(held.model.bodies).toHaveLength(2); // the stopped exchange called the model no more
    expectNoSecrets(p, held.model);
  });

  it("a second abort() while the prompt waits for the server stops the wait: idle, no error, nothing posted after", async () => {
    const held = heldToolWorld("Later.");
    const p = page(held.w);
    await stopWhileToolRuns(p, "slow one");
    const from = p.seen.length;
    // the server found the conversation busy, waited, and looked again: the prompt is waiting on the server
    const lookedAgain = new Promise<void>((resolve) => {
      held.onBusy = (looks) => {
        if (looks < 2) return;
        held.watching = false;
        resolve();
      };
    });
    held.watch();
    const waiting = p.session.send("next one");
    await lookedAgain;
    expect(p.session.state.status).toBe("streaming");
    p.session.abort();
    await waiting;
    expect(p.session.state).toMatchObject({ status: "idle", error: undefined });
    expect(p.seen.slice(from).some((s) => s.error !== undefined)).toBe(false);
    held.release(); // the stopped exchange ends on the server: a wait still going on would now get through
    await held.w.served(); // the server has answered every request it was given, the abandoned one too
    await letGo(held.w, p);
    expect(held.model.bodies).toHaveLength(1); // the waiting prompt never reached the model
    await p.session.send("now");
    expect(p.session.state).toMatchObject({ status: "done", error: undefined });
    expect(texts(p.session.state).at(-1)).toBe("assistant: Later.");
  });

  it("after the page's abort, only a busy refusal is waited out: a conversation waiting on a run is an error at once", async () => {
    let posts = 0;
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      posts++;
      if (posts === 1) {
        // a stream the page walks away from
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(
              new TextEncoder().encode(`event: text\ndata: ${JSON.stringify({ type: "text", delta: "Hi" })}\n\n`),
            );
            init?.signal?.addEventListener("abort", () => c.error(init.signal!.reason), { once: true });
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      const message =
        'toolnexus: conversation "c1" waits on run "run-1" — resume it with client.resume(runId, answer), or discard it with client.forget(id)';
      return new Response(JSON.stringify({ error: { code: "run_conflict", message } }), {
        status: 409,
        headers: { "content-type": "application/json" },
      });
    }) as typeof globalThis.fetch;
    const session = createRunSession({ endpoint: "/api/run", fetch, storage: null });
    const first = session.send("hello");
    while (!session.state.text) await tick();
    session.abort();
    await first;
    await session.send("again");
    expect(session.state).toMatchObject({ status: "error", error: { code: "run_conflict" } });
    expect(session.state.error!.message).toContain("waits on run");
    expect(posts).toBe(2); // not posted again: waiting cannot end that refusal
  });

  it("a conversation busy with another tab's exchange is still refused at once", async () => {
    const model = provider([{ hang: true, text: "Thinking", lingerMs: 50 }]);
    const w = edgeWorld({ model: model.model });
    const a = page(w);
    const sending = a.session.send("slow one");
    while (!a.session.state.text) await tick();
    const b = page(w, a.storage); // a second tab: the same kept conversation, no stop of its own
    await b.session.send("me too");
    expect(b.session.state).toMatchObject({ status: "error", error: { code: "run_conflict" } });
    expect(model.bodies).toHaveLength(1);
    a.session.abort();
    await sending;
  });
});
