// otelTelemetry: the loop's telemetry seam as OpenTelemetry spans, after the GenAI semantic conventions —
// `invoke_agent` per run and per resume, `chat <model>` per model call and `execute_tool <tool>` per tool
// call under it, a `pending` event per suspension, and a resumed run's span linked to the halted one's.
// Everything comes from the host's own tracer: nothing of @opentelemetry/api is imported at run time.
import type { Context, Span, Tracer } from "@opentelemetry/api";
import { ConfigError, type RunTelemetry, type Style, type Telemetry, type ToolCallReport } from "../index";
import { modelAttributes, errorType, runAttributes, serverOf, toolAttributes } from "./attributes";
import { emptyContext, resumeLink, spanRecord, withSpan } from "./context";
import * as n from "./names";

export interface OtelTelemetryOptions {
  /** The tracer the spans are made with: `provider.getTracer("my-app")`, or `trace.getTracer(…)`. */
  tracer: Tracer;
  /**
   * Also records content as span attributes: the messages sent and received, the system prompt, tool
   * arguments and results, and a request's prompt. Default false — they may hold personal data.
   */
  recordContent?: boolean;
  /**
   * The context each run's span is started in (its parent: the host's HTTP span, say), read when the run
   * starts. Default: the tracer's active context.
   */
  context?: () => Context | undefined;
}

/** A host that passes something else than a tracer hears so when it builds the telemetry. */
function checkOptions(options: OtelTelemetryOptions): void {
  const tracer = (options as Partial<OtelTelemetryOptions> | undefined)?.tracer;
  if (typeof tracer?.startSpan !== "function")
    throw new ConfigError(
      "tracer",
      'toolnexus/otel: otelTelemetry needs { tracer }, an OpenTelemetry Tracer — e.g. provider.getTracer("my-app") with @opentelemetry/api installed',
    );
  for (const key of ["recordContent", "context"] as const) {
    const value = options[key];
    const ok = value === undefined || typeof value === (key === "context" ? "function" : "boolean");
    if (!ok)
      throw new ConfigError(key, `toolnexus/otel: ${key} must be a ${key === "context" ? "function" : "boolean"}`);
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function otelTelemetry(options: OtelTelemetryOptions): Telemetry {
  checkOptions(options);
  return { run: (info) => quietly(() => runSpans(options, info), unobserved) };
}

/** What a run gets when its span could not be started: nothing is recorded, the run goes on. */
const unobserved: RunTelemetry = {
  resumed() {},
  model() {},
  tool() {},
  context: () => ({}),
  end() {},
};

/**
 * Runs `f`, swallowing what it throws: a failing tracer or exporter must never fail the run it observes.
 * Returns `fallback` then.
 */
function quietly<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

/** The spans of one run: its `invoke_agent` span, opened now, and its children, each made once it ended. */
function runSpans(options: OtelTelemetryOptions, info: { model: string; style: Style; baseUrl: string }): RunTelemetry {
  const { tracer } = options;
  const content = options.recordContent === true;
  const provider = { [n.PROVIDER]: n.PROVIDERS[info.style] ?? info.style };
  const parent = quietly(() => options.context?.(), undefined);
  const run = tracer.startSpan(
    "invoke_agent",
    {
      kind: n.SPAN_KIND_INTERNAL,
      attributes: { [n.OPERATION]: "invoke_agent", ...provider, [n.REQUEST_MODEL]: info.model },
    },
    parent,
  );
  const inRun = withSpan(parent ?? emptyContext(), run);
  let ended = false;
  const failed = (span: Span, error: unknown) => {
    const type = errorType(error);
    span.setAttribute(n.ERROR_TYPE, type);
    span.setStatus({ code: n.STATUS_ERROR, message: type });
  };

  const pending = (report: ToolCallReport) => {
    const request = report.request!;
    run.addEvent("pending", {
      [n.REQUEST_KIND]: request.kind,
      [n.REQUEST_ID]: request.id,
      [n.TOOL_NAME]: report.name,
      [n.TOOL_CALL_ID]: report.id,
      ...(content ? { [n.REQUEST_PROMPT]: request.prompt } : {}),
    });
  };

  return {
    resumed: (stored) =>
      quietly(() => {
        const found = resumeLink(stored, Date.now());
        if (!found) return;
        run.addLink(found.link);
        if (found.waitMs !== undefined) run.setAttribute(n.WAIT_MS, found.waitMs);
      }, undefined),
    model: (report) =>
      quietly(() => {
        const span = tracer.startSpan(
          `chat ${report.model}`,
          {
            kind: n.SPAN_KIND_CLIENT,
            startTime: report.started,
            attributes: {
              [n.OPERATION]: "chat",
              ...provider,
              [n.REQUEST_MODEL]: report.model,
              ...serverOf(info.baseUrl),
              ...modelAttributes(report, content),
            },
          },
          inRun,
        );
        if (report.error !== undefined) failed(span, report.error);
        span.end();
      }, undefined),
    tool: (report) =>
      quietly(() => {
        const span = tracer.startSpan(
          `execute_tool ${report.name}`,
          { kind: n.SPAN_KIND_INTERNAL, startTime: report.started, attributes: toolAttributes(report, content) },
          inRun,
        );
        if (report.request) pending(report);
        else if (report.result.isError) span.setStatus({ code: n.STATUS_ERROR, message: "tool_error" });
        span.end();
      }, undefined),
    context: () => quietly(() => spanRecord(run, Date.now()), {}),
    end: (result, error) =>
      quietly(() => {
        if (ended) return;
        ended = true;
        run.setAttributes(runAttributes(result, error));
        if (error !== undefined) failed(run, error);
        run.end();
      }, undefined),
  };
}
