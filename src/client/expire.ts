// Runs that continue by themselves once a Request's deadline passed (semantics 8): lazily when a run is read
// (`inspect(runId, { toolkit })`), actively by `client.expire({ toolkit, limit? })`, which finds the due runs
// through the record store's deadline index. A continuation is a resume with the refusals the deadlines
// give (`answerDeclined(id, "expired")`, or "cancelled"), through the same claim as a human's answer, so
// an answer and an expiry, or two sweepers, never run the loop twice; it streams into the run's exchange log
// when a handler served the run (logged-continuation.ts), so an open page sees it.
import { ConfigError, errorMessage, RunConflictError, RunNotFoundError, shown } from "../errors";
import { dueAnswers, nowOf } from "../loop/deadline";
import { leaseHeld, mustRead } from "../loop/inspect";
import { prepareResume } from "../loop/resume";
import { dueEntries, unindexDeadline, type IndexOptions } from "../run-state/deadlines";
import type { Loaded } from "../run-state/store";
import type { Answer, RunResult } from "../types";
import type { ToolkitLike } from "../tools/types";
import type { RunStorage } from "../storage/contract";
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

/** What a due run is answered with: the refusals of its passed deadlines, or nothing left to answer. */
type Due = { answers: Answer[] } | "not due" | "busy";

/**
 * Where `runId` stands for an expiry: a suspended run with a passed deadline is due with its refusals; a
 * run whose answers were applied before it stopped (or whose claim's owner went away) is due with none.
 */
async function dueOf(env: SessionEnv, toolkit: ToolkitLike | undefined, runId: string) {
  const ctx = await env.context(toolkit, undefined, false);
  const found = await mustRead(ctx, runId).catch((error: unknown) => {
    if (error instanceof RunNotFoundError) return undefined;
    throw error;
  });
  const record = found?.record;
  let due: Due = "not due";
  if (record?.status === "suspended") {
    const answers = dueAnswers(ctx, record.calls);
    if (answers.length > 0) due = { answers };
  } else if (record?.status === "ready") due = { answers: [] };
  else if (record?.status === "claimed") due = leaseHeld(record, nowOf(ctx)) ? "busy" : { answers: [] };
  return { found, due, storage: ctx.storage };
}

/**
 * The continued run: a resume with `answers` (none: a run whose answers were applied goes on), into the run's
 * exchange log when a handler served it.
 */
const continueWith = (
  env: SessionEnv,
  toolkit: ToolkitLike | undefined,
  { found, storage }: { found: Loaded; storage: RunStorage },
  answers: Answer[],
) => {
  const { runId } = found.record;
  return continueLogged(storage, env.opts.pendingTtlSeconds, runId, (stream) =>
    session(env, { toolkit }, stream, (ctx) => prepareResume(ctx, runId, answers, undefined, found)),
  );
};

/**
 * Continues `runId` if a deadline of it passed: the continued run's result, or undefined when nothing was
 * due. A conflict (an answer or another sweeper took it first) is thrown, as `resume` throws it.
 */
export async function continueDue(
  env: SessionEnv,
  toolkit: ToolkitLike | undefined,
  runId: string,
): Promise<RunResult | undefined> {
  const { found, due, storage } = await dueOf(env, toolkit, runId);
  // a read continues a question that expired, not a run left ready by a failure (its restore does that)
  if (typeof due === "string" || !found || due.answers.length === 0) return undefined;
  return continueWith(env, toolkit, { found, storage }, due.answers);
}

/** `client.expire`: every due run the index names (at most `limit`), continued once each. */
export async function expireDue(env: SessionEnv, o: IndexOptions, opts: ExpireOptions): Promise<ExpireResult> {
  checkExpireOptions(opts);
  const continued: string[] = [];
  for (const { runId, at } of await dueEntries(o, opts.limit ?? Number.POSITIVE_INFINITY)) {
    let drop = true;
    try {
      const { found, due, storage } = await dueOf(env, opts.toolkit, runId);
      if (due === "busy")
        drop = false; // its owner's lease runs: the next sweep sees how it ended
      else if (typeof due !== "string" && found) {
        drop = false;
        await continueWith(env, opts.toolkit, { found, storage }, due.answers);
        continued.push(runId);
        drop = true;
      }
    } catch (error) {
      // another caller took it and ends the run; anything else leaves the entry for the next sweep, but a
      // record that cannot be read is dropped
      if (error instanceof RunConflictError) drop = false;
      else console.warn(`toolnexus: expire could not continue run "${runId}": ${errorMessage(error)}`);
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
