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

class Counter {
  private readonly series = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(key: string, by = 1): void {
    this.series.set(key, (this.series.get(key) ?? 0) + by);
  }
  lines(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const key of [...this.series.keys()].sort()) out.push(`${this.name}${braced(key)} ${this.series.get(key)}`);
    return out;
  }
}

class Hist {
  private readonly series = new Map<string, Histogram>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  observe(key: string, seconds: number): void {
    let h = this.series.get(key);
    if (!h) this.series.set(key, (h = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.buckets[i]! += 1;
    h.sum += seconds;
    h.count += 1;
  }
  lines(): string[] {
    const n = this.name;
    const out = [`# HELP ${n} ${this.help}`, `# TYPE ${n} histogram`];
    for (const key of [...this.series.keys()].sort()) {
      const h = this.series.get(key)!;
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
}

const seconds = (ms: number): number => (Number.isFinite(ms) && ms > 0 ? ms : 0) / 1000;

/** A fresh, empty registry (one per client). */
/* @__NO_SIDE_EFFECTS__ */
export function createMetrics(): Metrics {
  const llmRequests = new Counter("toolnexus_llm_requests_total", "Total LLM requests.");
  const llmTokens = new Counter("toolnexus_llm_tokens_total", "Total tokens, by type.");
  const llmDuration = new Hist("toolnexus_llm_request_duration_seconds", "LLM request duration in seconds.");
  const toolCalls = new Counter("toolnexus_tool_calls_total", "Total tool calls.");
  const toolDuration = new Hist("toolnexus_tool_duration_seconds", "Tool execution duration in seconds.");
  const runErrors = new Counter("toolnexus_run_errors_total", "Total run errors.");
  const all = [llmRequests, llmTokens, llmDuration, toolCalls, toolDuration, runErrors];

  function record(ev: MetricEvent): void {
    if (ev.event === "llm") {
      const model = label("model", ev.model);
      llmRequests.inc(`${model},${label("status", ev.status)}`);
      if (ev.status === "ok") {
        llmTokens.inc('type="prompt"', ev.promptTokens || 0);
        llmTokens.inc('type="completion"', ev.completionTokens || 0);
      }
      llmDuration.observe(model, seconds(ev.ms));
    } else if (ev.event === "tool") {
      const tool = label("tool", ev.tool);
      toolCalls.inc(
        `${tool},${label("source", ev.source || "custom")},is_error="${ev.isError === true}",pending="${ev.pending === true}"`,
      );
      toolDuration.observe(tool, seconds(ev.ms));
    } else if (ev.event === "run" && ev.error !== undefined) {
      runErrors.inc(label("model", ev.model));
    }
  }

  return { record, render: () => `${all.flatMap((m) => m.lines()).join("\n")}\n` };
}
