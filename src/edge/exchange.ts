// One exchange (a new run, or a resume) served by the run handler: its events are driven by the handler, not
// by the page's reading, so a page that goes away (a reload) leaves the run going; they reach the page live
// and the run's exchange log in batches (exchange-log.ts), each with its id `<exchange>:<n>`. The exchange ends at
// its own end, at its deadline, or when a stop is asked for — from this isolate (at once) or any other
// (through the storage). A page that goes away before it got the response never learned the run's id, so
// nobody could come back to that run: it is stopped.
import { formatEventId } from "../protocol/event-id";
import { EVENT_STREAM_CONTENT_TYPE, RUN_ID_HEADER } from "../protocol/headers";
import type { StreamEvent } from "../types";
import { errorPayload, errorResponse, type ErrorPayload } from "./error-body";
import { encodeEvent, errorFrame } from "./event-stream";
import type { ExchangeLog, Logged, StoredHead } from "./exchange-log";

export interface ExchangePlan {
  /** The run's exchange log (its runId is the run's). */
  log: ExchangeLog;
  /** The head the run had before (undefined: a new run, or one the handler never saw) and its stored text. */
  before: StoredHead | undefined;
  owner: string | null;
  /** The client's events for this exchange, running under `signal`. */
  events(signal: AbortSignal): AsyncIterable<StreamEvent>;
  /** What a page may see of an event: undefined for one it is not shown. */
  visible(event: StreamEvent): StreamEvent | undefined;
  /** What a failure before the first event is answered with. */
  refusal(error: unknown): ErrorPayload;
  request: Request;
  /** The exchanges running in this isolate, by run id: a stop asked for here aborts one at once. */
  running: Map<string, AbortController>;
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** How the page reads the events (another protocol's frames, e.g. AG-UI's); default: StreamEvents as SSE. */
  speaks?: Speaks;
}

/** A protocol the events are sent in: one exchange's frames (stateful), its headers, its refusal. */
export interface Speaks {
  frames(): (item: Logged) => string;
  headers?: Record<string, string>;
  /** What a failure before the first event is answered with (default: the JSON error response). */
  refused?(payload: ErrorPayload): Response;
}

const sse = (runId: string, body: ReadableStream<Uint8Array>, speaks?: Speaks): Response =>
  new Response(body, {
    headers: {
      "content-type": EVENT_STREAM_CONTENT_TYPE,
      "cache-control": "no-store",
      [RUN_ID_HEADER]: runId,
      ...speaks?.headers,
    },
  });

const frameOf = (item: Logged) => encodeEvent(item.event, true, item.id);

/** The live page's events, encoded as they come; a page that goes away only stops listening (the storage keeps them). */
function liveBody(frame: (item: Logged) => string) {
  const encoder = new TextEncoder();
  let sink!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      sink = controller;
    },
    cancel() {
      open = false;
    },
  });
  return {
    body,
    push(item: Logged): void {
      if (open) sink.enqueue(encoder.encode(frame(item)));
    },
    end(): void {
      if (open) sink.close();
    },
  };
}

/**
 * Drives the stamped exchange to its end — every visible event logged and handed to the live page, then
 * the log closed — and answers with the live events.
 */
function drive(
  plan: ExchangePlan,
  controller: AbortController,
  iterator: AsyncIterator<StreamEvent>,
  first: IteratorResult<StreamEvent>,
  exchange: number,
): Response {
  const { log, running } = plan;
  const { runId } = log;
  const live = liveBody(plan.speaks?.frames() ?? frameOf);
  running.set(runId, controller);
  // once: the log written to its end, then its head says the exchange is over (unless a newer one began)
  let ended: Promise<void> | undefined;
  const ending = () => {
    if (running.get(runId) === controller) running.delete(runId);
    ended ??= log.close();
    return ended;
  };
  let n = 0;
  const emit = async (event: StreamEvent) => {
    const shown = plan.visible(event);
    if (!shown) return;
    const id = formatEventId(exchange, ++n);
    // the end is in the storage before the page sees it: a page that re-attaches, stops or answers at once
    // finds the exchange over
    if (shown.type === "done" || shown.type === "error") {
      await log.append(shown);
      await ending();
    } else void log.append(shown);
    live.push({ id, event: shown });
  };
  const done = (async () => {
    try {
      for (let step = first; !step.done; step = await iterator.next()) await emit(step.value);
    } catch (error) {
      await emit({ type: "error" as const, ...errorPayload(error) });
    } finally {
      live.end();
      await ending();
    }
  })();
  plan.waitUntil?.(done);
  return sse(runId, live.body, plan.speaks);
}

/** Serves one exchange: the response once its first event came (a failure before it is a plain error response). */
export async function serveExchange(plan: ExchangePlan): Promise<Response> {
  const { before, request } = plan;
  const controller = new AbortController();
  const goneEarly = () => controller.abort(request.signal.reason);
  request.signal.addEventListener("abort", goneEarly, { once: true });
  const iterator = plan.events(controller.signal)[Symbol.asyncIterator]();
  let first: IteratorResult<StreamEvent>;
  try {
    first = await iterator.next();
  } catch (error) {
    const payload = plan.refusal(error);
    return plan.speaks?.refused?.(payload) ?? errorResponse(payload);
  } finally {
    request.signal.removeEventListener("abort", goneEarly);
  }
  // the head is the owner's stamp: it is stored before the response reveals the run's id. A request that lost
  // the race for this exchange number (a kept outcome replayed beside a running resume) is served live only
  let exchange: number;
  try {
    exchange = await plan.log.stamp(before, plan.owner, () => controller.abort());
  } catch (error) {
    controller.abort(); // unstamped, the run could not be reached again: it does not go on
    await iterator.return?.().catch(() => {});
    return errorResponse(errorPayload(error));
  }
  return drive(plan, controller, iterator, first, exchange);
}

/**
 * The SSE response of the logged events `follow` reads (a replay), or a plain error response when it fails
 * before the first. A reader that goes away (the request's signal, or the body cancelled) ends the reading.
 */
export async function replayResponse(
  runId: string,
  signal: AbortSignal,
  follow: (signal: AbortSignal) => AsyncGenerator<Logged>,
  speaks?: Speaks,
): Promise<Response> {
  const reading = new AbortController();
  const gone = () => reading.abort();
  signal.addEventListener("abort", gone, { once: true });
  const events = follow(reading.signal);
  let step: IteratorResult<Logged> | undefined;
  try {
    step = await events.next();
  } catch (error) {
    return errorResponse(errorPayload(error));
  }
  const encoder = new TextEncoder();
  const frame = speaks?.frames() ?? frameOf;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const now = step ?? (await events.next());
        step = undefined;
        if (now.done) return controller.close();
        controller.enqueue(encoder.encode(frame(now.value)));
      } catch (error) {
        const failed = { event: { type: "error" as const, ...errorPayload(error) } };
        controller.enqueue(encoder.encode(speaks ? frame(failed) : errorFrame(error)));
        controller.close();
      }
    },
    cancel() {
      gone();
      void events.return(undefined);
    },
  });
  return sse(runId, body, speaks);
}
