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
import { ConfigError, InvalidAnswerError, shown } from "./errors";
import type { RelayResult, Answer, AnswerReason, ApprovalScope, PendingRequest, ToolResult } from "./types";

const REASONS: readonly AnswerReason[] = ["declined", "cancelled", "expired"];
const REASONS_TEXT = 'must be "declined", "cancelled" or "expired"';

function requireId(fn: string, id: unknown): asserts id is string {
  if (typeof id !== "string" || id === "") {
    throw new ConfigError("id", `toolnexus: ${fn}: id is required (it must match the Request's id), got ${shown(id)}`);
  }
}

/** `number 42`, `object { city }`: the kind first (the message DESIGN fixes), then the value, cut short. */
const typed = (value: unknown): string => (value == null ? String(value) : `${typeName(value)} ${shown(value)}`);

/**
 * The Answer for a human's (or host's) string reply: `{ id, ok: true, data: { output } }`,
 * plus `data.isError: true` when `isError`. A non-string output throws; it is never coerced.
 */
/* @__NO_SIDE_EFFECTS__ */
export function answerOutput(id: string, output: string, isError = false): Answer {
  if (typeof output !== "string") {
    throw new ConfigError("output", `toolnexus: Answer output must be a string, got ${typed(output)}`);
  }
  requireId("answerOutput", id);
  return { id, ok: true, data: isError ? { output, isError: true } : { output } };
}

/** The longest `message` a refusal may carry, in characters. */
export const MAX_DECLINE_MESSAGE = 1000;
const MESSAGE_TEXT = `must be a string of at most ${MAX_DECLINE_MESSAGE} characters`;
const isMessage = (m: unknown): m is string => typeof m === "string" && m.length <= MAX_DECLINE_MESSAGE;

/**
 * The Answer that refuses a Request: `{ id, ok: false, reason }`, plus `message` — why, in words — when
 * given: the model then sees `declined/expired: <prompt> — <message>`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function answerDeclined(id: string, reason: AnswerReason = "declined", message?: string): Answer {
  requireId("answerDeclined", id);
  if (!REASONS.includes(reason)) {
    throw new ConfigError("reason", `toolnexus: Answer reason ${REASONS_TEXT}, got ${shown(reason)}`);
  }
  if (message === undefined) return { id, ok: false, reason };
  if (!isMessage(message))
    throw new ConfigError("message", `toolnexus: answerDeclined message ${MESSAGE_TEXT}, got ${shown(message)}`);
  return { id, ok: false, reason, message };
}

/** What the model sees for a refused Request: the family's fixed text, then ` — <message>` when the answer says why. */
export const declineText = (prompt: string, answer: Answer): string =>
  `declined/expired: ${prompt}${answer.message ? ` — ${answer.message}` : ""}`;

export type { RelayResult } from "./types";

const SCOPES: readonly ApprovalScope[] = ["conversation", "owner"];
const SCOPES_TEXT = 'must be "conversation" or "owner"';

/**
 * answerApproval's options as they are checked in an Answer's data (a JSON object, any other keys allowed);
 * answerApproval checks the same two itself, so a page that builds answers does not carry the combinators.
 */
const APPROVAL_OPTIONS = shape(
  { remember: optional(oneOf(SCOPES, SCOPES_TEXT)), sameArgs: optional(boolean) },
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
  if (remember !== undefined && !SCOPES.includes(remember))
    throw new ConfigError("remember", `toolnexus: answerApproval's "remember" ${SCOPES_TEXT}, got ${shown(remember)}`);
  if (sameArgs !== undefined && typeof sameArgs !== "boolean")
    throw new ConfigError(
      "sameArgs",
      `toolnexus: answerApproval's "sameArgs" must be a boolean, got ${typed(sameArgs)}`,
    );
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
    throw new ConfigError("fields", `toolnexus: answerForm fields must be a plain object, got ${shown(fields)}`);
  }
  return { id, ok: true, data: { ...fields } };
}

