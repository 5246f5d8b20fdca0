// What a reloaded page is shown again, and a replay of an exchange the log kept. A run that is not running is
// shown as the client's result of it (client/inspection-result.ts), not one made up here.
import { abortableSleep } from "../_internal/sleep";
import { isDue } from "../client/clock";
import { type InspectedRun, inspectionResult } from "../client/inspection-result";
import { RunConflictError } from "../errors";
import type { RunRequest } from "../protocol/requests";
import { pageSafeEvent } from "./event-stream";
import { replayResponse } from "./exchange";
import type { ExchangeLog, Logged } from "./exchange-log";
import { type Call, logOf } from "./options";
import { resume } from "./runs";
import { checkOwner, notFound } from "./run-owner";
import { waiter } from "./held-waits";
import { withFreshTokens } from "./tokens-at-rest";

/** How often, and how many times, a restore looks again at a run another resume is running. */
const RUNNING_POLL_MS = 1_000;
const RUNNING_POLLS = 60;

/** Exchange `exchange`'s events after the `after`-th, followed to its end, with fresh tokens (none is logged). */
export function replay(call: Call, log: ExchangeLog, exchange: number, after: number): Promise<Response> {
  return replayResponse(log.runId, call.request.signal, (signal) =>
    withFreshTokens(call.opts.client, log.runId, log.follow(exchange, after, signal)),
  );
}

/**
 * A halted (or finished) run as events with no ids (they are no exchange's): each open request, with its
 * token, then a `done` with no transcript (the client's result of the inspected run).
 */
async function* standing(runId: string, inspected: InspectedRun): AsyncGenerator<Logged> {
  const { requests, tokens } = inspected;
  for (const request of requests) yield { event: { type: "pending", request, runId, token: tokens?.[request.id] } };
  yield { event: pageSafeEvent({ type: "done", result: inspectionResult(runId, inspected) }) };
}

/** A run whose deadline passed, continued by the client itself (no token to resume with), as it then stands. */
async function continuedHere(call: Call, runId: string): Promise<Response> {
  const moved = await call.opts.client.inspect(runId, { toolkit: call.opts.toolkit });
  if (!moved) throw notFound(runId);
  const { status, requests, tokens } = moved;
  if (status !== "done" && status !== "pending")
    throw new RunConflictError(runId, "toolnexus: the run is being resumed elsewhere; reload later", "claimed");
  return replayResponse(runId, call.request.signal, () => standing(runId, { status, requests, tokens }));
}

/**
 * What a reloaded page shows again, as events: the exchange it was showing (`after`, the first event id it
 * wants), replayed and followed to its end; else the run as it stands — its exchange streaming now, from its
 * start; its open requests as `pending` events (each with a fresh token) and a `done` saying it waits; a run
 * whose answers were applied, continued (with `token`, any token of the run); a finished run, a `done`. A run
 * another resume is running is looked at again until it is one of those.
 */
export async function restore(call: Call, request: Extract<RunRequest, { kind: "restore" }>): Promise<Response> {
  const { runId, after, token } = request;
  const log = logOf(call, runId);
  let found = await checkOwner(call, log);
  if (after && found && after.exchange <= found.head.exchange) return replay(call, log, after.exchange, after.n);
  let release: (() => void) | undefined;
  try {
    for (let polls = 0; ; polls++) {
      if (found?.head.running) return replay(call, log, found.head.exchange, 0);
      const inspection = await call.opts.client.inspect(runId);
      if (!inspection) throw notFound(runId);
      const { status, requests, tokens } = inspection;
      const due = status === "pending" && requests.some((r) => isDue(call.opts.client, r));
      // answers applied, or a deadline passed (semantics 8): the run goes on, into its event log — a page
      // that holds no token of a client that signs them sees it continued all the same, then as it stands
      if (status === "ready" || (due && (token !== undefined || tokens === undefined)))
        return resume(call, runId, found, [], token === undefined ? undefined : [token]);
      if (due) return continuedHere(call, runId);
      if (status !== "running")
        return replayResponse(runId, call.request.signal, () => standing(runId, { status, requests, tokens }));
      if (polls === RUNNING_POLLS)
        throw new RunConflictError(runId, "toolnexus: the run is being resumed elsewhere; reload later", "claimed");
      release ??= call.waits.take(waiter(call.owner, `run:${runId}`));
      await abortableSleep(RUNNING_POLL_MS, call.request.signal);
      found = await log.head();
    }
  } finally {
    release?.();
  }
}
