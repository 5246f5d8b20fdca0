// A run's exchanges as the handler serves them, in the run's exchange log (its keys and head:
// run-state/exchange-record.ts) — so a page that reloaded, or a request that landed on another isolate or
// process, replays them and follows the live exchange to its end. Batches are written in order, each once, so
// a reader never sees a batch change; the head is written at an exchange's start (compare-and-set) and at its
// end. The running exchange's events are batched in memory and written as one value at each boundary — a tool
// call or result, a pending request, the end — once MAX_EVENTS wait, and at least every TICK_MS: a
// 2,000-token answer costs a handful of writes, never one per token (Workers KV takes one write per second per
// key; a Durable Object bills every write). Each tick and each write also reads the exchange's stop mark: a
// stop asked for on another isolate lands here.
import { abortableSleep } from "../_internal/sleep";
import { StreamError, stored } from "../errors";
import { formatEventId } from "../protocol/event-id";
import {
  atRest,
  BOUNDARY,
  batchKey,
  closeHead,
  type Head,
  readHead,
  type StoredHead,
  stampHead,
  stopKey,
  type Writing as Batched,
  writeBatch,
} from "../run-state/exchange-record";
import type { StreamEvent } from "../types";
import type { RunStorage, SetOptions } from "../storage/contract";

export type { Head, StoredHead } from "../run-state/exchange-record";

export interface Logged {
  /** `<exchange>:<n>`; none for an event that is no exchange's (a restore's view of a halted run). */
  id?: string;
  event: StreamEvent;
}

/** A batch is written once this many events wait. */
export const MAX_EVENTS = 256;
/** How often a running exchange writes what waits and looks for a stop, in ms. */
export const TICK_MS = 1_000;
/** How often a batch that failed to write is tried again, at the end, before the log is given up. */
const END_TRIES = 3;
/** How long a follower waits, at most, between two looks at the storage for the next batch. */
const MAX_POLL_MS = 1_000;
const FIRST_POLL_MS = 20;
/** A follower gives up on an exchange that wrote nothing for this long (its server went away mid-run). */
export const FOLLOW_IDLE_MS = 300_000;

/** The exchange this log writes, and how: its write chain, its ticks, its stop. */
interface Writing extends Batched {
  chain: Promise<void>;
  stopped: boolean;
  timer: ReturnType<typeof setInterval>;
  onStop: () => void;
}

/**
 * One run's exchange log: read its head, stamp a new exchange, append its events and close it, ask it to
 * stop, follow it. An exchange that lost the race for its number is not this log's to write: append and
 * close do nothing for it.
 */
export class ExchangeLog {
  private writing: Writing | undefined;

  constructor(
    private readonly storage: RunStorage,
    readonly runId: string,
    private readonly ttl: SetOptions,
  ) {}

  private read(key: string): Promise<string | undefined> {
    return stored("get", key, () => this.storage.get(key));
  }

  /** The run's head and its stored text, or undefined when no handler served the run. */
  head(): Promise<StoredHead | undefined> {
    return readHead(this.storage, this.runId);
  }

  /**
   * Begins the exchange after `before` (undefined: a new run) for `owner` (run-state/exchange-record.ts says
   * how); resolves its number. An exchange number another request began first is not this log's to write:
   * append and close then do nothing. `onStop` is called once a stop of it was asked for, from any isolate.
   */
  async stamp(before: StoredHead | undefined, owner: string | null, onStop: () => void): Promise<number> {
    const stamped = await stampHead(this.storage, this.runId, this.ttl, before, owner);
    if (stamped) this.begin(stamped.head, stamped.raw, onStop);
    return (before?.head.exchange ?? 0) + 1;
  }

  private begin(head: Head, raw: string, onStop: () => void): void {
    const timer = setInterval(() => void this.flush(), TICK_MS);
    this.writing = { head, raw, waiting: [], batch: 0, chain: Promise.resolve(), stopped: false, timer, onStop };
  }

  /**
   * Keeps `event` as the log keeps it (atRest: page-safe, no token); a boundary (or a full batch) writes the
   * batch. Resolves once that write is done.
   */
  append(event: StreamEvent): Promise<void> {
    const writing = this.writing;
    if (!writing) return Promise.resolve();
    writing.waiting.push(atRest(event));
    if (BOUNDARY.has(event.type) || writing.waiting.length >= MAX_EVENTS) return this.flush();
    return Promise.resolve();
  }

  /** Writes what waits (trying again a few times), stops the ticks, then the head says the exchange is over. */
  async close(): Promise<void> {
    const writing = this.writing;
    if (!writing) return;
    clearInterval(writing.timer);
    writing.stopped = true;
    for (let tries = 0; tries < END_TRIES && writing.waiting.length > 0; tries++) await this.flush();
    await writing.chain;
    await closeHead(this.storage, this.runId, this.ttl, writing);
  }

  private flush(): Promise<void> {
    const writing = this.writing!;
    writing.chain = writing.chain.then(() => this.write(writing));
    return writing.chain;
  }

  private async write(writing: Writing): Promise<void> {
    await writeBatch(this.storage, this.runId, this.ttl, writing);
    await this.lookForStop(writing);
  }

  private async lookForStop(writing: Writing): Promise<void> {
    if (writing.stopped) return;
    const mark = await this.read(stopKey(this.runId, writing.head.exchange)).catch(() => undefined);
    if (mark === undefined) return;
    writing.stopped = true;
    writing.onStop();
  }

  /** Asks exchange `exchange` to stop, wherever it runs: its stop mark, read at its next tick or write. */
  async stop(exchange: number): Promise<void> {
    const key = stopKey(this.runId, exchange);
    await stored("set", key, () => this.storage.set(key, "1", this.ttl));
  }

  /** The batch after the last one read, looked for with a bounded backoff until it is there or the exchange is gone. */
  private async nextBatch(exchange: number, batch: number, signal: AbortSignal | undefined): Promise<StreamEvent[]> {
    const key = batchKey(this.runId, exchange, batch);
    const since = Date.now();
    let last = false;
    for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
      const raw = await this.read(key);
      if (raw !== undefined) return (JSON.parse(raw) as { events: StreamEvent[] }).events;
      if (last)
        throw new StreamError(
          "toolnexus: the exchange's log stops short (its server stopped, or the storage lags) — reload to look again",
        );
      const now = (await this.head())?.head;
      // an exchange that ended (or was followed by another) wrote its last batch before saying so: one more look
      last = !now || now.exchange !== exchange || !now.running || Date.now() - since > FOLLOW_IDLE_MS;
      if (!last) await abortableSleep(wait, signal);
    }
  }

  /**
   * The events of exchange `exchange` after event number `after`, each with its id, read from the storage and
   * followed while the exchange runs, up to its `done` or `error` event.
   */
  async *follow(exchange: number, after: number, signal?: AbortSignal): AsyncGenerator<Logged, void, undefined> {
    let n = 0;
    for (let batch = 0; ; batch++) {
      for (const event of await this.nextBatch(exchange, batch, signal)) {
        n++;
        if (n > after) yield { id: formatEventId(exchange, n), event };
        if (event.type === "done" || event.type === "error") return;
      }
    }
  }
}
