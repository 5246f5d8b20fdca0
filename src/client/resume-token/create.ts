import { checkSecret } from "./secret";
import type { PendingRequest } from "../../types";

export interface ResumeTokenOptions {
  /** How long the token is good for. Default 86400 (one day). */
  ttlSeconds?: number;
  /** The issuing time in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

const DEFAULT_TTL_SECONDS = 86_400;

/**
 * A token that lets exactly one answer to `run.pending` through `client.resume(run.runId, answer, { token })`
 * on a client created with the same `resumeSecret`, until `ttlSeconds` (default one day) have passed.
 */
/* @__NO_SIDE_EFFECTS__ */
export async function createResumeToken(
  run: { runId: string; pending: PendingRequest },
  secret: string,
  opts: ResumeTokenOptions = {},
): Promise<string> {
  checkSecret("createResumeToken", secret);
  if (typeof run?.runId !== "string" || !run.runId)
    throw new TypeError("toolnexus: createResumeToken needs the halted run's runId (result.runId)");
  if (typeof run.pending?.id !== "string" || !run.pending.id)
    throw new TypeError("toolnexus: createResumeToken needs the halted run's pending Request (result.pending)");
  const ttl = opts.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const now = opts.now ?? Date.now();
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0)
    throw new TypeError(`toolnexus: createResumeToken ttlSeconds must be a positive number, got ${String(ttl)}`);
  if (typeof now !== "number" || !Number.isFinite(now))
    throw new TypeError(`toolnexus: createResumeToken now must be ms since the epoch, got ${String(now)}`);
  const { signToken } = await import("./codec"); // the codec loads with the first token
  return signToken({ r: run.runId, q: run.pending.id, e: Math.floor(now + ttl * 1000) }, secret);
}
