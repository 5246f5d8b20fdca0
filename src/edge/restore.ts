// What a reloaded page is shown again, and a replay of an exchange the log kept. A run that is not running is
// shown as the client's result of it (client/inspection-result.ts), not one made up here.
import { abortableSleep } from "../_internal/sleep";
import { isDue } from "../client/clock";
import { type InspectedRun, inspectionResult } from "../client/inspection-result";
import { RunConflictError } from "../errors";
import type { RunRequest } from "../protocol/requests";
import { pageSafeEvent } from "../protocol/page-safe";
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

/** The exchange `exchange` (ended) when it finished the run; else the run as it stands. */
async function* finishing(log: ExchangeLog, exchange: number, stands: AsyncGenerator<Logged>): AsyncGenerator<Logged> {
  const events: Logged[] = [];
  try {
    for await (const item of log.follow(exchange, 0)) events.push(item);
  } catch {} // its log stops short: the run is shown as it stands
  const last = events.at(-1)?.event;
  yield* last?.type === "done" && last.result.status === "done" ? events : stands;
}

/**
 * A run that is not running, as a reloaded page is shown it: a finished run by the exchange that finished it
 * when its log has it (a page forgets a run it saw finish, so that is one it did not see: a continuation after
 * a deadline, another tab's answer), else as it stands.
 */
async function notRunning(call: Call, log: ExchangeLog, inspected: InspectedRun): Promise<Response> {
  const { runId } = log;
  const head = inspected.status === "done" ? (await log.head())?.head : undefined;
  const stands = standing(runId, inspected);
  return replayResponse(runId, call.request.signal, () =>
    head && !head.running ? finishing(log, head.exchange, stands) : stands,
  );
}

/**
 * What a reloaded page shows again, as events: the exchange it was showing (`after`, the first event id it
 * wants), replayed and followed to its end; else the run as it stands — its exchange streaming now, from its
 * start; its open requests as `pending` events (each with a fresh token) and a `done` saying it waits; a run
 * whose answers were applied, or whose deadline passed, continued (with `token`, any token of the run); a
 * finished run, the exchange that finished it (else a `done`). A run another resume is running is looked at
 * again until it is one of those.
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
      // a page that sent no token: a run whose deadline passed is continued by the client, into its event log
      const inspection = await call.opts.client.inspect(
        runId,
        token === undefined ? { toolkit: call.opts.toolkit } : {},
      );
      if (!inspection) throw notFound(runId);
      const { status, requests, tokens } = inspection;
      const due = status === "pending" && requests.some((r) => isDue(call.opts.client, r));
      // answers applied, or a deadline passed (semantics 8): the run goes on, into its event log, live
      if (status === "ready" || (due && (token !== undefined || tokens === undefined)))
        return resume(call, runId, found, [], token === undefined ? undefined : [token]);
      if (status !== "running") return notRunning(call, log, { status, requests, tokens });
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
