// The metrics registry behind `client.metrics()`: semantic events in, Prometheus text out in one fixed
// form that scrapers and the tests rely on byte for byte: metrics in a fixed order, each with its HELP and
// TYPE lines, series sorted by their labels, the buckets below, `_sum` written as JS String(number).

import type { MetricEvent } from "../types";

export interface Metrics {
  record(ev: MetricEvent): void;
  /** Prometheus text exposition; ends with one `\n`. Before any activity, only the 12 HELP/TYPE lines. */
  render(): string;
}

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

const BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

const SPECIAL = /[\\"\n]/;
// most label values (model and tool names, true/false) need no escaping: one test instead of three replaces
const escapeLabel = (v: string): string =>
  SPECIAL.test(v) ? v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n") : v;
/** One rendered label, `name="value"`; a series is keyed by its labels so rendered, joined with commas. */
const label = (name: string, value: string): string => `${name}="${escapeLabel(value)}"`;
const braced = (s: string): string => (s ? `{${s}}` : "");

/** One metric: its series by rendered labels, each a count (counter) or a histogram. */
interface Metric {
  name: string;
  help: string;
  type: "counter" | "histogram";
  series: Map<string, number | Histogram>;
}

const metric = (name: string, help: string, type: Metric["type"]): Metric => ({ name, help, type, series: new Map() });

function inc(m: Metric, key: string, by = 1): void {
  m.series.set(key, ((m.series.get(key) as number | undefined) ?? 0) + by);
}

function observe(m: Metric, key: string, seconds: number): void {
  let h = m.series.get(key) as Histogram | undefined;
  if (!h) m.series.set(key, (h = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
  for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.buckets[i]! += 1;
  h.sum += seconds;
  h.count += 1;
}

/** HELP and TYPE, then each series in label order: a counter's value, or a histogram's buckets, sum and count. */
function lines({ name: n, help, type, series }: Metric): string[] {
  const out = [`# HELP ${n} ${help}`, `# TYPE ${n} ${type}`];
  for (const key of [...series.keys()].sort()) {
    const h = series.get(key)!;
    if (typeof h === "number") {
      out.push(`${n}${braced(key)} ${h}`);
      continue;
    }
    const pre = key ? `${key},` : "";
    BUCKETS.forEach((le, i) => out.push(`${n}_bucket{${pre}le="${le}"} ${h.buckets[i]}`));
    out.push(
      `${n}_bucket{${pre}le="+Inf"} ${h.count}`,
      `${n}_sum${braced(key)} ${String(h.sum)}`,
      `${n}_count${braced(key)} ${h.count}`,
    );
  }
  return out;
}

const seconds = (ms: number): number => (Number.isFinite(ms) && ms > 0 ? ms : 0) / 1000;

/** A fresh, empty registry (one per client). */
/* @__NO_SIDE_EFFECTS__ */
export function createMetrics(): Metrics {
  const llmRequests = metric("toolnexus_llm_requests_total", "Total LLM requests.", "counter");
  const llmTokens = metric("toolnexus_llm_tokens_total", "Total tokens, by type.", "counter");
  const llmDuration = metric("toolnexus_llm_request_duration_seconds", "LLM request duration in seconds.", "histogram");
  const toolCalls = metric("toolnexus_tool_calls_total", "Total tool calls.", "counter");
  const toolDuration = metric("toolnexus_tool_duration_seconds", "Tool execution duration in seconds.", "histogram");
  const runErrors = metric("toolnexus_run_errors_total", "Total run errors.", "counter");
  const all = [llmRequests, llmTokens, llmDuration, toolCalls, toolDuration, runErrors];

  function record(ev: MetricEvent): void {
    if (ev.event === "llm") {
      const model = label("model", ev.model);
      inc(llmRequests, `${model},${label("status", ev.status)}`);
      if (ev.status === "ok") {
        inc(llmTokens, 'type="prompt"', ev.promptTokens || 0);
        inc(llmTokens, 'type="completion"', ev.completionTokens || 0);
      }
      observe(llmDuration, model, seconds(ev.ms));
    } else if (ev.event === "tool") {
      const tool = label("tool", ev.tool);
      inc(
        toolCalls,
        `${tool},${label("source", ev.source || "custom")},is_error="${ev.isError === true}",pending="${ev.pending === true}"`,
      );
      observe(toolDuration, tool, seconds(ev.ms));
    } else if (ev.event === "run" && ev.error !== undefined) {
      inc(runErrors, label("model", ev.model));
    }
  }

  return { record, render: () => `${all.flatMap(lines).join("\n")}\n` };
}
