// `toolnexus/otel`: OpenTelemetry GenAI spans for every run, from the host's own tracer.
export { otelTelemetry } from "./telemetry";
export type { OtelTelemetryOptions } from "./telemetry";
