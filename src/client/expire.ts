// Runs that continue by themselves once a Request's deadline passed (semantics 8): lazily when a run is read
// (`inspect(runId, { toolkit })`), actively by `client.expire({ toolkit, limit? })`, which finds the due runs
// through the record store's deadline index. A continuation is a resume with the refusals the deadlines
// give (`answerDeclined(id, "expired")`, or "cancelled"), through the same claim as a human's answer, so
// an answer and an expiry, or two sweepers, never run the loop twice; it streams into the run's exchange log
// when a handler served the run (logged-continuation.ts), so an open page sees it.
import { ConfigError, errorMessage, RunConflictError, RunNotFoundError, RunStateError, shown } from "../errors";
import { dueAnswers, nowOf } from "../loop/deadline";
import { leaseHeld, mustRead } from "../loop/inspect";
import { prepareResume } from "../loop/resume";
import { dueEntries, unindexDeadline, type IndexOptions } from "../run-state/deadlines";
import type { Answer, RunResult } from "../types";
import type { ToolkitLike } from "../tools/types";
import { continueLogged } from "./logged-continuation";
import { session, type SessionEnv } from "./session";

export interface ExpireOptions {
  /** The tools the due runs were halted with (a continuation may run the model and its next tools). */
  toolkit: ToolkitLike;
  /** At most this many runs are continued, earliest deadline first. Default: every due run. */
  limit?: number;
}

export interface ExpireResult {
  /** The runs this call continued (a run another caller took first is not listed). */
  continued: string[];
}

/**
 * Continues `runId` if it is due: a suspended run whose deadline passed, with the refusals its deadlines
 * give; with `stalled`, also a run whose answers were applied before it stopped (or whose claim's owner went
 * away), with none. Resolves the continued run, `"not due"`, or `"busy"` (its owner's lease still runs). A
 * conflict (an answer or another sweeper took it first) is thrown, as `resume` throws it.
 */
export async function continueDue(
  env: SessionEnv,
  toolkit: ToolkitLike | undefined,
  runId: string,
  stalled = false,
): Promise<RunResult | "not due" | "busy"> {
  const ctx = await env.context(toolkit, undefined, false);
  const found = await mustRead(ctx, runId).catch((error: unknown) => {
    if (error instanceof RunNotFoundError) return undefined;
    throw error;
  });
  const record = found?.record;
  let answers: Answer[] | undefined;
  if (record?.status === "suspended") answers = dueAnswers(ctx, record.calls);
  else if (stalled && record?.status === "claimed" && leaseHeld(record, nowOf(ctx))) return "busy";
  else if (stalled && (record?.status === "ready" || record?.status === "claimed")) answers = [];
  // a read continues a question that expired, not a run left ready by a failure (its restore does that)
  if (!found || !answers || (answers.length === 0 && !stalled)) return "not due";
  return continueLogged(ctx.storage, env.opts.pendingTtlSeconds, runId, (stream) =>
    session(env, { toolkit }, stream, (c) => prepareResume(c, runId, answers, undefined, found)),
  );
}

/** `client.expire`: every due run the index names (at most `limit`), continued once each. */
export async function expireDue(env: SessionEnv, o: IndexOptions, opts: ExpireOptions): Promise<ExpireResult> {
  checkExpireOptions(opts);
  const continued: string[] = [];
  for (const { runId, at } of await dueEntries(o, opts.limit ?? Number.POSITIVE_INFINITY)) {
    let drop = true;
    try {
      const outcome = await continueDue(env, opts.toolkit, runId, true);
      if (outcome === "busy")
        drop = false; // its owner's lease runs: the next sweep sees how it ended
      else if (outcome !== "not due") continued.push(runId);
    } catch (error) {
      // another caller took it and ends the run, or the continuation failed: the entry stays for the next
      // sweep; a record that cannot be read is dropped
      drop = error instanceof RunStateError;
      if (!(error instanceof RunConflictError))
        console.warn(`toolnexus: expire could not continue run "${runId}": ${errorMessage(error)}`);
    }
    if (drop) await unindexDeadline(o, runId, at).catch(() => {});
  }
  return { continued };
}

function checkExpireOptions(opts: ExpireOptions): void {
  if (typeof opts !== "object" || opts === null || !opts.toolkit)
    throw new ConfigError("toolkit", `toolnexus: expire needs { toolkit } — the tools the halted runs use`);
  const { limit } = opts;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
    throw new ConfigError("limit", `toolnexus: expire limit must be a whole number ≥ 1, got ${shown(limit)}`);
}
