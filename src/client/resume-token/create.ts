import { ConfigError, shown } from "../../errors";
import type { PendingRequest } from "../../types";
import { issueToken } from "./codec";
import { checkSecret } from "./secret";

export interface ResumeTokenOptions {
  /** How long the token is good for. Default 86400 (one day). */
  ttlSeconds?: number;
  /** The issuing time in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

/**
 * A token that lets exactly one answer to `run.pending` through `client.resume(run.runId, answer, { token })`
 * on a client created with the same `resumeSecret`, until `ttlSeconds` (default one day) have passed.
 */
/* @__NO_SIDE_EFFECTS__ */
export async function createResumeToken(
  run: { runId: string; pending: PendingRequest<string> },
  secret: string,
  opts: ResumeTokenOptions = {},
): Promise<string> {
  checkSecret("createResumeToken", secret);
  if (typeof run?.runId !== "string" || !run.runId)
    throw new ConfigError(
      "runId",
      `toolnexus: createResumeToken needs the halted run's runId (result.runId), got ${shown(run?.runId)}`,
    );
  if (typeof run.pending?.id !== "string" || !run.pending.id)
    throw new ConfigError(
      "pending",
      `toolnexus: createResumeToken needs the halted run's pending Request (result.pending), got ${shown(run.pending)}`,
    );
  const ttl = opts.ttlSeconds ?? undefined; // null, like undefined, means the default (one day)
  const now = opts.now ?? Date.now();
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0))
    throw new ConfigError(
      "ttlSeconds",
      `toolnexus: createResumeToken ttlSeconds must be a positive number, got ${shown(ttl)}`,
    );
  if (typeof now !== "number" || !Number.isFinite(now))
    throw new ConfigError("now", `toolnexus: createResumeToken now must be ms since the epoch, got ${shown(now)}`);
  return issueToken(run.runId, run.pending.id, secret, ttl, now);
}
