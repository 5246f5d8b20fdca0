// tool_input and reasoning deltas in the shapes the recordings do not cover: several calls whose argument
// deltas interleave, OpenRouter's `reasoning` and `reasoning_details`, and what a run streams of them.
import { describe, expect, it } from "vitest";
import { createClient, defineTool, type StreamEvent } from "toolnexus";
import { anthropicWire, openaiWire, type WireDelta } from "../../support/wire-internals";
import { anthropicSSE, everySplit, openaiSSE, streamOf } from "../../support/wire-streams";
import { replay } from "../../support/replay";

const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});
const call = (index: number, fn: Record<string, unknown>, id?: string) =>
  delta({ tool_calls: [{ index, ...(id ? { id, type: "function" } : {}), function: fn }] });

/** Joined argument deltas per call id. */
function byCall(deltas: readonly (WireDelta | StreamEvent)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of deltas) if (d.type === "tool_input") out[d.id] = (out[d.id] ?? "") + d.delta;
  return out;
}

describe("tool_input: parallel calls whose deltas interleave", () => {
  // built in the Chat Completions delta shape; no public recording interleaves two calls' arguments
  const sse = openaiSSE([
    call(0, { name: "weather", arguments: "" }, "call_a"),
    call(1, { name: "time", arguments: '{"zone"' }, "call_b"),
    call(0, { arguments: '{"city":' }),
    call(1, { arguments: ':"UTC"}' }),
    call(0, { arguments: '"Paris"}' }),
    delta({}, "tool_calls"),
  ]);

  it("each call's deltas carry its own id and name and join to its arguments, at every split", async () => {
    for (const { stream } of everySplit(sse)) {
      const deltas: WireDelta[] = [];
      const turn = await openaiWire.readStream(stream(), (d) => deltas.push(d));
      expect(byCall(deltas)).toEqual(Object.fromEntries(turn.calls.map((c) => [c.id, c.raw])));
      expect(turn.calls.map((c) => [c.id, c.name, c.args])).toEqual([
        ["call_a", "weather", { city: "Paris" }],
        ["call_b", "time", { zone: "UTC" }],
      ]);
      expect(
        deltas.every((d) => d.type !== "tool_input" || d.name === { call_a: "weather", call_b: "time" }[d.id]),
      ).toBe(true);
    }
  });

  it("a run streams them before its tool_call events, and the calls run with the joined arguments", async () => {
    const seen: unknown[] = [];
    const tools = ["weather", "time"].map((name) =>
      defineTool({ name, description: name, execute: (args) => (seen.push([name, args]), "ok") }),
    );
    const final = openaiSSE([delta({ content: "Done." }, "stop")]);
    const played = replay([{ body: sse }, { body: final }]);
    const client = createClient({ baseUrl: "http://127.0.0.1:9", style: "openai", model: "m", fetch: played.fetch });
    const events: StreamEvent[] = [];
    for await (const e of client.stream("go", { toolkit: tools })) events.push(e);
    const firstCall = events.findIndex((e) => e.type === "tool_call");
    expect(events.slice(0, firstCall).filter((e) => e.type === "tool_input")).toHaveLength(4);
    expect(byCall(events)).toEqual({ call_a: '{"city":"Paris"}', call_b: '{"zone":"UTC"}' });
    expect(seen).toEqual([
      ["weather", { city: "Paris" }],
      ["time", { zone: "UTC" }],
    ]);
  });

  it("Anthropic: two tool_use blocks, each block's input_json_delta under its own id", async () => {
    const sse = anthropicSSE([
      { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_a", name: "weather", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":' } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"Paris"}' } },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_b", name: "time", input: {} },
      },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"zone":"UTC"}' } },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ]);
    const deltas: WireDelta[] = [];
    const turn = await anthropicWire.readStream(streamOf(sse, 3), (d) => deltas.push(d));
    expect(byCall(deltas)).toEqual({ toolu_a: '{"city":"Paris"}', toolu_b: '{"zone":"UTC"}' });
    expect(turn.calls.map((c) => c.raw)).toEqual(['{"city":"Paris"}', '{"zone":"UTC"}']);
  });
});

