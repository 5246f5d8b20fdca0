// Signed resume tokens: whoever halted a run hands the answering party (a page, a webhook) a token bound
// to that run's open Request; `client.resume(runId, answer, { token })` then refuses an answer for any
// other run or request, after the token's expiry, or once the request was answered. HMAC-SHA-256 through
// WebCrypto; the token carries the run id, the request id and the expiry — never the secret.
import { ToolnexusError } from "./errors";
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

export const VERSION = "tn1";
const DEFAULT_TTL_SECONDS = 86_400;
const MIN_SECRET_LENGTH = 16;
export const MAX_TOKEN_LENGTH = 8192;

export interface Claims {
  /** run id */
  r: string;
  /** request id */
  q: string;
  /** expiry, ms since the epoch */
  e: number;
}

export const enc = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decoded bytes, or `undefined` for anything that is not strict base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function checkSecret(fn: string, secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(`toolnexus: ${fn} needs a secret string of at least ${MIN_SECRET_LENGTH} characters — use e.g. 32 random bytes, base64-encoded, kept server-side`);
  }
}

export function hmacKey(secret: string): Promise<CryptoKey> {
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

/** The client's resume-token settings, checked when the client is created. */
export function checkResumeConfig(secret: string | undefined, required: boolean): void {
  if (secret !== undefined) checkSecret("createClient resumeSecret", secret);
  if (required && secret === undefined) throw new TypeError("toolnexus: createClient requireResumeToken needs resumeSecret to verify tokens with");
}
