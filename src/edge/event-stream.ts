// A run's StreamEvents as server-sent events: out of an edge function, and back in a page.
// Each event is `event: <type>\ndata: <the whole event as JSON>\n\n`, so reading it back is exact.
// Page-safe by default: the `done` event's result carries no transcript (it holds the system prompt and
// every message) and no tool metadata beyond what the tool_call/tool_result events showed.
import { NetworkError, StreamError, type ToolnexusError } from "../errors";
import type { RunResult, StreamEvent, ToolCallRecord } from "../types";
import { parseSSE, readSSE } from "../_internal/sse";
import { type ErrorPayload, errorOfPayload, payloadOfBody, payloadOfFields } from "../protocol/error-body";
import { EVENT_STREAM_CONTENT_TYPE } from "../protocol/headers";
import { errorPayload, errorResponse } from "./error-body";

export interface EventStreamOptions {
  /** Send `result.messages` (the whole transcript, system prompt included) in the `done` event. Default false. */
  includeMessages?: boolean;
  /** Send `reasoning` events (the model's thinking) to the page. Default false: a page sees only its answer. */
  reasoning?: boolean;
  /** Headers added to the response (the error response too), e.g. CORS headers. */
  headers?: HeadersInit;
  /** The status of a stream that started. Default 200. */
  status?: number;
}