describe("reasoning from OpenAI-compatible servers", () => {
  it("`reasoning` deltas (OpenRouter, vLLM) are reasoning, kept in the message under `reasoning`", async () => {
    const sse = openaiSSE([
      delta({ reasoning: "Think" }),
      delta({ reasoning: "ing." }),
      delta({ content: "Hi" }, "stop"),
    ]);
    const deltas: WireDelta[] = [];
    const turn = await openaiWire.readStream(streamOf(sse), (d) => deltas.push(d));
    expect(deltas).toEqual([
      { type: "reasoning", delta: "Think" },
      { type: "reasoning", delta: "ing." },
      { type: "text", delta: "Hi" },
    ]);
    expect(turn.text).toBe("Hi");
    expect(turn.message).toEqual({ role: "assistant", content: "Hi", reasoning: "Thinking." });
  });

  it("an empty reasoning_content still goes back (DeepSeek refuses a tool-call turn that lost the field)", async () => {
    const sse = openaiSSE([
      delta({ role: "assistant", content: null, reasoning_content: "" }),
      call(0, { name: "f", arguments: "{}" }, "call_1"),
      delta({ content: "", reasoning_content: null }, "tool_calls"),
    ]);
    const deltas: WireDelta[] = [];
    const turn = await openaiWire.readStream(streamOf(sse), (d) => deltas.push(d));
    expect(deltas.filter((d) => d.type === "reasoning")).toEqual([]);
    expect((turn.message as Record<string, unknown>).reasoning_content).toBe("");
  });

  it("a server sending both names reports the text once", async () => {
    const sse = openaiSSE([delta({ reasoning_content: "Once.", reasoning: "Once." }), delta({ content: "A" }, "stop")]);
    const deltas: WireDelta[] = [];
    const turn = await openaiWire.readStream(streamOf(sse), (d) => deltas.push(d));
    expect(deltas.filter((d) => d.type === "reasoning")).toEqual([{ type: "reasoning", delta: "Once." }]);
    expect(turn.message).toEqual({ role: "assistant", content: "A", reasoning_content: "Once." });
  });

  it("OpenRouter's reasoning_details pieces are merged by index, signature kept, for the next request", async () => {
    const detail = (d: Record<string, unknown>) => ({
      type: "reasoning.text",
      format: "anthropic-claude-v1",
      index: 0,
      ...d,
    });
    const sse = openaiSSE([
      delta({ reasoning: "Plan", reasoning_details: [detail({ text: "Plan" })] }),
      delta({ reasoning: " it.", reasoning_details: [detail({ text: " it." })] }),
      delta({ reasoning_details: [detail({ signature: "sig-1" })] }),
      delta({ content: "Ok" }, "stop"),
    ]);
    const turn = await openaiWire.readStream(streamOf(sse), () => {});
    expect((turn.message as Record<string, unknown>).reasoning_details).toEqual([
      { type: "reasoning.text", format: "anthropic-claude-v1", index: 0, text: "Plan it.", signature: "sig-1" },
    ]);
  });

  it("Mistral's thinking content parts are reasoning, streamed or not", async () => {
    const thinking = { type: "thinking", thinking: [{ type: "text", text: "adding" }] };
    const sse = openaiSSE([delta({ content: [thinking] }), delta({ content: [{ type: "text", text: "4" }] }, "stop")]);
    const deltas: WireDelta[] = [];
    const turn = await openaiWire.readStream(streamOf(sse), (d) => deltas.push(d));
    expect(deltas).toEqual([
      { type: "reasoning", delta: "adding" },
      { type: "text", delta: "4" },
    ]);
    const parsed = openaiWire.parse({
      choices: [{ message: { role: "assistant", content: [thinking, { type: "text", text: "4" }] } }],
    });
    expect([parsed.text, parsed.reasoning]).toEqual([turn.text, "adding"]);
  });

  it("reasoning_details pieces without an index continue the last item of their type", async () => {
    const sse = openaiSSE([
      delta({ reasoning_details: [{ type: "reasoning.summary", summary: "Look " }] }),
      delta({ reasoning_details: [{ type: "reasoning.summary", summary: "closer." }] }),
      delta({ reasoning_details: [{ type: "reasoning.text", text: "A" }] }),
      delta({ reasoning_details: [{ type: "reasoning.text", text: "B" }] }),
      delta({ content: "Ok" }, "stop"),
    ]);
    const turn = await openaiWire.readStream(streamOf(sse), () => {});
    expect((turn.message as Record<string, unknown>).reasoning_details).toEqual([
      { type: "reasoning.summary", summary: "Look closer." },
      { type: "reasoning.text", text: "AB" },
    ]);
  });

  it("a non-streamed reply's `reasoning` is the turn's reasoning, never its text", () => {
    const turn = openaiWire.parse({
      choices: [{ index: 0, message: { role: "assistant", content: "4", reasoning: "2+2" }, finish_reason: "stop" }],
    });
    expect([turn.text, turn.reasoning]).toEqual(["4", "2+2"]);
  });
});
