// createResumeToken: a signed token that lets one answer to one open request of a halted run through a
// client's resume (checked by verify.ts against the same secret).
import { ConfigError, shown } from "../../errors";
import type { PendingRequest } from "../../types";
import { issueToken } from "./codec";
import { checkSecret } from "./secret";

function refuseUnless(ok: boolean, option: string, expected: string, value: unknown): void {
  if (!ok)
    throw new ConfigError(option, `toolnexus: createResumeToken ${option} must be ${expected}, got ${shown(value)}`);
}

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
  const ttl = opts.ttlSeconds ?? undefined; // null, like undefined, means the default (one day)
  const now = opts.now ?? Date.now();
  refuseUnless(typeof run?.runId === "string" && run.runId !== "", "runId", "the halted run's runId", run?.runId);
  refuseUnless(
    typeof run.pending?.id === "string" && run.pending.id !== "",
    "pending",
    "its pending Request",
    run.pending,
  );
  refuseUnless(ttl === undefined || (Number.isFinite(ttl) && ttl > 0), "ttlSeconds", "a positive number", ttl);
  refuseUnless(Number.isFinite(now), "now", "ms since the epoch", now);
  return issueToken(run.runId, run.pending.id, secret, ttl, now);
}
