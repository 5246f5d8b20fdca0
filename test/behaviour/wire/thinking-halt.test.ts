// Anthropic requires the thinking blocks of a turn that called tools to come back signed and unchanged
// with its tool results. A run halted on such a turn is resumed by another client over the same storage:
// the resumed request must carry the blocks byte for byte (a signed `thinking`, and `redacted_thinking`).
import { describe, expect, it } from "vitest";
import { answerOutput, createClient, defineTool, memoryStorage, pending, type StreamEvent } from "toolnexus";
import { text as thinkingToolCall } from "../../fixtures/wire/anthropic/thinking-tool-call";
import { replay } from "../../support/replay";
import { anthropicSSE } from "../../support/wire-streams";

const BASE = { baseUrl: "http://127.0.0.1:9", style: "anthropic" as const, model: "m", apiKey: "sk-test", retries: 0 };
const FINAL = JSON.stringify({
  type: "message",
  role: "assistant",
  content: [{ type: "text", text: "No errors." }],
  stop_reason: "end_turn",
});

/** A tool that asks a person first: the run halts durably until the answer comes. */
const ask = (name: string) =>
  defineTool({
    name,
    description: "asks first",
    execute: (_args, ctx) =>
      ctx.answer ? `checked: ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Go?", id: "q-1" }),
  });

async function drain(events: AsyncIterable<StreamEvent>) {
  const seen: StreamEvent[] = [];
  for await (const e of events) seen.push(e);
  const done = seen.at(-1);
  if (done?.type !== "done") throw new Error("the stream did not finish");
  return { events: seen, result: done.result };
}

describe("thinking across a durable halt", () => {
  it("a recorded signed thinking block goes back unchanged when another client resumes the run", async () => {
    const recorded = JSON.parse(thinkingToolCall);
    const storage = memoryStorage();
    const halting = replay([{ body: thinkingToolCall }]);
    const first = await createClient({ ...BASE, storage, fetch: halting.fetch }).run("check the sandbox", {
      toolkit: [ask("checkSandboxErrors")],
    });
    expect(first.status).toBe("pending");
    if (first.status !== "pending") return;

    const resuming = replay([{ body: FINAL }]);
    const other = createClient({ ...BASE, storage, fetch: resuming.fetch });
    const done = await other.resume(first.runId, answerOutput("q-1", "yes"), { toolkit: [ask("checkSandboxErrors")] });
    expect(done.status).toBe("done");
    expect(done.text).toBe("No errors.");
    const messages = resuming.bodies[0]!.messages as { role: string; content: unknown }[];
    expect(messages[1]).toEqual({ role: "assistant", content: recorded.content });
    expect(resuming.raw[0]).toContain(JSON.stringify(recorded.content[0])); // the signed block, byte for byte
    expect(messages[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_017R7ACrx7NF7sLDDtvdQ1u9", content: "checked: yes", is_error: false },
    ]);
  });

  it("streamed thinking and redacted_thinking blocks survive the halt and a streamed resume elsewhere", async () => {
    // built in the documented event shapes: no public recording of a redacted_thinking stream was found
    const sse = anthropicSSE([
      { type: "message_start", message: { usage: { input_tokens: 10, output_tokens: 1 } } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" },
      },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "Ask before " } },
      { type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "checking." } },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "signature_delta", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" },
      },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_1", name: "check", input: {} },
      },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"path":' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '"/tmp"}' } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } },
      { type: "message_stop" },
    ]);
    const storage = memoryStorage();
    const halting = replay([{ body: sse }]);
    const first = await drain(
      createClient({ ...BASE, storage, fetch: halting.fetch }).stream("check", { toolkit: [ask("check")] }),
    );
    expect(first.result.status).toBe("pending");
    const reasoning = first.events.filter((e) => e.type === "reasoning").map((e) => e.type === "reasoning" && e.delta);
    expect(reasoning).toEqual(["Ask before ", "checking."]);
    expect(first.events.filter((e) => e.type === "text")).toEqual([]);
    if (first.result.status !== "pending") return;

    const finalSSE = anthropicSSE([
      { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "No errors." } },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
      { type: "message_stop" },
    ]);
    const resuming = replay([{ body: finalSSE }]);
    const other = createClient({ ...BASE, storage, fetch: resuming.fetch });
    const done = await drain(
      other.resumeStream(first.result.runId, answerOutput("q-1", "yes"), { toolkit: [ask("check")] }),
    );
    expect(done.result.text).toBe("No errors.");
    const assistant = (resuming.bodies[0]!.messages as { role: string; content: unknown[] }[])[1]!;
    expect(assistant.content).toEqual([
      { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" },
      { type: "thinking", thinking: "Ask before checking.", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" },
      { type: "tool_use", id: "toolu_1", name: "check", input: { path: "/tmp" } },
    ]);
  });
});