/** The Answer carrying the host's results for relayed tool calls: `{ id, ok: true, data: { results } }`. */
/* @__NO_SIDE_EFFECTS__ */
export function relayAnswer(id: string, results: RelayResult[]): Answer {
  requireId("relayAnswer", id);
  if (!Array.isArray(results))
    throw new ConfigError("results", `toolnexus: relayAnswer results must be an array, got ${shown(results)}`);
  const copy = results.map((r, i) => {
    if (typeof r !== "object" || r === null || typeof r.id !== "string") {
      throw new ConfigError(
        "results",
        `toolnexus: relayAnswer results[${i}] must be { id, output, isError? }, got ${shown(r)}`,
      );
    }
    if (typeof r.output !== "string") {
      throw new ConfigError(
        "results",
        `toolnexus: Answer output must be a string, got ${typed(r.output)} (results[${i}].output)`,
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
 * a bad field throws ConfigError, which the loop hands to the model as the tool's error result.
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
      throw new ConfigError(key, `toolnexus: pending: ${key} must be a non-empty string, got ${shown(value)}`);
    }
  }
  if (request.data !== undefined && !isObject(request.data))
    throw new ConfigError("data", `toolnexus: pending: data must be a plain object, got ${shown(request.data)}`);
  if (request.expiresAt !== undefined && Number.isNaN(Date.parse(request.expiresAt)))
    throw new ConfigError(
      "expiresAt",
      `toolnexus: pending: expiresAt must be an RFC 3339 timestamp, got ${shown(request.expiresAt)}`,
    );
  const req: PendingRequest<string> = { id: request.id ?? newRequestId(), kind: request.kind, prompt: request.prompt };
  if (request.url !== undefined) req.url = request.url;
  if (request.data !== undefined) req.data = request.data;
  if (request.expiresAt !== undefined) req.expiresAt = request.expiresAt;
  const metadata: Record<string, unknown> = { pending: req };
  if (options.state !== undefined) {
    if (jsonOf(options.state) === undefined)
      throw new ConfigError("state", `toolnexus: pending: state must be JSON, got ${shown(options.state)}`);
    metadata.pendingState = options.state;
  }
  return { output: req.url ? `${req.prompt}\n${req.url}` : req.prompt, isError: true, metadata };
}

/** `value` as JSON text, or `undefined` when it has none (a function, a BigInt, a cycle, a throwing toJSON). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
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
  message: optional(is(isMessage, MESSAGE_TEXT)),
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

/** How deep, and how large (string characters, keys and values counted), untrusted `data` may be. */
const MAX_DEPTH = 64;
const MAX_SIZE = 16_777_216; // 16 Mi

/**
 * `get()` on a value a caller handed in: a getter or a Proxy trap that throws makes `field` bad — an
 * InvalidAnswerError naming it — and the value's own error never escapes.
 */
function read<T>(what: string, field: string, get: () => T): T {
  try {
    return get();
  } catch {
    throw new InvalidAnswerError(
      field,
      `toolnexus: invalid ${what}: ${field ? `"${field}"` : "the value"} could not be read (a getter or proxy threw) — send plain JSON`,
    );
  }
}

/**
 * Only the known fields, each read once, in their order; `data` deep-copied as plain JSON (no prototype
 * tricks, getters or proxies survive), so what is checked is what is returned.
 */
function parseWith<T>(what: string, fields: Record<string, Check>, check: Check, value: unknown): T {
  if (!read(what, "", () => isPlainObject(value))) {
    throw new InvalidAnswerError("", `toolnexus: invalid ${what}: expected a JSON object, got ${typeName(value)}`);
  }
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    const field = read(what, key, () => (value as Record<string, unknown>)[key]);
    if (field === undefined) continue;
    const copy = key === "data" && read(what, key, () => isPlainObject(field));
    out[key] = copy ? cloneJson(field, what, key, 0, { left: MAX_SIZE }) : field;
  }
  const problem = problemIn(check, out);
  if (problem) throw new InvalidAnswerError(problem.path, `toolnexus: invalid ${what}: ${problem.describe()}`);
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
export function parseRequest(value: unknown): PendingRequest<string> {
  return parseWith("Request", REQUEST, REQUEST_SHAPE, value);
}

/**
 * A JSON-safe copy of `value`: plain objects, arrays, strings, finite numbers, booleans and null, at most
 * MAX_DEPTH deep and MAX_SIZE large. `__proto__` keys are dropped so nothing downstream can reach an object
 * prototype through them. Every member is read once, through {@link read}.
 */
function cloneJson(value: unknown, what: string, field: string, depth: number, budget: { left: number }): unknown {
  const bad = (problem: string) => new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" ${problem}`);
  if (depth > MAX_DEPTH) throw bad(`is nested deeper than ${MAX_DEPTH} levels`);
  budget.left -= typeof value === "string" ? value.length + 1 : 1;
  if (budget.left < 0) throw bad(`makes the value larger than ${MAX_SIZE} characters`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw bad(`is ${value}, which JSON cannot carry`);
  }
  const list = read(what, field, () => Array.isArray(value));
  if (list || read(what, field, () => isPlainObject(value))) {
    const source = value as Record<string, unknown>;
    const keys = read(what, field, () => (list ? (value as unknown[]).length : Object.keys(source)));
    const count = typeof keys === "number" ? keys : keys.length;
    if (count > budget.left) throw bad(`makes the value larger than ${MAX_SIZE} characters`);
    const out = (list ? [] : {}) as Record<string | number, unknown>;
    for (let i = 0; i < count; i++) {
      const key = typeof keys === "number" ? i : keys[i]!;
      if (key === "__proto__") continue;
      const path = list ? `${field}[${key}]` : field ? `${field}.${key}` : String(key);
      if (!list) budget.left -= String(key).length;
      out[key] = cloneJson(
        read(what, path, () => source[key]),
        what,
        path,
        depth + 1,
        budget,
      );
    }
    return out;
  }
  throw bad(`is ${typeName(value)}, which JSON cannot carry`);
}