function frame(type: string, data: string, id?: string): string {
  const name = type.includes("\n") || type.includes("\r") ? type.replace(/[\r\n]/g, "") : type;
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`;
}

const visibleCall = ({ id, name, args, output, isError }: ToolCallRecord): ToolCallRecord => ({
  id,
  name,
  args,
  output,
  isError,
});

/** The result as a page may see it: no `messages`, tool calls as their events showed them. */
function pageSafe(result: RunResult): RunResult {
  const { messages: _transcript, ...rest } = result;
  return { ...rest, toolCalls: result.toolCalls.map(visibleCall) } as RunResult;
}

/** The event as a page may see it: a `done` result without its transcript (unless `includeMessages`). */
export function pageSafeEvent(event: StreamEvent, includeMessages = false): StreamEvent {
  return event.type === "done" && !includeMessages ? { type: "done", result: pageSafe(event.result) } : event;
}

/** One SSE frame of `event` (already page-safe when it needs to be), with its id when it has one. */
export function encodeEvent(event: StreamEvent, includeMessages: boolean, id?: string): string {
  return frame(String(event.type), JSON.stringify(pageSafeEvent(event, includeMessages)), id);
}

export function errorFrame(error: unknown): string {
  return frame("error", JSON.stringify({ type: "error", ...errorPayload(error) }));
}

/**
 * A `text/event-stream` Response that sends every event of `events` (e.g. `client.stream(...)`). It waits
 * for the first event: a failure before it is a plain JSON error response (`{ error: { code, message } }`,
 * 400/403/404/409 for what the caller can fix, 502 for the model upstream, else 500); a failure after it
 * ends the stream with an `error` event `{ type, code, message }` (never a stack). If the client goes
 * away, the iterable is closed with `return()`.
 */
export async function eventStreamResponse(
  events: AsyncIterable<StreamEvent>,
  options: EventStreamOptions = {},
): Promise<Response> {
  const includeMessages = options.includeMessages === true;
  const reasoning = options.reasoning === true;
  const iterator = events[Symbol.asyncIterator]();
  let buffered: IteratorResult<StreamEvent> | undefined;
  try {
    buffered = await iterator.next();
  } catch (error) {
    return errorResponse(errorPayload(error), options.headers);
  }
  const encoder = new TextEncoder();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text: string;
      let last = false;
      try {
        let next = buffered ?? (await iterator.next());
        buffered = undefined;
        // reasoning is held back unless the host asked for it
        while (!reasoning && !next.done && next.value.type === "reasoning") next = await iterator.next();
        if (next.done) {
          if (!cancelled) controller.close();
          return;
        }
        text = encodeEvent(next.value, includeMessages);
      } catch (error) {
        text = errorFrame(error);
        last = true;
        try {
          await iterator.return?.(); // still open when it was the event that failed (JSON cannot carry it)
        } catch {
          // already closed, or its cleanup failed: the client is told about the first failure only
        }
      }
      if (cancelled) return;
      controller.enqueue(encoder.encode(text));
      if (last) controller.close();
    },
    async cancel() {
      cancelled = true;
      await iterator.return?.();
    },
  });
  const headers = new Headers(options.headers);
  headers.set("content-type", EVENT_STREAM_CONTENT_TYPE);
  if (!headers.has("cache-control")) headers.set("cache-control", "no-cache");
  return new Response(body, { status: options.status ?? 200, headers });
}

// --- reading it back ---------------------------------------------------------------------------------

/** What a non-2xx response of the endpoint says: the server's own error, or a StreamError naming the status. */
export async function responseError(res: Response): Promise<ToolnexusError> {
  const payload = payloadOfBody(await res.json().catch(() => undefined));
  if (payload) return errorOfPayload(payload);
  return new StreamError(`toolnexus: the endpoint answered HTTP ${res.status}; check its URL and its logs`);
}

async function bodyOf(source: Response | ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  if (typeof (source as ReadableStream).getReader === "function") return source as ReadableStream<Uint8Array>;
  const res = source as Response;
  if (!res.ok) throw await responseError(res);
  const type = res.headers.get("content-type");
  if (!res.body || (type && !type.toLowerCase().includes("text/event-stream"))) {
    res.body?.cancel().catch(() => {});
    throw notEvents(`a ${res.body ? type : "bodiless"} response`);
  }
  return res.body;
}

/** What is not a stream eventStreamResponse made: a response of another kind, or an event that is not one of its. */
const notEvents = (got: string, cause?: unknown): StreamError =>
  new StreamError(`toolnexus: expected StreamEvents (from eventStreamResponse), got ${got}`, { cause });

/** fetch reports a lost connection as a TypeError in every runtime; anything else (an abort) stays as it is. */
function readFailure(error: unknown): unknown {
  if (!(error instanceof TypeError)) return error;
  return new NetworkError("toolnexus: the event stream's connection was lost; try again", { cause: error });
}

function eventOf(event: string, text: string): StreamEvent {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw notEvents(`event "${event}" (not JSON)`, error);
  }
  if (event === "error") throw errorOfPayload(errorEventPayload(data));
  if (typeof data !== "object" || data === null || typeof (data as { type?: unknown }).type !== "string") {
    throw notEvents(`event "${event}"`);
  }
  return data as StreamEvent;
}

/** An `error` event's fields, a code or message that is not a string replaced. */
function errorEventPayload(data: unknown): ErrorPayload {
  const { code, reason, message } = (data ?? {}) as Record<string, unknown>;
  return payloadOfFields({
    code: typeof code === "string" ? code : "internal",
    reason,
    message: typeof message === "string" ? message : "toolnexus: the run failed on the server",
  }) as ErrorPayload;
}

const ENDED_EARLY = "toolnexus: the event stream ended before its done event (cut off); run it again";

/** Thrown out of readSSE's callback to stop reading at the `done` event (it cancels the stream). */
const DONE = Symbol("done");

/**
 * Calls `onEvent` with each event of the stream, in order, and the id it was sent with (when it had one):
 * what a page plays and resumes from. Resolves after the `done` event; rejects as readEventStream throws.
 */
export async function readEvents(
  source: Response | ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent, id?: string) => void,
): Promise<void> {
  const body = await bodyOf(source);
  let listening = false; // what onEvent throws is its own error, never a lost connection
  try {
    await readSSE(body, (sse) => {
      const event = eventOf(sse.event, sse.data);
      listening = true;
      onEvent(event, sse.id);
      listening = false;
      if (event.type === "done") throw DONE;
    });
  } catch (error) {
    if (error === DONE) return;
    throw listening ? error : readFailure(error);
  }
  throw new StreamError(ENDED_EARLY);
}

/**
 * The StreamEvents of a response made by {@link eventStreamResponse}, exactly as they were sent. Throws a
 * ToolnexusError whose `code` is the server's for an error response or an `error` event; a `NetworkError`
 * when the connection drops; a `StreamError` for a stream that ends before its `done` event or is not
 * one. Breaking out of the loop cancels the stream.
 */
export async function* readEventStream(
  source: Response | ReadableStream<Uint8Array>,
): AsyncGenerator<StreamEvent, void, undefined> {
  const sse = parseSSE(await bodyOf(source));
  try {
    for (;;) {
      let step: IteratorResult<{ event: string; data: string }>;
      try {
        step = await sse.next();
      } catch (error) {
        throw readFailure(error);
      }
      if (step.done) break;
      const event = eventOf(step.value.event, step.value.data);
      yield event;
      if (event.type === "done") return;
    }
  } finally {
    await sse.return?.();
  }
  throw new StreamError(ENDED_EARLY);
}
