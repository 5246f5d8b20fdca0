// The running side of an exchange's log: events are batched in memory and written as one storage value at
// each boundary — a tool call or result, a pending request, the end — once MAX_EVENTS are waiting, and at
// least every TICK_MS while the exchange runs. So a 2,000-token answer costs a handful of writes, never one
// per token (Workers KV takes one write per second per key; a Durable Object bills every write). Each tick
// and each write also reads the exchange's stop mark: a stop asked for on another isolate lands here.
import type { StreamEvent } from "../types";
import type { RunStorage, SetOptions } from "../storage/contract";
import { read, stopKey, writeBatch } from "./exchange-log";

/** A batch is written once this many events wait. */
export const MAX_EVENTS = 256;
/** How often a running exchange writes what waits and looks for a stop, in ms. */
export const TICK_MS = 1_000;
/** How often a batch that failed to write is tried again, at the end, before the log is given up. */
const END_TRIES = 3;

const BOUNDARY = new Set<string>(["tool_call", "tool_result", "pending", "done", "error"]);

export interface LogWriter {
  /** Keeps `event`; a boundary (or a full batch) writes the batch. Resolves once that write is done. */
  append(event: StreamEvent): Promise<void>;
  /** Writes what waits (trying again a few times) and stops the ticks. */
  close(): Promise<void>;
}

export function logWriter(
  storage: RunStorage,
  runId: string,
  exchange: number,
  opts: SetOptions,
  onStop: () => void,
): LogWriter {
  let waiting: StreamEvent[] = [];
  let batch = 0;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  const look = async () => {
    if (stopped) return;
    if ((await read(storage, stopKey(runId, exchange)).catch(() => undefined)) === undefined) return;
    stopped = true;
    onStop();
  };
  // a failed write keeps its events waiting: the next one writes the same batch number with more in it
  const write = async () => {
    if (waiting.length === 0) return look();
    const events = waiting;
    waiting = [];
    try {
      await writeBatch(storage, runId, exchange, batch, events, opts);
      batch++;
    } catch {
      waiting = events.concat(waiting);
    }
    await look();
  };
  const flush = () => (chain = chain.then(write));
  const timer = setInterval(() => void flush(), TICK_MS);

  return {
    append(event) {
      waiting.push(event);
      return BOUNDARY.has(event.type) || waiting.length >= MAX_EVENTS ? flush() : Promise.resolve();
    },
    async close() {
      clearInterval(timer);
      stopped = true;
      for (let tries = 0; tries < END_TRIES && waiting.length > 0; tries++) await flush();
      await chain;
    },
  };
}
