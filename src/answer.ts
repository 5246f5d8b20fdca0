import {
  boolean,
  is,
  jsonObject,
  nonEmpty,
  oneOf,
  optional,
  problemIn,
  shape,
  string,
  type Check,
} from "./_internal/check";
import { isPlainObject, typeName } from "./_internal/json";
import { ConfigError, InvalidAnswerError } from "./errors";
import type { RelayResult, Answer, AnswerReason, ApprovalScope, PendingRequest, ToolResult } from "./types";

const REASONS: readonly AnswerReason[] = ["declined", "cancelled", "expired"];
const REASONS_TEXT = 'must be "declined", "cancelled" or "expired"';

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
    throw new TypeError(`toolnexus: Answer reason ${REASONS_TEXT}, got ${JSON.stringify(reason) ?? typeName(reason)}`);
  }
  return { id, ok: false, reason };
}

export type { RelayResult } from "./types";

const SCOPES: readonly ApprovalScope[] = ["conversation", "owner"];

/** answerApproval's options, as they are also checked in an Answer's data: a JSON object, any other keys allowed. */
const APPROVAL_OPTIONS = shape(
  { remember: optional(oneOf(SCOPES, 'must be "conversation" or "owner"')), sameArgs: optional(boolean) },
  "must be a JSON object",
);

export interface AnswerApprovalOptions {
  /**
   * Remember the approval: the next calls of the same tool in this scope run without asking — `"conversation"`
   * (the run's conversation; a run without one, that run alone) or `"owner"` (everything the run's owner runs).
   */
  remember?: ApprovalScope;
  /** With `remember`: only calls with the same arguments run without asking. Default `false` (any arguments); without `remember`, unused. */
  sameArgs?: boolean;
}

/**
 * The ok Answer to an `approval` Request (a `needsApproval` tool's): `{ id, ok: true, data: { approved: true } }`,
 * plus `remember` (and `sameArgs`) when the user chose "always allow".
 */
/* @__NO_SIDE_EFFECTS__ */
export function answerApproval(id: string, options: AnswerApprovalOptions = {}): Answer {
  requireId("answerApproval", id);
  const { remember, sameArgs } = options ?? {};
  const problem = problemIn(APPROVAL_OPTIONS, { remember, sameArgs });
  if (problem) throw new ConfigError(problem.path, `toolnexus: answerApproval's ${problem.describe()}`);
  const data: Answer["data"] = { approved: true };
  if (remember) data.remember = remember;
  if (remember && sameArgs) data.sameArgs = true;
  return { id, ok: true, data };
}

/**
 * The Answer to a form — an MCP elicitation's `requestedSchema`, any Request with `data.schema`:
 * `{ id, ok: true, data: fields }`. Fields must be a plain object; they are copied, never coerced.
 */
/* @__NO_SIDE_EFFECTS__ */
export function answerForm(id: string, fields: Record<string, unknown>): Answer {
  requireId("answerForm", id);
  if (!isPlainObject(fields)) {
    throw new TypeError(`toolnexus: answerForm fields must be a plain object, got ${typeName(fields)}`);
  }
  return { id, ok: true, data: { ...fields } };
}

