// The model's reasoning reaches an AG-UI or useChat page only when the handler is given `reasoning: true`,
// and a run of several model turns keeps each turn between its own step boundaries.
import { describe, expect, it } from "vitest";
import { createInProcessClient, memoryStorage, type Client, type StreamEvent } from "toolnexus";
import { createAgUiHandler } from "toolnexus/ag-ui";
import { createUiMessageStreamHandler } from "toolnexus/ai-sdk";
import { dataFrames } from "../../support/interop";

/** A client whose every run thinks aloud first. */
function thinkingClient(): Client {
  const client = createInProcessClient({
    model: "m",
    generate: () => ({ content: "Paris" }),
    storage: memoryStorage(),
  });
  return {
    ...client,
    stream: async function* (prompt: string, opts: object) {
      yield { type: "reasoning", delta: "The capital of France" } as StreamEvent;
      yield* client.stream(prompt, opts);
    } as Client["stream"],
  };
}

const post = (handler: (r: Request) => Promise<Response>, body: unknown) =>
  handler(
    new Request("http://edge.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
const agUiInput = { threadId: "t", runId: "r", messages: [{ id: "u", role: "user", content: "capital?" }] };
const chatInput = { id: "c", messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "capital?" }] }] };
const types = (frames: any[]) => frames.map((f) => (typeof f === "string" ? f : f.type));

describe("reasoning on the interop endpoints", () => {
  it("AG-UI: no REASONING_* by default; with reasoning: true, a reasoning message before the text", async () => {
    const hidden = types(await dataFrames(await post(createAgUiHandler({ client: thinkingClient() }), agUiInput)));
    expect(hidden.some((t) => t.startsWith("REASONING"))).toBe(false);
    const handler = createAgUiHandler({ client: thinkingClient(), reasoning: true });
    const frames = await dataFrames(await post(handler, agUiInput));
    expect(types(frames).slice(0, 6)).toEqual([
      "RUN_STARTED",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
    ]);
    expect(frames[3].delta).toBe("The capital of France");
  });

  it("useChat: no reasoning-* by default; with reasoning: true, reasoning-start/delta/end in the step", async () => {
    const hidden = types(
      await dataFrames(await post(createUiMessageStreamHandler({ client: thinkingClient() }), chatInput)),
    );
    expect(hidden.some((t) => t.startsWith("reasoning"))).toBe(false);
    const handler = createUiMessageStreamHandler({ client: thinkingClient(), reasoning: true });
    const shown = types(await dataFrames(await post(handler, chatInput)));
    expect(shown.slice(0, 5)).toEqual(["start", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end"]);
    expect(shown.slice(-3)).toEqual(["finish-step", "finish", "[DONE]"]);
  });
});
