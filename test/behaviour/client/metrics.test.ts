// The Prometheus text behind client.metrics(), byte for byte.
import { describe, expect, it } from "vitest";
import type { MetricEvent } from "toolnexus";
import { createMetrics } from "../../support/internals";

const HEAD = {
  llmRequests: [
    "# HELP toolnexus_llm_requests_total Total LLM requests.",
    "# TYPE toolnexus_llm_requests_total counter",
  ],
  llmTokens: ["# HELP toolnexus_llm_tokens_total Total tokens, by type.", "# TYPE toolnexus_llm_tokens_total counter"],
  llmDuration: [
    "# HELP toolnexus_llm_request_duration_seconds LLM request duration in seconds.",
    "# TYPE toolnexus_llm_request_duration_seconds histogram",
  ],
  toolCalls: ["# HELP toolnexus_tool_calls_total Total tool calls.", "# TYPE toolnexus_tool_calls_total counter"],
  toolDuration: [
    "# HELP toolnexus_tool_duration_seconds Tool execution duration in seconds.",
    "# TYPE toolnexus_tool_duration_seconds histogram",
  ],
  runErrors: ["# HELP toolnexus_run_errors_total Total run errors.", "# TYPE toolnexus_run_errors_total counter"],
};

const LE = ["0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60"];
/** One histogram series: 10 cumulative buckets, +Inf, _sum, _count. */
const series = (name: string, labels: string, buckets: number[], sum: string, count: number): string[] => [
  ...LE.map((le, i) => `${name}_bucket{${labels},le="${le}"} ${buckets[i]}`),
  `${name}_bucket{${labels},le="+Inf"} ${count}`,
  `${name}_sum{${labels}} ${sum}`,
  `${name}_count{${labels}} ${count}`,
];
const text = (lines: string[]) => `${lines.join("\n")}\n`;
// a Prometheus exposition line: comment, or name{labels} value
const PROM_LINE = /^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)+\})? -?[0-9.e+-]+)$/;

