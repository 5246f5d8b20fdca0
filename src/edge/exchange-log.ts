// An exchange's page-safe events kept in the run's storage, so a page that reloaded — or a request that
// landed on another isolate or process — replays them and follows the live exchange to its end. Beside the
// run's own keys, each with the handler's TTL (so the log expires with the run):
//   edge:<runId>             the head { v: 1, owner, exchange, running }: who owns the run, its latest exchange
//   edge:<runId>:<e>:<b>     batch b (0, 1, …) of exchange e, `{ events }`: event n of e (from 1) has id `<e>:<n>`
//   edge:<runId>:<e>:stop    written once a stop of exchange e was asked for
// Batches are written in order, each once, so a reader never sees a batch change; the head is written at an
// exchange's start (compare-and-set) and at its end.
import { StreamError, stored } from "../errors";
import type { RunStorage, SetOptions, StreamEvent } from "../types";
import { formatEventId } from "../protocol/event-id";
import { swap } from "../storage/swap";
import { abortableSleep } from "../_internal/sleep";

export interface Head {
  v: 1;
  /** The owner the run was stamped with (`null`: the handler has no `owner`, or it answered null). */
  owner: string | null;
  /** The latest exchange (1 is the run's first). */
  exchange: number;
  /** Whether that exchange is still streaming. */
  running: boolean;
}

export interface Logged {
  /** `<exchange>:<n>`; none for an event that is no exchange's (a restore's view of a halted run). */
  id?: string;
  event: StreamEvent;
}

const headKey = (runId: string) => `edge:${runId}`;
const batchKey = (runId: string, exchange: number, batch: number) => `edge:${runId}:${exchange}:${batch}`;
export const stopKey = (runId: string, exchange: number): string => `edge:${runId}:${exchange}:stop`;

export const read = (storage: RunStorage, key: string): Promise<string | undefined> =>
  stored("get", key, () => storage.get(key));

/** The run's head and its stored text (for a compare-and-set), or undefined when the handler never saw the run. */
export async function readHead(storage: RunStorage, runId: string): Promise<{ head: Head; raw: string } | undefined> {
  const raw = await read(storage, headKey(runId));
  if (raw === undefined) return undefined;
  try {
    const head = JSON.parse(raw) as Head;
    if (head?.v === 1 && Number.isInteger(head.exchange) && (head.owner === null || typeof head.owner === "string"))
      return { head, raw };
  } catch {}
  return undefined; // not ours: treated as a run the handler never saw
}

/** Writes `head` over `expected`; resolves the text written, or undefined when another request wrote first. */
export async function writeHead(
  storage: RunStorage,
  runId: string,
  expected: string | undefined,
  head: Head,
  opts: SetOptions,
): Promise<string | undefined> {
  const key = headKey(runId);
  const raw = JSON.stringify(head);
  return stored("compareAndSet", key, async () => ((await swap(storage, key, expected, raw, opts)) ? raw : undefined));
}

export const writeBatch = (
  storage: RunStorage,
  runId: string,
  exchange: number,
  batch: number,
  events: StreamEvent[],
  opts: SetOptions,
): Promise<void> => storage.set(batchKey(runId, exchange, batch), JSON.stringify({ events }), opts);

/** How long a follower waits, at most, between two looks at the storage for the next batch. */
const MAX_POLL_MS = 1_000;
const FIRST_POLL_MS = 20;
/** A follower gives up on an exchange that wrote nothing for this long (its server went away mid-run). */
export const FOLLOW_IDLE_MS = 300_000;

/** The batch after the last one read, looked for with a bounded backoff until it is there or the exchange is gone. */
async function nextBatch(
  storage: RunStorage,
  runId: string,
  exchange: number,
  batch: number,
  signal: AbortSignal | undefined,
): Promise<StreamEvent[]> {
  const key = batchKey(runId, exchange, batch);
  const since = Date.now();
  for (let wait = FIRST_POLL_MS, last = false; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
    const raw = await read(storage, key);
    if (raw !== undefined) return (JSON.parse(raw) as { events: StreamEvent[] }).events;
    if (last)
      throw new StreamError(
        "toolnexus: the exchange's log stops short (its server stopped, or the storage lags) — reload to look again",
      );
    const now = (await readHead(storage, runId))?.head;
    // an exchange that ended (or was followed by another) wrote its last batch before saying so: one more look
    last = !now || now.exchange !== exchange || !now.running || Date.now() - since > FOLLOW_IDLE_MS;
    if (!last) await abortableSleep(wait, signal);
  }
}

/**
 * The events of exchange `exchange` after event number `after`, each with its id, read from the storage and
 * followed while the exchange runs, up to its `done` or `error` event.
 */
export async function* follow(
  storage: RunStorage,
  runId: string,
  exchange: number,
  after: number,
  signal?: AbortSignal,
): AsyncGenerator<Logged, void, undefined> {
  let n = 0;
  for (let batch = 0; ; batch++) {
    for (const event of await nextBatch(storage, runId, exchange, batch, signal)) {
      n++;
      if (n > after) yield { id: formatEventId(exchange, n), event };
      if (event.type === "done" || event.type === "error") return;
    }
  }
}
