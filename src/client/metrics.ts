// The metrics registry behind `client.metrics()`: semantic events in, Prometheus text out in one fixed
// form that scrapers and the tests rely on byte for byte: metrics in a fixed order, each with its HELP and
// TYPE lines, series sorted by their labels, the buckets below, `_sum` written as JS String(number).

import type { MetricEvent } from "../loop/telemetry";

export interface Metrics {
  record(ev: MetricEvent): void;
  /** Prometheus text exposition; ends with one `\n`. Before any activity, only the 12 HELP/TYPE lines. */
  render(): string;
}

/** A histogram's upper bounds, then +Inf. A histogram series is the count of each, +Inf's (all), then the sum. */
const BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

/** One rendered label, `name="value"`; a series is keyed by its labels so rendered, joined with commas. */
const label = (name: string, value: string): string =>
  `${name}="${value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`))}"`;
const braced = (s: string): string => (s ? `{${s}}` : "");

/** One metric: its series by rendered labels, each a counter's count or a histogram's (a name ending in `_seconds`). */
interface Metric {
  name: string;
  help: string;
  series: Map<string, number | number[]>;
}

const metric = (name: string, help: string): Metric => ({ name: `toolnexus_${name}`, help, series: new Map() });

function inc(m: Metric, key: string, by = 1): void {
  m.series.set(key, ((m.series.get(key) as number | undefined) ?? 0) + by);
}

function observe(m: Metric, key: string, ms: number): void {
  const seconds = (Number.isFinite(ms) && ms > 0 ? ms : 0) / 1000;
  let h = m.series.get(key) as number[] | undefined;
  if (!h) {
    h = Array<number>(12).fill(0);
    m.series.set(key, h);
  }
  BUCKETS.forEach((le, i) => {
    if (seconds <= le) h[i]! += 1;
  });
  h[10]! += 1;
  h[11]! += seconds;
}

/** HELP and TYPE, then each series in label order: a counter's value, or a histogram's buckets, sum and count. */
function lines({ name: n, help, series }: Metric): string[] {
  const out = [`# HELP ${n} ${help}`, `# TYPE ${n} ${n.endsWith("_seconds") ? "histogram" : "counter"}`];
  for (const key of [...series.keys()].sort()) {
    const h = series.get(key)!;
    if (typeof h === "number") {
      out.push(`${n}${braced(key)} ${h}`);
      continue;
    }
    const pre = key ? `${key},` : "";
    [...BUCKETS, "+Inf"].forEach((le, i) => out.push(`${n}_bucket{${pre}le="${le}"} ${h[i]}`));
    out.push(`${n}_sum${braced(key)} ${h[11]}`, `${n}_count${braced(key)} ${h[10]}`);
  }
  return out;
}

/** A fresh, empty registry (one per client). */
/* @__NO_SIDE_EFFECTS__ */
export function createMetrics(): Metrics {
  const llmRequests = metric("llm_requests_total", "Total LLM requests.");
  const llmTokens = metric("llm_tokens_total", "Total tokens, by type.");
  const llmDuration = metric("llm_request_duration_seconds", "LLM request duration in seconds.");
  const toolCalls = metric("tool_calls_total", "Total tool calls.");
  const toolDuration = metric("tool_duration_seconds", "Tool execution duration in seconds.");
  const runErrors = metric("run_errors_total", "Total run errors.");
  const all = [llmRequests, llmTokens, llmDuration, toolCalls, toolDuration, runErrors];

  function record(ev: MetricEvent): void {
    if (ev.event === "llm") {
      const model = label("model", ev.model);
      inc(llmRequests, `${model},${label("status", ev.status)}`);
      if (ev.status === "ok") {
        inc(llmTokens, 'type="prompt"', ev.promptTokens || 0);
        inc(llmTokens, 'type="completion"', ev.completionTokens || 0);
      }
      observe(llmDuration, model, ev.ms);
    } else if (ev.event === "tool") {
      const tool = label("tool", ev.tool);
      inc(
        toolCalls,
        `${tool},${label("source", ev.source || "custom")},is_error="${ev.isError === true}",pending="${ev.pending === true}"`,
      );
      observe(toolDuration, tool, ev.ms);
    } else if (ev.event === "run" && ev.error !== undefined) {
      inc(runErrors, label("model", ev.model));
    }
  }

  return { record, render: () => `${all.flatMap(lines).join("\n")}\n` };
}
