// A run that continues by itself once a deadline passed — by `client.expire()`, a Durable Object's alarm, or
// a read (`inspect` with a toolkit, the handler's GET and restore) — has no page attached. When a handler
// served the run (its exchange log has a head: run-state/exchange-record.ts), the continuation is written
// there as the run's next exchange, the way the handler writes one: under the owner the head names, the head
// running and then not, the events as the log keeps them (page-safe, no token, no reasoning), batched at each
// boundary — so a page that follows or replays the run sees the continuation like any other exchange. A run
// no handler served gets no log.
import {
  atRest,
  BOUNDARY,
  closeHead,
  readHead,
  stampHead,
  type Writing,
  writeBatch,
} from "../run-state/exchange-record";
import type { RunStorage } from "../storage/contract";
import type { RunResult, StreamEvent } from "../types";
import { collect } from "./session";

/** A continuation's events: streamed (text deltas, then `usage` and `done`), or only run to its result. */
type Continuation = (stream: boolean) => AsyncGenerator<StreamEvent, RunResult>;

/**
 * Runs the continuation of `runId` to its result, into the run's exchange log when it has one. The exchange
 * begins only once the continuation's first event came — its claim won: an answer or another sweeper that
 * took the run first leaves no exchange of this one. A log write that fails costs the log, never the run.
 */
export async function continueLogged(
  storage: RunStorage,
  ttlSeconds: number,
  runId: string,
  continuation: Continuation,
): Promise<RunResult> {
  const before = await readHead(storage, runId);
  if (!before) return collect(continuation(false));
  const events = continuation(true);
  let step = await events.next(); // the claim: one that lost throws here, before anything is written
  const ttl = ttlSeconds > 0 ? { ttlSeconds: Math.ceil(ttlSeconds) } : {};
  const stamped = await stampHead(storage, runId, ttl, before, before.head.owner).catch(() => undefined);
  const writing: Writing | undefined = stamped && { ...stamped, waiting: [], batch: 0 };
  try {
    for (; !step.done; step = await events.next()) {
      const event = step.value;
      // reasoning stays out, as a handler keeps it unless it forwards reasoning
      if (!writing || event.type === "reasoning") continue;
      writing.waiting.push(atRest(event));
      if (BOUNDARY.has(event.type)) await writeBatch(storage, runId, ttl, writing);
    }
  } finally {
    if (writing) {
      await writeBatch(storage, runId, ttl, writing);
      await closeHead(storage, runId, ttl, writing);
    }
  }
  return step.value;
}
