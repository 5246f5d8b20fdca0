// toolnexus/otel: GenAI spans for a run with two tool calls, a suspension, and its resume in a second client
// over the same storage — the span tree, names and attributes, the resume's link to the halted run, content
// only when asked, and no secret anywhere in what is exported.
import { describe, expect, it } from "vitest";
import { answerOutput, createClient, defineTool, memoryStorage, pending, type RunStorage } from "toolnexus";
import { otelTelemetry } from "toolnexus/otel";
import { MODES, resumeIn, runIn, STYLES } from "../../support/drive";
import { asPending } from "../../support/results";
import { scripted, toolResultsIn } from "../../support/scripted";
import { childrenOf, exported, memoryTracer } from "./support";

const SECRETS = { apiKey: "sk-otel-secret-4242", header: "hdr-otel-secret-7373", system: "SYSTEM-PROMPT-9191" };

const tools = () => [
  defineTool({ name: "clock", description: "the time", execute: () => "12:00" }),
  defineTool({ name: "weather", description: "the weather", execute: () => "sunny" }),
  defineTool({
    name: "ask_city",
    description: "asks for a city",
    execute: (_a, ctx) =>
      ctx.answer
        ? `city=${ctx.answer.data?.output}`
        : pending(
            { kind: "input", prompt: "Which city?", id: "q-city", data: { hint: "DATA-7" } },
            { state: "STATE-8" },
          ),
  }),
];

const script = (style: (typeof STYLES)[number]) =>
  scripted(style, [
    { calls: [{ name: "clock", args: { zone: "ARG-5" } }, { name: "weather" }], usage: { prompt: 11, completion: 3 } },
    { calls: [{ name: "ask_city" }], usage: { prompt: 20, completion: 4 } },
    (b) => ({ text: `final: ${toolResultsIn(b).join("|")}`, usage: { prompt: 30, completion: 6 } }),
  ]);

/** Halts in one client, resumes in a second one over the same storage; both trace into one exporter. */
async function haltAndResume(style: (typeof STYLES)[number], mode: (typeof MODES)[number], recordContent = false) {
  const memory = memoryTracer();
  const storage: RunStorage = memoryStorage();
  const s = script(style);
  const options = {
    baseUrl: "https://llm.test/v1?key=QUERY-SECRET",
    style,
    model: "demo-model",
    apiKey: SECRETS.apiKey,
    headers: { "X-Auth-Key": SECRETS.header },
    systemPrompt: SECRETS.system,
    fetch: s.fetch,
    storage,
  };
  const first = createClient({ ...options, telemetry: otelTelemetry({ tracer: memory.tracer, recordContent }) });
  const halted = asPending((await runIn(first, mode, "USER-PROMPT-1", { toolkit: tools() })).result);
  const second = createClient({ ...options, telemetry: otelTelemetry({ tracer: memory.tracer, recordContent }) });
  const done = (await resumeIn(second, mode, halted.runId, answerOutput("q-city", "Goa"), { toolkit: tools() })).result;
  const spans = memory.spans();
  const runs = spans.filter((x) => x.name === "invoke_agent");
  return { spans, runs, done, halted, storage };
}