/** The Answer carrying the host's results for relayed tool calls: `{ id, ok: true, data: { results } }`. */
/* @__NO_SIDE_EFFECTS__ */
export function relayAnswer(id: string, results: RelayResult[]): Answer {
  requireId("relayAnswer", id);
  if (!Array.isArray(results))
    throw new TypeError(`toolnexus: relayAnswer results must be an array, got ${typeName(results)}`);
  const copy = results.map((r, i) => {
    if (typeof r !== "object" || r === null || typeof r.id !== "string") {
      throw new TypeError(`toolnexus: relayAnswer results[${i}] must be { id, output, isError? }`);
    }
    if (typeof r.output !== "string") {
      throw new TypeError(
        `toolnexus: Answer output must be a string, got ${typeName(r.output)} (results[${i}].output)`,
      );
    }
    return r.isError === undefined
      ? { id: r.id, output: r.output }
      : { id: r.id, output: r.output, isError: r.isError === true };
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

export interface PendingOptions {
  /**
   * JSON the tool gets back as `ctx.state` when it is re-executed with the answer (an MCP `requestState`, a
   * cursor). Kept in the stored run only: never sent to a page, a stream or `result.pending`.
   */
  state?: unknown;
}

/**
 * What a tool returns to suspend: the Request rides in `metadata.pending` (and the tool's private state in
 * `metadata.pendingState`). Everything is checked here, so a halted run can always be loaded and resumed:
 * a bad field throws TypeError, which the loop hands to the model as the tool's error result.
 */
/* @__NO_SIDE_EFFECTS__ */
export function pending(request: PendingInput, options: PendingOptions = {}): ToolResult {
  // objects, not only this realm's plain ones: a tool in another frame builds its request in its own realm
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  const fields: Record<string, unknown> = isObject(request) ? request : {};
  for (const key of ["kind", "prompt", "id", "url", "expiresAt"] as const) {
    const value = fields[key];
    if (value === undefined && key !== "kind" && key !== "prompt") continue;
    if (typeof value !== "string" || (value === "" && key !== "prompt")) {
      throw new TypeError(`toolnexus: pending: ${key} must be a non-empty string, got ${typeName(value)}`);
    }
  }
  if (request.data !== undefined && !isObject(request.data))
    throw new TypeError(`toolnexus: pending: data must be a plain object, got ${typeName(request.data)}`);
  if (request.expiresAt !== undefined && Number.isNaN(Date.parse(request.expiresAt)))
    throw new TypeError(`toolnexus: pending: expiresAt must be an RFC 3339 timestamp, got "${request.expiresAt}"`);
  const req: PendingRequest = { id: request.id ?? newRequestId(), kind: request.kind, prompt: request.prompt };
  if (request.url !== undefined) req.url = request.url;
  if (request.data !== undefined) req.data = request.data;
  if (request.expiresAt !== undefined) req.expiresAt = request.expiresAt;
  const metadata: Record<string, unknown> = { pending: req };
  if (options.state !== undefined) {
    if (JSON.stringify(options.state) === undefined) throw new TypeError("toolnexus: pending: state must be JSON");
    metadata.pendingState = options.state;
  }
  return { output: req.url ? `${req.prompt}\n${req.url}` : req.prompt, isError: true, metadata };
}

/** Suspends until the user has authorized at `url` (kind `authorization`). */
/* @__NO_SIDE_EFFECTS__ */
export function authRequired(url: string, prompt = "Authorization required to continue"): ToolResult {
  return pending({ kind: "authorization", url, prompt });
}

/** The Request a tool result suspends with, if any. */
export function pendingOf(result: ToolResult | undefined): PendingRequest | undefined {
  const p = result?.metadata?.pending;
  if (typeof p !== "object" || p === null) return undefined;
  const r = p as PendingRequest;
  return typeof r.id === "string" && typeof r.kind === "string" && typeof r.prompt === "string" ? r : undefined;
}

/** True once `now` is past the Request's `expiresAt`. An unparsable `expiresAt` counts as expired. */
export function isExpired(request: PendingRequest, now = Date.now()): boolean {
  if (request.expiresAt === undefined) return false;
  const t = Date.parse(request.expiresAt);
  return Number.isNaN(t) || now > t;
}

// parseAnswer / parseRequest: an Answer or Request that arrived from an untrusted place (a form post, a
// queue, another port), checked field by field; the error names the first bad field.

const data = optional(jsonObject());

/** An Answer's data: any JSON object, whose `remember` and `sameArgs` (answerApproval's) have their types. */
const answerData = optional(APPROVAL_OPTIONS);

const ANSWER: Record<string, Check> = {
  id: nonEmpty,
  ok: boolean,
  data: answerData,
  reason: optional(oneOf(REASONS, REASONS_TEXT)),
};

const REQUEST: Record<string, Check> = {
  id: nonEmpty,
  kind: nonEmpty,
  prompt: string,
  url: optional(string),
  data,
  expiresAt: optional(
    is((s) => typeof s === "string" && !Number.isNaN(Date.parse(s)), "must be an RFC 3339 timestamp"),
  ),
};

const ANSWER_SHAPE = shape(ANSWER);
const REQUEST_SHAPE = shape(REQUEST);

/** Only the known fields, in their order, `data` deep-copied (no prototype tricks survive). */
function parseWith<T>(what: string, fields: Record<string, Check>, check: Check, value: unknown): T {
  if (!isPlainObject(value)) {
    throw new InvalidAnswerError("", `toolnexus: invalid ${what}: expected a JSON object, got ${typeName(value)}`);
  }
  const problem = problemIn(check, value);
  if (problem) throw new InvalidAnswerError(problem.path, `toolnexus: invalid ${what}: ${problem.describe()}`);
  const out: Record<string, unknown> = {};
  for (const key in fields)
    if (value[key] !== undefined) out[key] = key === "data" ? cloneJson(value[key], what, "data") : value[key];
  return out as T;
}

/** Validates an Answer that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseAnswer(value: unknown): Answer {
  const answer = parseWith<Answer>("Answer", ANSWER, ANSWER_SHAPE, value);
  if (answer.ok && answer.reason !== undefined)
    throw new InvalidAnswerError("reason", 'toolnexus: invalid Answer: "reason" is only allowed when ok is false');
  return answer;
}

/** Validates a Request that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseRequest(value: unknown): PendingRequest {
  return parseWith("Request", REQUEST, REQUEST_SHAPE, value);
}

const MAX_DEPTH = 64;

/**
 * A JSON-safe copy of `value`: plain objects, arrays, strings, finite numbers, booleans and null.
 * `__proto__` keys are dropped so nothing downstream can reach an object prototype through them.
 */
export function cloneJson(value: unknown, what: string, field: string, depth = 0): unknown {
  if (depth > MAX_DEPTH)
    throw new InvalidAnswerError(
      field,
      `toolnexus: invalid ${what}: "${field}" is nested deeper than ${MAX_DEPTH} levels`,
    );
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" is ${value}, which JSON cannot carry`);
  }
  if (Array.isArray(value)) return value.map((item, i) => cloneJson(item, what, `${field}[${i}]`, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === "__proto__") continue;
      out[key] = cloneJson(value[key], what, field ? `${field}.${key}` : key, depth + 1);
    }
    return out;
  }
  throw new InvalidAnswerError(
    field,
    `toolnexus: invalid ${what}: "${field}" is ${typeName(value)}, which JSON cannot carry`,
  );
}
