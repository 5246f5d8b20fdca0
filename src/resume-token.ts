// Signed resume tokens: whoever halted a run hands the answering party (a page, a webhook) a token bound
// to that run's open Request; `client.resume(runId, answer, { token })` then refuses an answer for any
// other run or request, after the token's expiry, or once the request was answered. HMAC-SHA-256 through
// WebCrypto; the token carries the run id, the request id and the expiry — never the secret.
import { ToolnexusError } from "./errors";
import { openGroups, type RunRecord } from "./run-state";
import type { Request } from "./types";

/** Why a token was refused. */
export type ResumeTokenProblem = "missing" | "malformed" | "signature" | "expired" | "run" | "request" | "replayed";

/** A resume token was missing, forged, tampered with, expired, for another run or request, or replayed. Nothing changed. */
export class ResumeTokenError extends ToolnexusError {
  readonly runId: string;
  readonly problem: ResumeTokenProblem;
  constructor(runId: string, problem: ResumeTokenProblem, message: string) {
    super("resume_token", message);
    this.name = "ResumeTokenError";
    this.runId = runId;
    this.problem = problem;
  }
}

export interface ResumeTokenOptions {
  /** How long the token is good for. Default 86400 (one day). */
  ttlSeconds?: number;
  /** The issuing time in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

const VERSION = "tn1";
const DEFAULT_TTL_SECONDS = 86_400;
const MIN_SECRET_LENGTH = 16;
const MAX_TOKEN_LENGTH = 8192;

interface Claims {
  /** run id */
  r: string;
  /** request id */
  q: string;
  /** expiry, ms since the epoch */
  e: number;
}

const enc = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decoded bytes, or `undefined` for anything that is not strict base64url. */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function checkSecret(fn: string, secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(`toolnexus: ${fn} needs a secret string of at least ${MIN_SECRET_LENGTH} characters — use e.g. 32 random bytes, base64-encoded, kept server-side`);
  }
}

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/**
 * A token that lets exactly one answer to `run.pending` through `client.resume(run.runId, answer, { token })`
 * on a client created with the same `resumeSecret`, until `ttlSeconds` (default one day) have passed.
 */
/* @__NO_SIDE_EFFECTS__ */
export async function createResumeToken(run: { runId: string; pending: Request }, secret: string, opts: ResumeTokenOptions = {}): Promise<string> {
  checkSecret("createResumeToken", secret);
  if (typeof run?.runId !== "string" || !run.runId) throw new TypeError("toolnexus: createResumeToken needs the halted run's runId (result.runId)");
  if (typeof run.pending?.id !== "string" || !run.pending.id) throw new TypeError("toolnexus: createResumeToken needs the halted run's pending Request (result.pending)");
  const ttl = opts.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const now = opts.now ?? Date.now();
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) throw new TypeError(`toolnexus: createResumeToken ttlSeconds must be a positive number, got ${String(ttl)}`);
  if (typeof now !== "number" || !Number.isFinite(now)) throw new TypeError(`toolnexus: createResumeToken now must be ms since the epoch, got ${String(now)}`);
  const claims: Claims = { r: run.runId, q: run.pending.id, e: Math.floor(now + ttl * 1000) };
  const body = `${VERSION}.${toBase64Url(enc.encode(JSON.stringify(claims)))}`;
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), enc.encode(body)));
  return `${body}.${toBase64Url(signature)}`;
}

function readClaims(json: Uint8Array): Claims | undefined {
  try {
    const c = JSON.parse(new TextDecoder().decode(json)) as Partial<Claims> | null;
    return typeof c?.r === "string" && typeof c.q === "string" && typeof c.e === "number" && Number.isFinite(c.e) ? (c as Claims) : undefined;
  } catch {
    return undefined;
  }
}

/** Checks signature, run and expiry; the request binding is checked against the stored record later. */
async function verify(key: Promise<CryptoKey>, runId: string, token: unknown, now: number): Promise<Claims> {
  const refuse = (problem: ResumeTokenProblem, what: string): never => {
    throw new ResumeTokenError(runId, problem, `toolnexus: resume token for run "${runId}" refused: ${what} — nothing was changed; ask the issuer for a fresh token`);
  };
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return refuse("malformed", "it is not a token string");
  const parts = token.split(".");
  const payload = parts.length === 3 && parts[0] === VERSION ? fromBase64Url(parts[1]!) : undefined;
  const signature = payload ? fromBase64Url(parts[2]!) : undefined;
  if (!payload || !signature) return refuse("malformed", "it is not a toolnexus resume token");
  const signed = enc.encode(`${VERSION}.${parts[1]}`);
  if (!(await crypto.subtle.verify("HMAC", await key, signature, signed))) return refuse("signature", "its signature does not match (forged, tampered with, or signed with another secret)");
  const claims = readClaims(payload) ?? refuse("malformed", "its claims are unreadable");
  if (claims.r !== runId) return refuse("run", "it was issued for another run");
  if (now >= claims.e) return refuse("expired", `it expired at ${new Date(claims.e).toISOString()}`);
  return claims;
}

/**
 * The request binding: the token's request must be the record's open one (or, for a record whose answer was
 * applied and whose model call failed, the one answered — a retry of the same answer runs no tool again).
 */
function guardFor(claims: Claims, runId: string): (record: RunRecord) => void {
  return (record) => {
    const refuse = (problem: ResumeTokenProblem, what: string): never => {
      throw new ResumeTokenError(runId, problem, `toolnexus: resume token for run "${runId}" refused: ${what} — nothing was changed`);
    };
    const answered = record.answered?.requestId === claims.q;
    if (record.status === "done") return refuse(answered ? "replayed" : "request", answered ? "its request was already answered" : "it was issued for another request");
    if (record.status === "ready") {
      if (record.answered?.requestId !== claims.q) refuse("request", "it was issued for another request");
      return;
    }
    if (openGroups(record.calls)[0]?.request.id === claims.q) return;
    refuse(answered ? "replayed" : "request", answered ? "its request was already answered" : "it was issued for another request");
  };
}

export type ResumeGuard = (record: RunRecord) => void;

/**
 * The client's token check, built once per client (the key is imported on first use and never exported).
 * Resolves to a guard for the stored record, or `undefined` when no token is given and none is required.
 */
export function resumeTokenCheck(secret: string | undefined, required: boolean): (runId: string, token: unknown) => Promise<ResumeGuard | undefined> {
  if (secret !== undefined) checkSecret("createClient resumeSecret", secret);
  if (required && secret === undefined) throw new TypeError("toolnexus: createClient requireResumeToken needs resumeSecret to verify tokens with");
  let key: Promise<CryptoKey> | undefined;
  return async (runId, token) => {
    if (token === undefined) {
      if (!required) return undefined;
      throw new ResumeTokenError(runId, "missing", `toolnexus: run "${runId}" can only be resumed with a resume token (requireResumeToken) — pass { token } from createResumeToken`);
    }
    if (secret === undefined) {
      throw new ToolnexusError("config", "toolnexus: a resume token was given but the client has no resumeSecret to verify it — pass resumeSecret to createClient");
    }
    key ??= hmacKey(secret);
    return guardFor(await verify(key, runId, token, Date.now()), runId);
  };
}
