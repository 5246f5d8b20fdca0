// Verifying a resume token on resume (loaded with the first token to check): signature, run, expiry, then
// the binding to the stored record's open request. Tokens are made by issueToken (codec.ts), for a client
// with a resumeSecret and for createResumeToken (create.ts).
import { ResumeTokenError, ToolnexusError, type ResumeTokenProblem } from "../../errors";
import type { ResumeGuard } from "../../loop/resume";
import { enc, fromBase64Url, hmacKey, MAX_TOKEN_LENGTH, VERSION, type Claims } from "./codec";

function readClaims(json: Uint8Array): Claims | undefined {
  try {
    const c = JSON.parse(new TextDecoder().decode(json)) as Partial<Claims> | null;
    return typeof c?.r === "string" && typeof c.q === "string" && typeof c.e === "number" && Number.isFinite(c.e)
      ? (c as Claims)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Checks signature, run and expiry; the request binding is checked against the stored record later. */
async function verify(key: Promise<CryptoKey>, runId: string, token: unknown, now: number): Promise<Claims> {
  const refuse = (problem: ResumeTokenProblem, what: string): never => {
    throw new ResumeTokenError(
      runId,
      problem,
      `toolnexus: resume token for run "${runId}" refused: ${what} — nothing was changed; ask the issuer for a fresh token`,
    );
  };
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH)
    return refuse("malformed", "it is not a token string");
  const parts = token.split(".");
  const payload = parts.length === 3 && parts[0] === VERSION ? fromBase64Url(parts[1]!) : undefined;
  const signature = payload ? fromBase64Url(parts[2]!) : undefined;
  if (!payload || !signature) return refuse("malformed", "it is not a toolnexus resume token");
  const signed = enc.encode(`${VERSION}.${parts[1]}`);
  if (!(await crypto.subtle.verify("HMAC", await key, signature, signed)))
    return refuse("signature", "its signature does not match (forged, tampered with, or signed with another secret)");
  const claims = readClaims(payload) ?? refuse("malformed", "its claims are unreadable");
  if (claims.r !== runId) return refuse("run", "it was issued for another run");
  if (now >= claims.e) return refuse("expired", `it expired at ${new Date(claims.e).toISOString()}`);
  return claims;
}

/**
 * The request binding: the token's request must be the record's open one (or, for a record whose answer was
 * applied and whose model call failed, the one answered — a retry of the same answer runs no tool again).
 */
function guardFor(claims: Claims, runId: string): ResumeGuard {
  return (record, answerIds, replay) => {
    const refuse = (problem: ResumeTokenProblem, what: string): never => {
      throw new ResumeTokenError(
        runId,
        problem,
        `toolnexus: resume token for run "${runId}" refused: ${what} — nothing was changed`,
      );
    };
    if (answerIds.length > 0 && !answerIds.includes(claims.q)) refuse("request", "it was issued for another request");
    if (replay) return; // the identical answer again: it gets the kept outcome, nothing runs
    const open = record.status === "suspended" && record.calls.some((c) => c.request?.id === claims.q && !c.result);
    if (open) return;
    const answered = record.answered?.requestId === claims.q || record.calls.some((c) => c.request?.id === claims.q);
    if (record.status === "suspended" || record.status === "done")
      refuse(
        answered ? "replayed" : "request",
        answered ? "its request was already answered" : "it was issued for another request",
      );
    if (!answered && record.answered?.requestId !== claims.q) refuse("request", "it was issued for another request");
  };
}

/**
 * The client's token check, built once per client (the key is imported on first use and never exported).
 * Resolves to a guard for the stored record, or `undefined` when no token is given and none is required.
 */
export function resumeTokenCheck(
  secret: string | undefined,
  required: boolean,
): (runId: string, token: unknown) => Promise<ResumeGuard | undefined> {
  let key: Promise<CryptoKey> | undefined;
  return async (runId, token) => {
    if (token === undefined) {
      if (!required) return undefined;
      throw new ResumeTokenError(
        runId,
        "missing",
        `toolnexus: run "${runId}" can only be resumed with a resume token (requireResumeToken) — pass { token } from createResumeToken`,
      );
    }
    if (secret === undefined) {
      throw new ToolnexusError(
        "config",
        "toolnexus: a resume token was given but the client has no resumeSecret to verify it — pass resumeSecret to createClient",
      );
    }
    key ??= hmacKey(secret);
    return guardFor(await verify(key, runId, token, Date.now()), runId);
  };
}
