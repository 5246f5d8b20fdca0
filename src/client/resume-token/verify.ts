// Verifying resume tokens on resume: each token's signature, run and expiry, then its binding to the stored
// record's open request. Tokens are made by issueToken (codec.ts), for a client with a resumeSecret and for
// createResumeToken (create.ts).
import { ConfigError, ResumeTokenError, type ResumeTokenProblem } from "../../errors";
import type { ResumeGuard } from "../../loop/resume";
import { fromBase64Url, hmacKey, MAX_TOKEN_LENGTH, VERSION, type Claims, utf8 } from "./codec";

/** Every refusal comes before the record is claimed, so nothing was changed. */
function refuse(runId: string, problem: ResumeTokenProblem, what: string): never {
  throw new ResumeTokenError(
    runId,
    problem,
    `toolnexus: resume token for run "${runId}" refused (nothing was changed): ${what}`,
  );
}

/** Checks signature, run and expiry; the request binding is checked against the stored record later. */
async function verify(secret: string, runId: string, token: unknown, now: number): Promise<Claims> {
  const parts = typeof token === "string" && token.length <= MAX_TOKEN_LENGTH ? token.split(".") : [];
  const payload = parts.length === 3 && parts[0] === VERSION ? fromBase64Url(parts[1]!) : undefined;
  const signature = payload && fromBase64Url(parts[2]!);
  if (!payload || !signature) return refuse(runId, "malformed", "it is not a toolnexus resume token");
  if (!(await crypto.subtle.verify("HMAC", await hmacKey(secret), signature, utf8(`${VERSION}.${parts[1]}`))))
    return refuse(runId, "signature", "its signature does not match");
  let claims: Partial<Claims> | null = null;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {}
  if (typeof claims?.r !== "string" || typeof claims.q !== "string" || !Number.isFinite(claims.e))
    return refuse(runId, "malformed", "its claims are unreadable");
  if (claims.r !== runId) refuse(runId, "run", "it was issued for another run");
  if (now >= claims.e!) refuse(runId, "expired", `it expired at ${new Date(claims.e!).toISOString()}`);
  return claims as Claims;
}

/**
 * The request binding: a token per answer, in the answers' order, each issued for that answer's request, and
 * each request the record's open one (or, for a record whose answers were applied and whose model call
 * failed, one answered — a retry of the same answers runs no tool again). A resume with no answers (one
 * continuing a run whose answers were applied) passes with any one token of the run.
 */
function guardFor(all: Claims[], runId: string): ResumeGuard {
  return (record, answerIds, replay) => {
    const n = answerIds.length;
    const wanted = n || 1;
    if (all.length !== wanted)
      refuse(
        runId,
        all.length < wanted ? "missing" : "malformed",
        `${wanted} tokens wanted, one per answer in their order, got ${all.length}`,
      );
    all.forEach((claims, i) => {
      if (n && claims.q !== answerIds[i])
        refuse(runId, "request", `token ${i + 1} was issued for another request than answer ${i + 1}'s`);
    });
    // the identical answers again get the kept outcome, nothing runs; a run whose answers were applied (its
    // model call failed) takes only those same answers again, each token bound to one of them above
    if (n && (replay || (record.status !== "suspended" && record.status !== "done"))) return;
    // each token's request is open, or (retrying a resume whose model call failed) answered
    for (const { q } of all) {
      if (record.status === "suspended" && record.calls.some((c) => c.request?.id === q && !c.result)) continue;
      const answered = record.answered?.requestId === q || record.calls.some((c) => c.request?.id === q);
      if (!answered) refuse(runId, "request", "it was issued for another request");
      if (record.status === "suspended" || record.status === "done")
        refuse(runId, "replayed", "its request was already answered");
    }
  };
}

/** What a resume passes: `token` (one answer, or none) or `tokens` (one per answer). */
export interface TokensGiven {
  token?: unknown;
  tokens?: unknown;
}

/**
 * The client's token check. Resolves to a guard for the stored record, or `undefined` when no token is given
 * and none is required. Every token given is verified (signature, run, expiry) before the guard binds each to
 * its answer.
 */
export function resumeTokenCheck(
  secret: string | undefined,
  required: boolean,
  clock: () => number,
): (runId: string, given: TokensGiven) => Promise<ResumeGuard | undefined> {
  return async (runId, { token, tokens }) => {
    if (token !== undefined && tokens !== undefined) refuse(runId, "malformed", "pass token or tokens, not both");
    if (tokens !== undefined && (!Array.isArray(tokens) || tokens.length > 1024))
      refuse(runId, "malformed", "tokens must be a list of token strings, one per answer");
    const list = (tokens as unknown[] | undefined) ?? (token === undefined ? [] : [token]);
    if (list.length === 0)
      return required
        ? refuse(runId, "missing", "none given (requireResumeToken) — pass { token } or { tokens }")
        : undefined;
    if (secret === undefined)
      throw new ConfigError("resumeSecret", "toolnexus: a resume token was given, but the client has no resumeSecret");
    const now = clock();
    const all: Claims[] = [];
    for (const t of list) all.push(await verify(secret, runId, t, now));
    return guardFor(all, runId);
  };
}
