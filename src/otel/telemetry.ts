// otelTelemetry: the loop's telemetry seam as OpenTelemetry spans, after the GenAI semantic conventions —
// `invoke_agent` per run and per resume, `chat <model>` per model call and `execute_tool <tool>` per tool
// call under it — open while the tool runs, so a run the tool starts (an agent's `task`) is its child — a
// `pending` event per suspension, and a resumed run's span a child of the halted one's (one trace across the
// halt), linked to it too; a run started inside a tool stays under that tool's span and is linked only.
// Everything comes from the host's own tracer: nothing of @opentelemetry/api is imported at run time.
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import {
  ConfigError,
  type RunTelemetry,
  type Style,
  type Telemetry,
  type ToolCallReport,
  type ModelCallReport,
} from "../index";
import { modelAttributes, errorType, runAttributes, serverOf, toolAttributes } from "./attributes";
import { emptyContext, resumeLink, spanRecord, underLink, withSpan } from "./context";
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

/** A run's `invoke_agent` span, started when first needed, back-dated to when the run started. */
interface RunSpan {
  /** The span, and the context its children are started in. */
  open(): { span: Span; context: Context };
  /** A resume of a halted run: the run's span starts under the halted run's span and links to it. */
  resumedFrom(stored: unknown): void;
}

/** What a run started inside a tool passes as its parent: that call's context (see `toolStarted`). */
const isContext = (v: unknown): v is Context => typeof (v as Context | undefined)?.getValue === "function";

function runSpan(
  options: OtelTelemetryOptions,
  provider: Record<string, string>,
  model: string,
  agent?: string,
  within?: unknown,
): RunSpan {
  const started = Date.now();
  // inside a tool call (an agent's task): under that call's span, across a halt too
  const nested = isContext(within);
  let parent = nested ? within : quietly(() => options.context?.(), undefined);
  let from: ReturnType<typeof resumeLink>;
  let opened: { span: Span; context: Context } | undefined;
  return {
    open() {
      if (opened) return opened;
      const attributes = {
        [n.OPERATION]: "invoke_agent",
        ...provider,
        [n.REQUEST_MODEL]: model,
        ...(agent === undefined ? {} : { [n.AGENT_NAME]: agent }),
      };
      if (from?.waitMs !== undefined) Object.assign(attributes, { [n.WAIT_MS]: from.waitMs });
      const links = from ? [from.link] : [];
      const span = options.tracer.startSpan(
        agent === undefined ? "invoke_agent" : `invoke_agent ${agent}`,
        { kind: n.SPAN_KIND_INTERNAL, startTime: started, attributes, links },
        parent,
      );
      opened = { span, context: withSpan(parent ?? emptyContext(), span) };
      return opened;
    },
    resumedFrom(stored) {
      const found = resumeLink(stored, Date.now());
      if (!found || opened) return;
      // the halted run's span is the parent (one trace across the halt) and stays linked; a run inside a tool
      // call keeps that call's span as its parent and is linked to the halted one
      from = found;
      if (!nested) parent = underLink(parent ?? emptyContext(), found.link);
    },
  };
}

/** A span that ended with `error`: its type as `error.type` and the span's status. */
function failed(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute(n.ERROR_TYPE, type);
  span.setStatus({ code: n.STATUS_ERROR, message: type });
}

/** A suspension, as an event on the run's span: the request's kind and id, its prompt only with content on. */
function pending(span: Span, report: ToolCallReport, content: boolean): void {
  const request = report.request!;
  span.addEvent("pending", {
    [n.REQUEST_KIND]: request.kind,
    [n.REQUEST_ID]: request.id,
    [n.TOOL_NAME]: report.name,
    [n.TOOL_CALL_ID]: report.id,
    ...(content ? { [n.REQUEST_PROMPT]: request.prompt } : {}),
  });
}

/** A model call's span, made once the call ended (it starts when the call did), failed with its error. */
function chatSpan(tracer: Tracer, parent: Context, report: ModelCallReport, attributes: Attributes): void {
  const span = tracer.startSpan(
    `chat ${report.model}`,
    { kind: n.SPAN_KIND_CLIENT, startTime: report.started, attributes },
    parent,
  );
  if (report.error !== undefined) failed(span, report.error);
  span.end();
}

/**
 * The spans of one run: its `invoke_agent` span — a resume's under the span of the run that halted, so that
 * a suspension and its answer read as one trace — and its children: a model call's made once it ended, a
 * tool call's opened when it starts and ended with it.
 */
function runSpans(
  options: OtelTelemetryOptions,
  info: { model: string; style: Style; baseUrl: string; agent?: string | undefined; parent?: unknown },
): RunTelemetry {
  const { tracer } = options;
  const content = options.recordContent === true;
  const provider = { [n.PROVIDER]: n.PROVIDERS[info.style] ?? info.style };
  const run = runSpan(options, provider, info.model, info.agent, info.parent);
  /** The tool calls' spans open now, by call id. */
  const tools = new Map<string, Span>();
  let ended = false;
  const toolSpan = (id: string, name: string, startTime?: number) => {
    const attributes = { [n.OPERATION]: "execute_tool", [n.TOOL_NAME]: name, [n.TOOL_CALL_ID]: id };
    const options = { kind: n.SPAN_KIND_INTERNAL, attributes, ...(startTime === undefined ? {} : { startTime }) };
    return tracer.startSpan(`execute_tool ${name}`, options, run.open().context);
  };

  return {
    resumed: (stored) => quietly(() => run.resumedFrom(stored), undefined),
    model: (report) =>
      quietly(() => {
        const attributes = {
          [n.OPERATION]: "chat",
          ...provider,
          [n.REQUEST_MODEL]: report.model,
          ...serverOf(info.baseUrl),
          ...modelAttributes(report, content),
        };
        chatSpan(tracer, run.open().context, report, attributes);
      }, undefined),
    toolStarted: (call) =>
      quietly(() => {
        const span = toolSpan(call.id, call.name);
        tools.set(call.id, span);
        return withSpan(run.open().context, span);
      }, undefined),
    tool: (report) =>
      quietly(() => {
        const span = tools.get(report.id) ?? toolSpan(report.id, report.name, report.started);
        tools.delete(report.id);
        span.setAttributes(toolAttributes(report, content));
        if (report.request) pending(run.open().span, report, content);
        else if (report.result.isError) span.setStatus({ code: n.STATUS_ERROR, message: "tool_error" });
        span.end();
      }, undefined),
    context: () => quietly(() => spanRecord(run.open().span, Date.now()), {}),
    end: (result, error) =>
      quietly(() => {
        if (ended) return;
        ended = true;
        // a call the run did not see end (its run failed under it) ends with the run
        for (const open of tools.values()) open.end();
        tools.clear();
        const { span } = run.open();
        span.setAttributes(runAttributes(result, error));
        if (error !== undefined) failed(span, error);
        span.end();
      }, undefined),
  };
}
