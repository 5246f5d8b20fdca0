// An OpenTelemetry SDK tracer that keeps every finished span in memory, and the span tree read back from it.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

export function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    tracer: provider.getTracer("toolnexus-test"),
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
  };
}

/** The names of the spans whose parent is `parent`, in the trace of `parent`, sorted (tools of a turn run at once). */
export const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan): string[] =>
  spans
    .filter(
      (s) =>
        s.parentSpanContext?.spanId === parent.spanContext().spanId &&
        s.spanContext().traceId === parent.spanContext().traceId,
    )
    .map((s) => s.name)
    .sort();

/** Every span as JSON: names, attributes, events and links — what an exporter would send. */
export const exported = (spans: readonly ReadableSpan[]): string =>
  JSON.stringify(
    spans.map((s) => ({
      name: s.name,
      attributes: s.attributes,
      events: s.events,
      links: s.links,
      status: s.status,
    })),
  );
