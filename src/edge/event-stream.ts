// A run's StreamEvents as server-sent events, out of an edge function (page/read-events.ts reads them back).
// Each event is `event: <type>\ndata: <the whole event as JSON>\n\n`, so reading it back is exact.
// Page-safe by default: the `done` event's result carries no transcript (it holds the system prompt and
// every message) and no tool metadata beyond what the tool_call/tool_result events showed.
import { EVENT_STREAM_CONTENT_TYPE } from "../protocol/headers";
import { pageSafeEvent } from "../protocol/page-safe";
import type { StreamEvent } from "../types";
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
