// One exchange (a new run, or a resume) served by the run handler: its events are driven by the handler, not
// by the page's reading, so a page that goes away (a reload) leaves the run going; they reach the page live
// and the run's storage in batches (log-writer.ts), each with its id `<exchange>:<n>`. The exchange ends at
// its own end, at its deadline, or when a stop is asked for — from this isolate (at once) or any other
// (through the storage). A page that goes away before it got the response never learned the run's id, so
// nobody could come back to that run: it is stopped.
import type { RunStorage, SetOptions, StreamEvent } from "../types";
import { errorPayload, errorResponse, type ErrorPayload } from "./error-body";
import { encodeEvent } from "./event-stream";
import { type Head, type Logged, readHead, writeHead } from "./exchange-log";
import { logWriter, type LogWriter } from "./log-writer";

export interface ExchangePlan {
  storage: RunStorage;
  runId: string;
  /** The head the run had before (undefined: a new run, or one the handler never saw) and its stored text. */
  before: { head: Head; raw: string } | undefined;
  owner: string | null;
  ttl: SetOptions;
  /** The client's events for this exchange, running under `signal`. */
  events(signal: AbortSignal): AsyncIterable<StreamEvent>;
  /** What a page may see of an event: undefined for one it is not shown. */
  visible(event: StreamEvent): StreamEvent | undefined;
  /** What a failure before the first event is answered with. */
  refusal(error: unknown): ErrorPayload;
  request: Request;
  /** The exchanges running in this isolate, by run id: a stop asked for here aborts one at once. */
  running: Map<string, AbortController>;
  waitUntil?: (promise: Promise<unknown>) => void;
}

/** Events handed from the exchange to the page reading it live; a page that goes away only stops listening. */
function channel() {
  const queue: Logged[] = [];
  let wake: (() => void) | undefined;
  let over = false;
  let detached = false;
  return {
    push(item: Logged) {
      if (detached) return; // nobody reads: the storage keeps it for whoever comes back
      queue.push(item);
      wake?.();
    },
    detach() {
      detached = true;
      queue.length = 0;
    },
    end() {
      over = true;
      wake?.();
    },
    async next(): Promise<Logged | undefined> {
      while (queue.length === 0 && !over) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      return queue.shift();
    },
  };
}

/** The SSE response of the live events: `id:` on each, the run's id in a header. */
function liveResponse(runId: string, live: ReturnType<typeof channel>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const item = await live.next();
      if (!item) return controller.close();
      controller.enqueue(encoder.encode(encodeEvent(item.event, true, item.id)));
    },
    cancel: () => live.detach(),
  });
  return new Response(body, { headers: sseHeaders(runId) });
}

export function sseHeaders(runId: string): Headers {
  return new Headers({
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "toolnexus-run-id": runId,
  });
}

/** Drives the exchange to its end: every visible event logged and handed to the live page, then the head closed. */
async function drive(
  plan: ExchangePlan,
  iterator: AsyncIterator<StreamEvent>,
  first: IteratorResult<StreamEvent>,
  log: LogWriter | undefined,
  exchange: number,
  live: ReturnType<typeof channel>,
  ending: () => Promise<void>,
): Promise<void> {
  let n = 0;
  const emit = async (event: StreamEvent) => {
    const shown = plan.visible(event);
    if (!shown) return;
    const id = `${exchange}:${++n}`;
    // the end is in the storage before the page sees it: a page that re-attaches, stops or answers at once
    // finds the exchange over
    if (shown.type === "done" || shown.type === "error") {
      await log?.append(shown);
      await ending();
    } else void log?.append(shown);
    live.push({ id, event: shown });
  };
  try {
    for (let step = first; !step.done; step = await iterator.next()) await emit(step.value);
  } catch (error) {
    await emit({ type: "error", ...errorPayload(error) } as StreamEvent);
  } finally {
    live.end();
  }
}

/**
 * Writes the head of the exchange `head` starts: over the head the request found, or — when only the end
 * of the exchange before was written meanwhile (a page that answered as soon as it saw `pending`) — over
 * that. Resolves undefined when another request began this exchange number first.
 */
async function stamp(plan: ExchangePlan, head: Head): Promise<string | undefined> {
  let expected = plan.before?.raw;
  for (let tries = 0; tries < 3; tries++) {
    const raw = await writeHead(plan.storage, plan.runId, expected, head, plan.ttl);
    if (raw !== undefined || expected === undefined) return raw;
    const now = await readHead(plan.storage, plan.runId);
    if (now?.head.exchange !== head.exchange - 1 || now.head.owner !== head.owner) return undefined;
    expected = now.raw;
  }
  return undefined;
}

/** Serves one exchange: the response once its first event came (a failure before it is a plain error response). */
export async function serveExchange(plan: ExchangePlan): Promise<Response> {
  const { storage, runId, before } = plan;
  const controller = new AbortController();
  const goneEarly = () => controller.abort(plan.request.signal.reason);
  plan.request.signal.addEventListener("abort", goneEarly, { once: true });
  const iterator = plan.events(controller.signal)[Symbol.asyncIterator]();
  let first: IteratorResult<StreamEvent>;
  try {
    first = await iterator.next();
  } catch (error) {
    return errorResponse(plan.refusal(error));
  } finally {
    plan.request.signal.removeEventListener("abort", goneEarly);
  }
  const exchange = (before?.head.exchange ?? 0) + 1;
  const head: Head = { v: 1, owner: plan.owner, exchange, running: true };
  // the head is the owner's stamp: it is stored before the response reveals the run's id. A request that lost
  // the race for this exchange number (a kept outcome replayed beside a running resume) is served live only
  let raw: string | undefined;
  try {
    raw = await stamp(plan, head);
  } catch (error) {
    controller.abort(); // unstamped, the run could not be reached again: it does not go on
    await iterator.return?.().catch(() => {});
    return errorResponse(errorPayload(error));
  }
  const log = raw === undefined ? undefined : logWriter(storage, runId, exchange, plan.ttl, () => controller.abort());
  const live = channel();
  plan.running.set(runId, controller);
  let ended: Promise<void> | undefined;
  // once: the log written to its end, then the head says the exchange is over (unless a newer one began)
  const ending = () =>
    (ended ??= (async () => {
      await log?.close();
      if (plan.running.get(runId) === controller) plan.running.delete(runId);
      if (raw !== undefined)
        await writeHead(storage, runId, raw, { ...head, running: false }, plan.ttl).catch(() => {});
    })());
  const done = (async () => {
    try {
      await drive(plan, iterator, first, log, exchange, live, ending);
    } finally {
      await ending();
    }
  })();
  plan.waitUntil?.(done);
  return liveResponse(runId, live);
}

/** The SSE response of logged events (a replay), or a plain error response when it fails before the first. */
export async function replayResponse(
  runId: string,
  events: AsyncGenerator<Logged>,
  onCancel: () => void,
): Promise<Response> {
  let first: IteratorResult<Logged>;
  try {
    first = await events.next();
  } catch (error) {
    return errorResponse(errorPayload(error));
  }
  const encoder = new TextEncoder();
  let step: IteratorResult<Logged> | undefined = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = step ?? (await events.next());
        step = undefined;
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(encodeEvent(next.value.event, true, next.value.id)));
      } catch (error) {
        controller.enqueue(encoder.encode(encodeEvent({ type: "error", ...errorPayload(error) } as StreamEvent, true)));
        controller.close();
      }
    },
    cancel() {
      onCancel();
      void events.return(undefined);
    },
  });
  return new Response(body, { headers: sseHeaders(runId) });
}
