// Declines that say why: the model sees `declined/expired: <prompt>` followed by ` — <message>` when the
// answer carries one, inline and durable, for a tool's own Request and for its approval; a tool with
// `onDecline` words its own refusal instead.
import {
  answerDeclined,
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  pending,
  type Answer,
  type StreamEvent,
  type Tool,
  type ToolContext,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../../support/results";
import { scripted, toolResultsIn } from "../../support/scripted";

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

/** A model that calls `tool` with `args`, then repeats every tool result it was sent. */
const model = (tool: string, args: Record<string, unknown> = {}) =>
  scripted("openai", [{ calls: [{ name: tool, args }] }, (body) => ({ text: toolResultsIn(body).join("|") })]);

function booking(extra: Record<string, unknown> = {}) {
  const runs: string[] = [];
  const tool = defineTool({
    name: "book",
    description: "books a table",
    inputSchema: { type: "object", properties: { day: { type: "string" } } },
    execute: (args: Record<string, unknown>, ctx: ToolContext) => {
      if (!ctx.answer) return pending({ kind: "approval", prompt: "Book it?", id: "q-book" });
      runs.push(String(args.day));
      return "booked";
    },
    ...extra,
  } as never);
  return { tool, runs };
}

/** The text the model was sent back for the declined call, durable (a halt, then a resume) or inline. */
async function modelSees(tool: Tool, answer: (id: string) => Answer, inline: boolean, name = "book") {
  const s = model(name, { day: "fri" });
  if (inline) {
    const client = createClient({ ...base, fetch: s.fetch, waitFor: async (r) => answer(r.id) });
    const events: StreamEvent[] = [];
    for await (const e of client.stream("book", { toolkit: [tool] })) events.push(e);
    const done = events.at(-1);
    return { text: done?.type === "done" ? done.result.text : "", events };
  }
  const storage = memoryStorage();
  const client = createClient({ ...base, fetch: s.fetch, storage });
  const halted = asPending(await client.run("book", { toolkit: [tool] }));
  const result = await client.resume(halted.runId, answer(halted.pending.id), { toolkit: [tool] });
  return { text: result.text, events: [] as StreamEvent[], result };
}

describe("a decline's message reaches the model", () => {
  for (const inline of [false, true]) {
    const how = inline ? "inline" : "durable";
    it(`the fixed text, then " — <message>" (${how})`, async () => {
      const b = booking();
      const said = await modelSees(b.tool, (id) => answerDeclined(id, "declined", "too pricey, try Monday"), inline);
      expect(said.text).toBe("declined/expired: Book it? — too pricey, try Monday");
      const plain = await modelSees(booking().tool, (id) => answerDeclined(id), inline);
      expect(plain.text).toBe("declined/expired: Book it?");
      expect(b.runs).toEqual([]);
    });

    it(`a declined approval says why too, and the tool never runs (${how})`, async () => {
      const b = booking({
        needsApproval: true,
        execute: (args: { day?: string }) => (b.runs.push(String(args.day)), "booked"),
      });
      const said = await modelSees(b.tool, (id) => answerDeclined(id, "declined", "not this week"), inline);
      expect(said.text).toBe("declined/expired: Approve running the tool book? — not this week");
      expect(b.runs).toEqual([]);
    });

    it(`onDecline words the tool's own refusal, with the checked arguments and the message (${how})`, async () => {
      const seen: unknown[] = [];
      const b = booking({
        onDecline: (answer: Answer, args: { day?: string }, ctx: { callId: string; runId: string }) => {
          seen.push({ reason: answer.reason, day: args.day, call: typeof ctx.callId, run: typeof ctx.runId });
          return `Not booked for ${args.day}: ${answer.message ?? answer.reason}`;
        },
      });
      const said = await modelSees(b.tool, (id) => answerDeclined(id, "cancelled", "changed my mind"), inline);
      expect(said.text).toBe("Not booked for fri: changed my mind");
      expect(seen).toEqual([{ reason: "cancelled", day: "fri", call: "string", run: "string" }]);
      expect(b.runs).toEqual([]);
      if (inline) {
        const result = said.events.find((e) => e.type === "tool_result");
        expect(result).toMatchObject({ output: "Not booked for fri: changed my mind", isError: true });
      }
    });

    it(`onDecline on an approval gate, a ToolResult kept as it is, and a throw as an error result (${how})`, async () => {
      const gated = booking({
        needsApproval: true,
        onDecline: () => ({ output: "skipped, as the user asked", isError: false }),
      });
      const kept = await modelSees(gated.tool, (id) => answerDeclined(id), inline);
      expect(kept.text).toBe("skipped, as the user asked");
      const throwing = booking({
        onDecline: () => {
          throw new Error("the refusal could not be worded");
        },
      });
      expect((await modelSees(throwing.tool, (id) => answerDeclined(id), inline)).text).toBe(
        "the refusal could not be worded",
      );
    });
  }

  it("an ok answer never reaches onDecline; an expired one does", async () => {
    const reasons: unknown[] = [];
    const b = booking({ onDecline: (a: Answer) => (reasons.push(a.reason), `no: ${a.reason}`) });
    expect((await modelSees(b.tool, (id) => answerOutput(id, "yes"), false)).text).toBe("booked");
    const expiring = defineTool({
      name: "late",
      description: "asks with a deadline",
      execute: (_a, ctx) =>
        ctx.answer ? "ran" : pending({ kind: "input", prompt: "When?", expiresAt: "2000-01-01T00:00:00Z" }),
      onDecline: (a) => `no: ${a.reason}`,
    });
    expect((await modelSees(expiring, (id) => answerOutput(id, "now"), false, "late")).text).toBe("no: expired");
    expect(reasons).toEqual([]);
  });

  it("an onDecline that never settles is bounded by toolTimeoutMs, and sees its signal aborted", async () => {
    let aborted: Promise<unknown> | undefined;
    const b = booking({
      onDecline: (_a: Answer, _args: unknown, ctx: ToolContext) => {
        aborted = new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason)));
        return new Promise(() => {});
      },
    });
    const s = model("book", { day: "fri" });
    const storage = memoryStorage();
    const client = createClient({ ...base, fetch: s.fetch, storage, toolTimeoutMs: 50 });
    const halted = asPending(await client.run("book", { toolkit: [b.tool] }));
    const result = await client.resume(halted.runId, answerDeclined(halted.pending.id), { toolkit: [b.tool] });
    expect(result.text).toBe("tool book timed out after 50ms");
    expect(((await aborted) as DOMException).name).toBe("TimeoutError");
  });

  it("a hand-written tool's onDecline that throws or returns no ToolResult is an error result", async () => {
    const handWritten = (onDecline: Tool["onDecline"]): Tool => ({
      ...booking().tool,
      onDecline,
    });
    const threw = handWritten(async () => {
      throw new Error("no words");
    });
    expect((await modelSees(threw, (id) => answerDeclined(id), false)).text).toBe("no words");
    const bad = handWritten(async () => "a bare string" as never);
    expect((await modelSees(bad, (id) => answerDeclined(id), true)).text).toBe("tool book returned an invalid refusal");
  });

  it("defineTool refuses an onDecline that is not a function", () => {
    expect(() => booking({ onDecline: "sorry" as never })).toThrow(/onDecline must be a function/);
  });
});
