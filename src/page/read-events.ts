// The page's reading of a run's event stream (what eventStreamResponse sends): each StreamEvent exactly as
// sent, with the id it was sent with, and the endpoint's error body or `error` event as a ToolnexusError
// carrying the server's code — a RunConflictError with its `reason` for a conflict.
import { NetworkError, StreamError, type ToolnexusError } from "../errors";
import { type ErrorPayload, errorOfPayload, payloadOfBody, payloadOfFields } from "../protocol/error-body";
import type { StreamEvent } from "../types";

/** What a non-2xx response of the endpoint says: the server's own error, or a StreamError naming the status. */
export async function responseError(res: Response): Promise<ToolnexusError> {
  const payload = payloadOfBody(await res.json().catch(() => undefined));
  if (payload) return errorOfPayload(payload);
  return new StreamError(`toolnexus: the endpoint answered HTTP ${res.status}; check its URL and its logs`);
}

/** The event stream of an endpoint's response: its error as a ToolnexusError, a body of another kind refused. */
export async function responseBody(res: Response): Promise<ReadableStream<Uint8Array>> {
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

/**
 * Each event of an endpoint's stream with the id it was sent with (when it had one), to its `done` event: what a
 * page plays and resumes from; it throws as readEventStream does, and lets the stream go when reading ends.
 *
 * It reads the frames as eventStreamResponse writes them: lines ended by LF (a CR before it dropped), the
 * fields `event`, `data` and `id`, a blank line ending a frame that has data; comments and other fields are
 * skipped. A provider's streams, with every line end the SSE spec allows and a bound on a line, are read by
 * `_internal/sse.ts` instead.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: StreamEvent; id: string | undefined }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  let name = "";
  let data: string | undefined;
  let id: string | undefined;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const text = decoder.decode(chunk.value, { stream: true });
      rest += text;
      if (!text.includes("\n")) continue; // a line still arriving
      const lines = rest.split("\n");
      rest = lines.pop() as string;
      for (const raw of lines) {
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (line) {
          const at = line.indexOf(":");
          const field = at === -1 ? line : line.slice(0, at);
          const value = at === -1 ? "" : line.slice(line[at + 1] === " " ? at + 2 : at + 1);
          if (field === "data") data = data === undefined ? value : `${data}\n${value}`;
          else if (field === "event") name = value;
          else if (field === "id") id = value;
          continue;
        }
        // a blank line ends the frame
        if (data !== undefined) {
          const event = eventOf(name || "message", data);
          yield { event, id };
          if (event.type === "done") return;
        }
        name = "";
        data = undefined;
      }
    }
  } catch (error) {
    // fetch reports a lost connection as a TypeError in every runtime; an abort stays an abort
    if (!(error instanceof TypeError)) throw error;
    throw new NetworkError("toolnexus: the event stream's connection was lost; try again", { cause: error });
  } finally {
    reader.cancel().catch(() => {});
  }
  throw new StreamError("toolnexus: the event stream ended before its done event (cut off); run it again");
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
  for await (const { event } of readEvents(await bodyOf(source))) yield event;
}
