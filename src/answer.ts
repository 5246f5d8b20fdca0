import type { Answer, AnswerReason, Request, ToolResult } from "./types";

const REASONS: readonly AnswerReason[] = ["declined", "cancelled", "expired"];

/** `"null"`, `"array"`, or the `typeof` of a value — for error messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function requireId(fn: string, id: unknown): asserts id is string {
  if (typeof id !== "string" || id === "") {
    throw new TypeError(`toolnexus: ${fn}: id is required (it must match the Request's id)`);
  }
}

/**
 * The Answer for a human's (or host's) string reply: `{ id, ok: true, data: { output } }`,
 * plus `data.isError: true` when `isError`. A non-string output throws; it is never coerced.
 */
/* @__NO_SIDE_EFFECTS__ */
export function answerOutput(id: string, output: string, isError = false): Answer {
  if (typeof output !== "string") {
    throw new TypeError(`toolnexus: Answer output must be a string, got ${typeName(output)}`);
  }
  requireId("answerOutput", id);
  return { id, ok: true, data: isError ? { output, isError: true } : { output } };
}

/** The Answer that refuses a Request: `{ id, ok: false, reason }`. */
/* @__NO_SIDE_EFFECTS__ */
export function answerDeclined(id: string, reason: AnswerReason = "declined"): Answer {
  requireId("answerDeclined", id);
  if (!REASONS.includes(reason)) {
    throw new TypeError(`toolnexus: Answer reason must be "declined", "cancelled" or "expired", got ${JSON.stringify(reason) ?? typeName(reason)}`);
  }
  return { id, ok: false, reason };
}

export interface RelayResult {
  id: string;
  output: string;
  isError?: boolean;
}

/** The Answer carrying the host's results for relayed tool calls: `{ id, ok: true, data: { results } }`. */
/* @__NO_SIDE_EFFECTS__ */
export function relayAnswer(id: string, results: RelayResult[]): Answer {
  requireId("relayAnswer", id);
  if (!Array.isArray(results)) throw new TypeError(`toolnexus: relayAnswer results must be an array, got ${typeName(results)}`);
  const copy = results.map((r, i) => {
    if (typeof r !== "object" || r === null || typeof r.id !== "string") {
      throw new TypeError(`toolnexus: relayAnswer results[${i}] must be { id, output, isError? }`);
    }
    if (typeof r.output !== "string") {
      throw new TypeError(`toolnexus: Answer output must be a string, got ${typeName(r.output)} (results[${i}].output)`);
    }
    return r.isError === undefined ? { id: r.id, output: r.output } : { id: r.id, output: r.output, isError: r.isError === true };
  });
  return { id, ok: true, data: { results: copy } };
}

export interface PendingInput {
  kind: string;
  prompt: string;
  id?: string;
  url?: string;
  data?: Record<string, unknown>;
  expiresAt?: string;
}

/** A fresh unique Request id. */
export function newRequestId(): string {
  return `pnd-${crypto.randomUUID()}`;
}

/** What a tool returns to suspend: the Request rides in `metadata.pending`. */
/* @__NO_SIDE_EFFECTS__ */
export function pending(request: PendingInput): ToolResult {
  if (typeof request?.kind !== "string" || request.kind === "") throw new TypeError("toolnexus: pending: kind is required");
  if (typeof request.prompt !== "string") throw new TypeError("toolnexus: pending: prompt must be a string");
  const req: Request = { id: request.id ?? newRequestId(), kind: request.kind, prompt: request.prompt };
  if (request.url !== undefined) req.url = request.url;
  if (request.data !== undefined) req.data = request.data;
  if (request.expiresAt !== undefined) req.expiresAt = request.expiresAt;
  return {
    output: req.url ? `${req.prompt}\n${req.url}` : req.prompt,
    isError: true,
    metadata: { pending: req },
  };
}

/** Suspends until the user has authorized at `url` (kind `authorization`). */
/* @__NO_SIDE_EFFECTS__ */
export function authRequired(url: string, prompt = "Authorization required to continue"): ToolResult {
  return pending({ kind: "authorization", url, prompt });
}

/** The Request a tool result suspends with, if any. */
export function pendingOf(result: ToolResult | undefined): Request | undefined {
  const p = result?.metadata?.pending;
  if (typeof p !== "object" || p === null) return undefined;
  const r = p as Request;
  return typeof r.id === "string" && typeof r.kind === "string" && typeof r.prompt === "string" ? r : undefined;
}

/** True once `now` is past the Request's `expiresAt`. An unparsable `expiresAt` counts as expired. */
export function isExpired(request: Request, now = Date.now()): boolean {
  if (request.expiresAt === undefined) return false;
  const t = Date.parse(request.expiresAt);
  return Number.isNaN(t) || now > t;
}
