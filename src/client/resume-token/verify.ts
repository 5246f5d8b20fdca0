// Verifying a resume token on resume (loaded with the first token to check): signature, run, expiry, then
// the binding to the stored record's open request. Tokens are made by issueToken (codec.ts), for a client
// with a resumeSecret and for createResumeToken (create.ts).
import { ConfigError, ResumeTokenError, type ResumeTokenProblem } from "../../errors";
import type { ResumeGuard } from "../../loop/resume";
import { fromBase64Url, hmacKey, MAX_TOKEN_LENGTH, VERSION, type Claims, utf8 } from "./codec";

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
  const signed = utf8(`${VERSION}.${parts[1]}`);
  if (!(await crypto.subtle.verify("HMAC", await key, signature, signed)))
    return refuse("signature", "its signature does not match (forged, tampered with, or signed with another secret)");
  const claims = readClaims(payload) ?? refuse("malformed", "its claims are unreadable");
  if (claims.r !== runId) return refuse("run", "it was issued for another run");
  if (now >= claims.e) return refuse("expired", `it expired at ${new Date(claims.e).toISOString()}`);
  return claims;
}

/** The binding of one token to the stored record: its request is open, or (retrying a resume whose model call failed) answered. */
function bindOne(
  record: Parameters<ResumeGuard>[0],
  q: string,
  refuse: (p: ResumeTokenProblem, w: string) => never,
): void {
  const open = record.status === "suspended" && record.calls.some((c) => c.request?.id === q && !c.result);
  if (open) return;
  const answered = record.answered?.requestId === q || record.calls.some((c) => c.request?.id === q);
  if (record.status === "suspended" || record.status === "done")
    refuse(
      answered ? "replayed" : "request",
      answered ? "its request was already answered" : "it was issued for another request",
    );
  if (!answered) refuse("request", "it was issued for another request");
}

/**
 * The request binding: a token per answer, in the answers' order, each issued for that answer's request, and
 * each request the record's open one (or, for a record whose answers were applied and whose model call
 * failed, one answered — a retry of the same answers runs no tool again). A resume with no answers (one
 * continuing a run whose answers were applied) passes with any one token of the run.
 */
function guardFor(all: Claims[], runId: string): ResumeGuard {
  return (record, answerIds, replay) => {
    const refuse = (problem: ResumeTokenProblem, what: string): never => {
      throw new ResumeTokenError(
        runId,
        problem,
        `toolnexus: resume token for run "${runId}" refused: ${what} — nothing was changed`,
      );
    };
    if (answerIds.length === 0) {
      if (all.length !== 1) refuse("malformed", `a resume with no answers takes one token, got ${all.length}`);
      return bindOne(record, all[0]!.q, refuse);
    }
    if (all.length < answerIds.length)
      refuse(
        "missing",
        `${answerIds.length} answers need ${answerIds.length} tokens, one per answer in the answers' order (tokens), got ${all.length}`,
      );
    if (all.length > answerIds.length)
      refuse("malformed", `${answerIds.length} answers take ${answerIds.length} tokens, got ${all.length}`);
    all.forEach((claims, i) => {
      if (claims.q !== answerIds[i])
        refuse("request", `token ${i + 1} was issued for another request than answer ${i + 1}'s`);
    });
    if (replay) return; // the identical answers again: they get the kept outcome, nothing runs
    // a run whose answers were applied (its model call failed) takes only those same answers again, checked
    // before the claim; each token is bound to one of them above
    if (record.status !== "suspended" && record.status !== "done") return;
    for (const claims of all) bindOne(record, claims.q, refuse);
  };
}

/** What a resume passes: `token` (one answer, or none) or `tokens` (one per answer). */
export interface TokensGiven {
  token?: unknown;
  tokens?: unknown;
}

/**
 * The client's token check, built once per client (the key is imported on first use and never exported).
 * Resolves to a guard for the stored record, or `undefined` when no token is given and none is required.
 * Every token given is verified (signature, run, expiry) before the guard binds each to its answer.
 */
export function resumeTokenCheck(
  secret: string | undefined,
  required: boolean,
): (runId: string, given: TokensGiven) => Promise<ResumeGuard | undefined> {
  let key: Promise<CryptoKey> | undefined;
  return async (runId, { token, tokens }) => {
    const malformed = (what: string) =>
      new ResumeTokenError(runId, "malformed", `toolnexus: resume token for run "${runId}" refused: ${what}`);
    if (token !== undefined && tokens !== undefined) throw malformed("pass token or tokens, not both");
    if (tokens !== undefined && (!Array.isArray(tokens) || tokens.length > 1024))
      throw malformed("tokens must be a list of token strings, one per answer");
    const list = tokens !== undefined ? (tokens as unknown[]) : token === undefined ? [] : [token];
    if (list.length === 0) {
      if (!required) return undefined;
      throw new ResumeTokenError(
        runId,
        "missing",
        `toolnexus: run "${runId}" can only be resumed with a resume token (requireResumeToken) — pass { token } (or { tokens }, one per answer) from createResumeToken`,
      );
    }
    if (secret === undefined) {
      throw new ConfigError(
        "resumeSecret",
        "toolnexus: a resume token was given but the client has no resumeSecret to verify it — pass resumeSecret to createClient",
      );
    }
    key ??= hmacKey(secret);
    const now = Date.now();
    const all: Claims[] = [];
    for (const t of list) all.push(await verify(key, runId, t, now));
    return guardFor(all, runId);
  };
}
