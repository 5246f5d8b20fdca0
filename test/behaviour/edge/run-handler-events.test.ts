// What the run handler forwards of a run's events, live and in its log: tool_input always (a call being
// written carries no secret), reasoning only with `reasoning: true`, the done result without its transcript.
import { describe, expect, it } from "vitest";
import { createRunHandler, memoryStorage, type Client, type StreamEvent } from "toolnexus";
import { frames } from "../../support/edge-streams";
import { doneResult } from "../../support/results";

const result = doneResult("ok", "SYSTEM-PROMPT");

const events: StreamEvent[] = [
  { type: "reasoning", delta: "thinking…" },
  { type: "tool_input", id: "c1", name: "search", delta: '{"q":"li' },
  { type: "tool_input", id: "c1", name: "search", delta: 'ma"}' },
  { type: "text", delta: "ok" },
  { type: "done", result },
];

/** A client whose every run streams `events` (the handler's view of a client: stream, resumeStream, storage). */
function scriptedClient(): Client {
  async function* stream() {
    yield* events;
  }
  return { stream, resumeStream: stream, storage: memoryStorage() } as unknown as Client;
}

async function run(reasoning?: boolean) {
  const client = scriptedClient();
  const handler = createRunHandler({ client, ...(reasoning === undefined ? {} : { reasoning }) });
  const post = new Request("http://edge.test/api/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt: "hi" }),
  });
  const res = await handler(post);
  const runId = res.headers.get("toolnexus-run-id")!;
  const live = await frames(res).rest();
  const replay = await frames(await handler(new Request(`http://edge.test/api/run?runId=${runId}&after=1:0`))).rest();
  return { live, replay };
}

describe("createRunHandler: the events a page gets", () => {
  it("tool_input passes, reasoning does not by default, and the done result carries no transcript", async () => {
    const { live, replay } = await run();
    expect(live.map((f) => f.event.type)).toEqual(["tool_input", "tool_input", "text", "done"]);
    expect(live.map((f) => f.id)).toEqual(["1:1", "1:2", "1:3", "1:4"]);
    expect(replay).toEqual(live);
    expect(JSON.stringify(live)).not.toContain("SYSTEM-PROMPT");
  });

  it("reasoning: true forwards the reasoning events, live and in the log", async () => {
    const { live, replay } = await run(true);
    expect(live.map((f) => f.event.type)).toEqual(["reasoning", "tool_input", "tool_input", "text", "done"]);
    expect(replay).toEqual(live);
  });
});
