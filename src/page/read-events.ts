// The page's reading of a run's event stream (what eventStreamResponse sends): each StreamEvent exactly as
// sent, and the endpoint's error body or `error` event as a ToolnexusError carrying the server's code — a
// RunConflictError with its `reason` for a conflict.
import { NetworkError, StreamError, type ToolnexusError } from "../errors";
import { parseSSE, readSSE } from "../_internal/sse";
import { type ErrorPayload, errorOfPayload, payloadOfBody, payloadOfFields } from "../protocol/error-body";
import type { StreamEvent } from "../types";

/** What a non-2xx response of the endpoint says: the server's own error, or a StreamError naming the status. */
export async function responseError(res: Response): Promise<ToolnexusError> {
  const payload = payloadOfBody(await res.json().catch(() => undefined));
  if (payload) return errorOfPayload(payload);
  return new StreamError(`toolnexus: the endpoint answered HTTP ${res.status}; check its URL and its logs`);
}

/** The event stream of an endpoint's response: its error as a ToolnexusError, a body of another kind refused. */
async function responseBody(res: Response): Promise<ReadableStream<Uint8Array>> {
  if (!res.ok) throw await responseError(res);
  const type = res.headers.get("content-type");
  if (!res.body || (type && !type.toLowerCase().includes("text/event-stream"))) {
    res.body?.cancel().catch(() => {});
    throw notEvents(`a ${res.body ? type : "bodiless"} response`);
  }
  return res.body;
}

async function bodyOf(source: Response | ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  if (typeof (source as ReadableStream).getReader === "function") return source as ReadableStream<Uint8Array>;
  return responseBody(source as Response);
}

/** What is not a stream eventStreamResponse made: a response of another kind, or an event that is not one of its. */
const notEvents = (got: string, cause?: unknown): StreamError =>
  new StreamError(`toolnexus: expected StreamEvents (from eventStreamResponse), got ${got}`, { cause });

/** fetch reports a lost connection as a TypeError in every runtime; anything else (an abort) stays as it is. */
function readFailure(error: unknown): unknown {
  // the parser refuses a line over its bound (64 Mi characters)
  if (error instanceof RangeError) return new StreamError(error.message, { cause: error });
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
  if (event === "error") throw errorOfPayload(payloadOfFields(data) ?? SERVER_FAILED);
  if (typeof data !== "object" || data === null || typeof (data as { type?: unknown }).type !== "string") {
    throw notEvents(`event "${event}"`);
  }
  return data as StreamEvent;
}

/** An `error` event without a code and a message of its own. */
const SERVER_FAILED: ErrorPayload = { code: "internal", message: "toolnexus: the run failed on the server" };

const ENDED_EARLY = "toolnexus: the event stream ended before its done event (cut off); run it again";

/** Thrown out of readSSE's callback to stop reading at the `done` event (it cancels the stream). */
const DONE = Symbol("done");

/**
 * Calls `onEvent` with each event of the stream, in order, and the id it was sent with (when it had one):
 * what a page plays and resumes from. Resolves after the `done` event; rejects as readEventStream throws.
 */
export async function readEvents(res: Response, onEvent: (event: StreamEvent, id?: string) => void): Promise<void> {
  const body = await responseBody(res);
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
