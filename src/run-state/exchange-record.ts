// A run's exchange log as it is stored — the second durable record of a run, beside its own keys, each with
// the log's TTL (so the log expires with the run):
//   edge:<runId>             the head { v: 1, owner, exchange, running }: who owns the run, its latest exchange
//   edge:<runId>:<e>:<b>     batch b (0, 1, …) of exchange e, `{ events }`: event n of e (from 1) has id `<e>:<n>`
//   edge:<runId>:<e>:stop    written once a stop of exchange e was asked for
// Its keys, and the writes of its head and batches (with what an event keeps at rest), live here and only here,
// below the client, because two writers begin exchanges in it: the run handler (edge/exchange-log.ts, which
// also ticks, follows and stops them: the stop mark is its own) and a run that continues by itself once a
// deadline passed (client/logged-continuation.ts). Each begins an exchange by a compare-and-set of the head,
// so two never write one exchange number.
import { stored } from "../errors";
import { pageSafeEvent } from "../protocol/page-safe";
import type { RunStorage, SetOptions } from "../storage/contract";
import { swap } from "../storage/swap";
import type { RunResult, StreamEvent } from "../types";

export interface Head {
  v: 1;
  /** The owner the run was stamped with (`null`: the handler has no `owner`, or it answered null). */
  owner: string | null;
  /** The latest exchange (1 is the run's first). */
  exchange: number;
  /** Whether that exchange is still streaming. */
  running: boolean;
}

/** A head as read, with its stored text (what a compare-and-set over it expects). */
export interface StoredHead {
  head: Head;
  raw: string;
}

/** An exchange being written: its head as stamped, the events waiting, the next batch's number. */
export interface Writing extends StoredHead {
  waiting: StreamEvent[];
  batch: number;
}

/** The events after which what waits is written at once: a page following the exchange sees each step. */
export const BOUNDARY = new Set<string>(["tool_call", "tool_result", "pending", "done", "error"]);

const headKey = (runId: string): string => `edge:${runId}`;

export const batchKey = (runId: string, exchange: number, batch: number): string =>
  `edge:${runId}:${exchange}:${batch}`;

export const stopKey = (runId: string, exchange: number): string => `edge:${runId}:${exchange}:stop`;

/** The run's head and its stored text, or undefined when no handler ever served the run. */
export async function readHead(storage: RunStorage, runId: string): Promise<StoredHead | undefined> {
  const key = headKey(runId);
  const raw = await stored("get", key, () => storage.get(key));
  if (raw === undefined) return undefined;
  try {
    const head = JSON.parse(raw) as Head;
    const owned = head?.owner === null || typeof head?.owner === "string";
    if (head?.v === 1 && Number.isInteger(head.exchange) && owned) return { head, raw };
  } catch {}
  return undefined; // not ours: treated as a run no handler served
}

/** Writes `head` over `expected`; resolves the text written, or undefined when another writer wrote first. */
export async function writeHead(
  storage: RunStorage,
  runId: string,
  ttl: SetOptions,
  expected: string | undefined,
  head: Head,
): Promise<string | undefined> {
  const key = headKey(runId);
  const raw = JSON.stringify(head);
  const wrote = await stored("compareAndSet", key, () => swap(storage, key, expected, raw, ttl));
  return wrote ? raw : undefined;
}

/**
 * Begins the exchange after `before` (undefined: a new run) for `owner`: its head, running, written over the
 * head found — or, when only the end of the exchange before was written meanwhile, over that. Resolves the
 * head written, or undefined when another writer began this exchange number first (it is not ours to write).
 */
export async function stampHead(
  storage: RunStorage,
  runId: string,
  ttl: SetOptions,
  before: StoredHead | undefined,
  owner: string | null,
): Promise<StoredHead | undefined> {
  const head: Head = { v: 1, owner, exchange: (before?.head.exchange ?? 0) + 1, running: true };
  let expected = before?.raw;
  for (let tries = 0; tries < 3; tries++) {
    const raw = await writeHead(storage, runId, ttl, expected, head);
    if (raw !== undefined) return { head, raw };
    if (expected === undefined) break;
    const now = await readHead(storage, runId);
    if (now?.head.exchange !== head.exchange - 1 || now.head.owner !== owner) break;
    expected = now.raw;
  }
  return undefined;
}

/**
 * Writes what waits as the exchange's next batch. A write that fails keeps its events waiting: the next one
 * writes the same batch number with more in it.
 */
export async function writeBatch(storage: RunStorage, runId: string, ttl: SetOptions, writing: Writing) {
  const events = writing.waiting;
  if (events.length === 0) return;
  writing.waiting = [];
  try {
    await storage.set(batchKey(runId, writing.head.exchange, writing.batch), JSON.stringify({ events }), ttl);
    writing.batch++;
  } catch {
    writing.waiting = events.concat(writing.waiting);
  }
}

/** Says the exchange `stamped` began is over — unless a newer one began meanwhile (best effort). */
export async function closeHead(storage: RunStorage, runId: string, ttl: SetOptions, stamped: StoredHead) {
  await writeHead(storage, runId, ttl, stamped.raw, { ...stamped.head, running: false }).catch(() => {});
}

type Halted = Extract<RunResult, { status: "pending" }> & { token?: string; tokens?: string[] };

/**
 * The event as the log keeps it: as a page may see it, and with no resume token in it — tokens are
 * credentials; the live page got them as they happened, and a replay signs fresh ones.
 */
export function atRest(event: StreamEvent): StreamEvent {
  if (event.type === "pending" && "token" in event) {
    const { token: _, ...rest } = event as StreamEvent & { token?: string };
    return rest as StreamEvent;
  }
  if (event.type !== "done") return event;
  const { token: _t, tokens: _ts, ...result } = (pageSafeEvent(event) as typeof event).result as Halted;
  return { type: "done", result: result as RunResult };
}
