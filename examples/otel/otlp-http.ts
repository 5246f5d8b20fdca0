// Traces to an OTLP/HTTP collector: a run halts for a human, a second client resumes it, and the collector
// receives both runs as GenAI spans, the resumed one linked to the halted one. OTLP_URL is the collector's
// traces endpoint (an OpenTelemetry Collector, Jaeger, Tempo: http://localhost:4318/v1/traces).
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { answerOutput, createInProcessClient, defineTool, memoryStorage, pending } from "toolnexus";
import type { GenerateRequest } from "toolnexus";
import { otelTelemetry } from "toolnexus/otel";

const endpoint = process.env.OTLP_URL ?? "http://localhost:4318/v1/traces";

// OTLP's JSON encoding of spans, posted as they end (the OpenTelemetry exporter packages do the same)
function value(v: unknown): Record<string, unknown> {
  if (typeof v === "number") return Number.isInteger(v) ? { intValue: v } : { doubleValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(value) } };
  return { stringValue: String(v) };
}
const attributes = (a: Record<string, unknown> = {}) => Object.entries(a).map(([key, v]) => ({ key, value: value(v) }));
const nanos = ([s, ns]: [number, number]) => (BigInt(s) * 1_000_000_000n + BigInt(ns)).toString();
const otlpSpan = (s: ReadableSpan) => ({
  traceId: s.spanContext().traceId,
  spanId: s.spanContext().spanId,
  ...(s.parentSpanContext ? { parentSpanId: s.parentSpanContext.spanId } : {}),
  name: s.name,
  kind: s.kind + 1, // OTLP counts from SPAN_KIND_UNSPECIFIED
  startTimeUnixNano: nanos(s.startTime),
  endTimeUnixNano: nanos(s.endTime),
  attributes: attributes(s.attributes),
  events: s.events.map((e) => ({ name: e.name, timeUnixNano: nanos(e.time), attributes: attributes(e.attributes) })),
  links: s.links.map((l) => ({
    traceId: l.context.traceId,
    spanId: l.context.spanId,
    attributes: attributes(l.attributes),
  })),
  status: { code: s.status.code },
});
const exporter: SpanExporter = {
  export(spans, done) {
    const body = {
      resourceSpans: [
        {
          resource: { attributes: attributes({ "service.name": "trip-planner" }) },
          scopeSpans: [{ scope: { name: "toolnexus" }, spans: spans.map(otlpSpan) }],
        },
      ],
    };
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(
      (res) => done({ code: res.ok ? 0 : 1 }),
      (error) => done({ code: 1, error }),
    );
  },
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const telemetry = otelTelemetry({ tracer: provider.getTracer("trip-planner") });

// a tool that waits for a person, and a stand-in model (a real one: createClient({ baseUrl, style, model, telemetry }))
const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx.answer ? `31 °C and humid in ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?" }),
});
const generate = ({ messages }: GenerateRequest) => {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: `Forecast: ${last.content}` } : { toolCalls: [{ name: "weather" }] };
};

const storage = memoryStorage();
const first = createInProcessClient({ model: "demo", generate, storage, telemetry });
const halted = await first.run("What's the weather?", { toolkit: [weather] });
if (halted.status !== "pending") throw new Error(`expected the run to wait, got ${halted.status}`);
console.log(halted.status, halted.pending.prompt); // pending Which city?

const second = createInProcessClient({ model: "demo", generate, storage, telemetry });
const done = await second.resume(halted.runId, answerOutput(halted.pending.id, "Chennai"), { toolkit: [weather] });
console.log(done.status, done.text); // done Forecast: 31 °C and humid in Chennai
await provider.shutdown(); // every span is exported before the process ends