describe("toolnexus/otel spans", () => {
  for (const style of STYLES)
    for (const mode of MODES)
      describe(`${style} ${mode}`, () => {
        it("a run, its halt and its resume in another client read as one trace: the resume under the halted run, linked to it", async () => {
          const { spans, runs, done } = await haltAndResume(style, mode);
          expect(done.status).toBe("done");
          expect(runs).toHaveLength(2);
          const [halted, resumed] = runs as [(typeof runs)[0], (typeof runs)[0]];
          expect(childrenOf(spans, halted)).toEqual([
            "chat demo-model",
            "chat demo-model",
            "execute_tool ask_city",
            "execute_tool clock",
            "execute_tool weather",
            "invoke_agent", // the resume
          ]);
          expect(childrenOf(spans, resumed)).toEqual(["chat demo-model", "execute_tool ask_city"]);
          expect(halted.parentSpanContext).toBeUndefined();

          // one trace across the halt: every span carries the halted run's trace id, the resume's parent is
          // the halted run's span, and the link to it is kept
          const traceId = halted.spanContext().traceId;
          expect(spans.every((span) => span.spanContext().traceId === traceId)).toBe(true);
          expect(resumed.parentSpanContext?.spanId).toBe(halted.spanContext().spanId);
          expect(resumed.parentSpanContext?.traceId).toBe(traceId);
          expect(resumed.links).toHaveLength(1);
          expect(resumed.links[0]!.context.traceId).toBe(halted.spanContext().traceId);
          expect(resumed.links[0]!.context.spanId).toBe(halted.spanContext().spanId);
          expect(resumed.attributes["toolnexus.resume.wait_ms"]).toBeGreaterThanOrEqual(0);
          expect(halted.links).toHaveLength(0);

          expect(halted.attributes).toMatchObject({
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.provider.name": style,
            "gen_ai.request.model": "demo-model",
            "toolnexus.run.status": "pending",
          });
          expect(resumed.attributes["toolnexus.run.status"]).toBe("done");
          // the suspension: an event with the request's kind, never its data or state
          const events = halted.events.filter((e) => e.name === "pending");
          expect(events).toHaveLength(1);
          expect(events[0]!.attributes).toMatchObject({
            "toolnexus.request.kind": "input",
            "toolnexus.request.id": "q-city",
            "gen_ai.tool.name": "ask_city",
          });
          const json = exported(spans);
          expect(json).not.toContain("DATA-7");
          expect(json).not.toContain("STATE-8");
        });

        it("chat and execute_tool spans carry the GenAI attributes", async () => {
          const { spans, runs } = await haltAndResume(style, mode);
          const under = (name: string) =>
            spans.filter((x) => x.name === name && x.parentSpanContext?.spanId === runs[0]!.spanContext().spanId);
          const chats = under("chat demo-model");
          expect(chats.map((c) => c.attributes["gen_ai.usage.input_tokens"]).sort()).toEqual([11, 20]);
          expect(chats[0]!.attributes).toMatchObject({
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": style,
            "gen_ai.request.model": "demo-model",
            "server.address": "llm.test",
            "server.port": 443,
          });
          expect(chats[0]!.kind).toBe(2); // SpanKind.CLIENT
          for (const c of chats) expect(c.attributes["gen_ai.response.finish_reasons"]).toHaveLength(1);
          const clock = under("execute_tool clock")[0]!;
          expect(clock.attributes).toMatchObject({
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "clock",
            "gen_ai.tool.type": "function",
            "gen_ai.tool.description": "the time",
          });
          expect(typeof clock.attributes["gen_ai.tool.call.id"]).toBe("string");
          const ask = under("execute_tool ask_city")[0]!;
          expect(ask.attributes["toolnexus.request.kind"]).toBe("input");
          expect(ask.attributes["error.type"]).toBeUndefined();
        });

        it("records no content unless asked, and then the messages, arguments and results", async () => {
          const off = exported((await haltAndResume(style, mode)).spans);
          for (const text of ["USER-PROMPT-1", SECRETS.system, "ARG-5", "12:00", "Which city?", "Goa"])
            expect(off).not.toContain(text);
          expect(off).not.toContain("gen_ai.input.messages");

          const on = await haltAndResume(style, mode, true);
          const json = exported(on.spans);
          for (const text of ["USER-PROMPT-1", SECRETS.system, "ARG-5", "12:00", "Which city?", "city=Goa"])
            expect(json).toContain(text);
          const clock = on.spans.find((x) => x.name === "execute_tool clock")!;
          expect(JSON.parse(String(clock.attributes["gen_ai.tool.call.arguments"]))).toEqual({ zone: "ARG-5" });
          expect(clock.attributes["gen_ai.tool.call.result"]).toBe("12:00");
        });

        it("no API key, header value or URL query reaches any attribute, event or link, even with content on", async () => {
          for (const recordContent of [false, true]) {
            const { spans, storage, halted } = await haltAndResume(style, mode, recordContent);
            const json = exported(spans);
            expect(json).not.toContain(SECRETS.apiKey);
            expect(json).not.toContain(SECRETS.header);
            expect(json).not.toContain("QUERY-SECRET");
            // the record keeps the trace context and nothing else of the telemetry
            const stored = (await storage.get(`run:${halted.runId}`)) ?? "";
            expect(stored).not.toContain(SECRETS.apiKey);
          }
        });
      });
});