describe("createMetrics().render()", () => {
  it("renders only the 12 HELP/TYPE lines before any activity", () => {
    const out = createMetrics().render();
    expect(out).toBe(
      text([
        ...HEAD.llmRequests,
        ...HEAD.llmTokens,
        ...HEAD.llmDuration,
        ...HEAD.toolCalls,
        ...HEAD.toolDuration,
        ...HEAD.runErrors,
      ]),
    );
    expect(out.split("\n")).toHaveLength(13); // 12 lines + the trailing newline
  });

  it("renders one ok call exactly (gpt-x, 3+2 tokens, 4 ms)", () => {
    const m = createMetrics();
    m.record({ event: "llm", model: "gpt-x", status: "ok", ms: 4, promptTokens: 3, completionTokens: 2 });
    expect(m.render()).toBe(
      [
        "# HELP toolnexus_llm_requests_total Total LLM requests.",
        "# TYPE toolnexus_llm_requests_total counter",
        'toolnexus_llm_requests_total{model="gpt-x",status="ok"} 1',
        "# HELP toolnexus_llm_tokens_total Total tokens, by type.",
        "# TYPE toolnexus_llm_tokens_total counter",
        'toolnexus_llm_tokens_total{type="completion"} 2',
        'toolnexus_llm_tokens_total{type="prompt"} 3',
        "# HELP toolnexus_llm_request_duration_seconds LLM request duration in seconds.",
        "# TYPE toolnexus_llm_request_duration_seconds histogram",
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="0.05"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="0.1"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="0.25"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="0.5"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="1"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="2.5"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="5"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="10"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="30"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="60"} 1',
        'toolnexus_llm_request_duration_seconds_bucket{model="gpt-x",le="+Inf"} 1',
        'toolnexus_llm_request_duration_seconds_sum{model="gpt-x"} 0.004',
        'toolnexus_llm_request_duration_seconds_count{model="gpt-x"} 1',
        "# HELP toolnexus_tool_calls_total Total tool calls.",
        "# TYPE toolnexus_tool_calls_total counter",
        "# HELP toolnexus_tool_duration_seconds Tool execution duration in seconds.",
        "# TYPE toolnexus_tool_duration_seconds histogram",
        "# HELP toolnexus_run_errors_total Total run errors.",
        "# TYPE toolnexus_run_errors_total counter",
        "",
      ].join("\n"),
    );
  });

  it("renders a scripted run: sorted series, 4-label tool counter, bucket edges, errors, escaping", () => {
    const m = createMetrics();
    const weird = 'say "hi"\\path\nline';
    const events: MetricEvent[] = [
      { event: "llm", model: "b", status: "ok", ms: 50, promptTokens: 10, completionTokens: 5 },
      { event: "llm", model: "a", status: "error", ms: 1500, promptTokens: 7, completionTokens: 7 }, // error ⇒ no tokens
      { event: "llm", model: "b", status: "ok", ms: 51, promptTokens: 1, completionTokens: 1 },
      { event: "tool", tool: "search", source: "native", isError: false, ms: 100 },
      { event: "tool", tool: "search", source: "native", isError: true, ms: 250 },
      { event: "tool", tool: "ask", source: "", isError: false, ms: 70_000, pending: true },
      { event: "tool", tool: weird, source: "native", isError: false, ms: 0 },
      { event: "run", model: "b", turns: 2, toolCalls: 3, totalTokens: 17, ms: 900 }, // no error ⇒ nothing
      { event: "run", model: "a", turns: 1, toolCalls: 0, totalTokens: 0, ms: 1600, error: "LLM 503" },
    ];
    for (const ev of events) m.record(ev);
    const out = m.render();
    expect(out).toBe(
      text([
        ...HEAD.llmRequests,
        'toolnexus_llm_requests_total{model="a",status="error"} 1',
        'toolnexus_llm_requests_total{model="b",status="ok"} 2',
        ...HEAD.llmTokens,
        'toolnexus_llm_tokens_total{type="completion"} 6',
        'toolnexus_llm_tokens_total{type="prompt"} 11',
        ...HEAD.llmDuration,
        ...series("toolnexus_llm_request_duration_seconds", 'model="a"', [0, 0, 0, 0, 0, 1, 1, 1, 1, 1], "1.5", 1),
        ...series("toolnexus_llm_request_duration_seconds", 'model="b"', [1, 2, 2, 2, 2, 2, 2, 2, 2, 2], "0.101", 2),
        ...HEAD.toolCalls,
        'toolnexus_tool_calls_total{tool="ask",source="custom",is_error="false",pending="true"} 1',
        'toolnexus_tool_calls_total{tool="say \\"hi\\"\\\\path\\nline",source="native",is_error="false",pending="false"} 1',
        'toolnexus_tool_calls_total{tool="search",source="native",is_error="false",pending="false"} 1',
        'toolnexus_tool_calls_total{tool="search",source="native",is_error="true",pending="false"} 1',
        ...HEAD.toolDuration,
        ...series("toolnexus_tool_duration_seconds", 'tool="ask"', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "70", 1),
        ...series(
          "toolnexus_tool_duration_seconds",
          'tool="say \\"hi\\"\\\\path\\nline"',
          [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
          "0",
          1,
        ),
        ...series("toolnexus_tool_duration_seconds", 'tool="search"', [0, 1, 2, 2, 2, 2, 2, 2, 2, 2], "0.35", 2),
        ...HEAD.runErrors,
        'toolnexus_run_errors_total{model="a"} 1',
      ]),
    );
    for (const line of out.trimEnd().split("\n")) expect(line).toMatch(PROM_LINE);
  });

  it("keeps registries apart", () => {
    const a = createMetrics();
    const b = createMetrics();
    a.record({ event: "run", model: "m", turns: 0, toolCalls: 0, totalTokens: 0, ms: 1, error: "boom" });
    expect(a.render()).toContain('toolnexus_run_errors_total{model="m"} 1');
    expect(b.render()).not.toContain("model=");
  });
});
