// Parent contexts for the spans, passed explicitly to `tracer.startSpan(name, options, context)`: the core
// runs in browsers and workerd, where no context manager follows a run across its awaits. They are made
// without importing @opentelemetry/api, so that this subpath costs a page nothing of it beyond the tracer
// the host already has.
import type { Context, Link, Span, SpanContext } from "@opentelemetry/api";

/**
 * The key @opentelemetry/api keeps a context's span under (`trace.setSpan` / `trace.getSpan`): it is
 * `Symbol.for` of this description, so every copy of the api, and this file, name the same key.
 */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** An immutable context: `setValue` returns a new one, as @opentelemetry/api's own does. */
class Values implements Context {
  constructor(private readonly values: ReadonlyMap<symbol, unknown>) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return new Values(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): Context {
    const next = new Map(this.values);
    next.delete(key);
    return new Values(next);
  }
}

/** A context with nothing in it (the api's ROOT_CONTEXT). */
export const emptyContext = (): Context => new Values(new Map());

/** `parent` with `span` as its current span: what its children are started in. */
export const withSpan = (parent: Context, span: Span): Context => parent.setValue(SPAN_KEY, span);

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const INVALID = /^0+$/;

/**
 * What a halted run's record keeps of its span, as plain JSON: its trace and span ids and flags, and when
 * it halted (ms since the epoch). A span that records nothing (a no-op tracer) keeps nothing.
 */
export function spanRecord(span: Span, now: number): Record<string, unknown> {
  const { traceId, spanId, traceFlags } = span.spanContext();
  if (INVALID.test(traceId) || INVALID.test(spanId)) return {};
  return { traceId, spanId, traceFlags, at: now };
}

/**
 * The link from a resumed run's span to the span of the run that halted, read back from its record, and how
 * long the answer was waited for. A stored value that is not one (an older record, a hand edit) links nothing.
 */
export function resumeLink(stored: unknown, now: number): { link: Link; waitMs: number | undefined } | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const { traceId, spanId, traceFlags, at } = stored as Record<string, unknown>;
  if (typeof traceId !== "string" || !HEX32.test(traceId) || INVALID.test(traceId)) return undefined;
  if (typeof spanId !== "string" || !HEX16.test(spanId) || INVALID.test(spanId)) return undefined;
  const flags = typeof traceFlags === "number" && traceFlags >= 0 && traceFlags <= 255 ? traceFlags : 0;
  const waitMs = typeof at === "number" && Number.isFinite(at) ? Math.max(0, now - at) : undefined;
  return {
    link: {
      context: { traceId, spanId, traceFlags: flags, isRemote: true },
      attributes: { "toolnexus.link": "resumed_from" },
    },
    waitMs,
  };
}

/**
 * A span that records nothing and only carries `context`: a remote parent (the api's `wrapSpanContext`), so
 * that a span started under it joins that trace.
 */
class RemoteSpan implements Span {
  constructor(private readonly context: SpanContext) {}
  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(): this {
    return this;
  }
  setAttributes(): this {
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(): this {
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {}
  isRecording(): boolean {
    return false;
  }
  recordException(): void {}
}

/** `parent` with the remote span of `link` (a halted run's span) as its current span. */
export const underLink = (parent: Context, link: Link): Context => withSpan(parent, new RemoteSpan(link.context));
