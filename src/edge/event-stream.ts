// A run's StreamEvents as server-sent events: out of an edge function, and back in a page.
// Each event is `event: <type>\ndata: <the whole event as JSON>\n\n`, so reading it back is exact.
import { isToolnexusError, StreamError } from "../errors";
import type { StreamEvent } from "../types";
import { parseSSE } from "../wire/sse";

interface ErrorPayload {
  code: string;
  message: string;
}

// Only our own errors are described to the client: their messages are written never to hold secrets.
function errorPayload(error: unknown): ErrorPayload {
  if (isToolnexusError(error)) return { code: error.code, message: error.message };
  return {
    code: "internal",
    message: "toolnexus: the run failed on the server with an unexpected error (details stay on the server)",
  };
}

function frame(type: string, data: string): string {
  const name = type.includes("\n") || type.includes("\r") ? type.replace(/[\r\n]/g, "") : type;
  return `event: ${name}\ndata: ${data}\n\n`;
}

/**
 * A `text/event-stream` Response that sends every event of `events` (e.g. `client.stream(...)`).
 * If the iterable throws, the stream ends with `event: error` carrying `{ code, message }` (never a
 * stack); if the client goes away, the iterable is closed with `return()`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function eventStreamResponse(events: AsyncIterable<StreamEvent>, init?: ResponseInit): Response {
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<StreamEvent> | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      iterator ??= events[Symbol.asyncIterator]();
      let text: string;
      let last = false;
      try {
        const next = await iterator.next();
        if (next.done) {
          if (!cancelled) controller.close();
          return;
        }
        text = frame(String(next.value.type), JSON.stringify(next.value));
      } catch (error) {
        text = frame("error", JSON.stringify(errorPayload(error)));
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
      await iterator?.return?.();
    },
  });
  const headers = new Headers(init?.headers);
  headers.set("content-type", "text/event-stream; charset=utf-8");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-cache");
  return new Response(body, { ...init, headers });
}

function bodyOf(source: Response | ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  if (typeof (source as ReadableStream).getReader === "function") return source as ReadableStream<Uint8Array>;
  const res = source as Response;
  if (!res.ok) {
    res.body?.cancel().catch(() => {});
    throw new StreamError(
      `toolnexus: the event stream request failed with HTTP ${res.status} — check the endpoint's URL and its logs`,
    );
  }
  const type = res.headers.get("content-type");
  if (!res.body || (type && !type.toLowerCase().includes("text/event-stream"))) {
    res.body?.cancel().catch(() => {});
    throw new StreamError(
      `toolnexus: expected a text/event-stream response, got ${res.body ? type : "no body"} — serve it with eventStreamResponse(events)`,
    );
  }
  return res.body;
}

function remoteError(data: unknown): StreamError {
  const payload = (typeof data === "object" && data !== null ? data : {}) as Partial<ErrorPayload>;
  const code = typeof payload.code === "string" ? payload.code : "internal";
  const message = typeof payload.message === "string" ? payload.message : "no message";
  return new StreamError(`toolnexus: the run failed on the server (${code}): ${message}`, { cause: { code, message } });
}

/**
 * The StreamEvents of a response made by {@link eventStreamResponse}, exactly as they were sent. Throws
 * `StreamError` for a non-2xx response, an `error` event (its `{ code, message }` is the error's
 * `cause`), or a stream that ends before its `done` event. Breaking out of the loop cancels the stream.
 */
export async function* readEventStream(
  source: Response | ReadableStream<Uint8Array>,
): AsyncGenerator<StreamEvent, void, undefined> {
  for await (const sse of parseSSE(bodyOf(source))) {
    let data: unknown;
    try {
      data = JSON.parse(sse.data);
    } catch (error) {
      throw new StreamError(
        `toolnexus: event "${sse.event}" in the event stream is not JSON — serve the stream with eventStreamResponse(events)`,
        { cause: error },
      );
    }
    if (sse.event === "error") throw remoteError(data);
    if (typeof data !== "object" || data === null || typeof (data as { type?: unknown }).type !== "string") {
      throw new StreamError(
        `toolnexus: event "${sse.event}" in the event stream is not a StreamEvent — serve the stream with eventStreamResponse(events)`,
      );
    }
    yield data as StreamEvent;
    if (sse.event === "done") return;
  }
  throw new StreamError(
    "toolnexus: the event stream ended before its done event — the connection was cut or the server stopped early; run it again",
  );
}
