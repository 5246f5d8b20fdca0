// The trust boundary: parseAnswer / parseRequest check an Answer or Request that arrived from an untrusted
// place (a form post, a queue, another port) field by field, and copy its `data` as bounded plain JSON; the
// error names the first bad field.
// the shapes below are written with the check combinators under one name, as a schema library's are
import * as check from "./_internal/check";
import { isPlainObject, typeName } from "./_internal/json";
import { APPROVAL_OPTIONS, isMessage, MESSAGE_TEXT, REASONS, REASONS_TEXT } from "./answer";
import { InvalidAnswerError } from "./errors";
import type { Answer, PendingRequest } from "./types";

const data = check.optional(check.jsonObject());

/** An Answer's data: any JSON object, whose `remember` and `sameArgs` (answerApproval's) have their types. */
const answerData = check.optional(
  check.shape(
    {
      remember: check.optional(check.is(APPROVAL_OPTIONS.remember.test, APPROVAL_OPTIONS.remember.want)),
      sameArgs: check.optional(check.is(APPROVAL_OPTIONS.sameArgs.test, APPROVAL_OPTIONS.sameArgs.want)),
    },
    "must be a JSON object",
  ),
);

const ANSWER: Record<string, check.Check> = {
  id: check.nonEmpty,
  ok: check.boolean,
  data: answerData,
  reason: check.optional(check.oneOf(REASONS, REASONS_TEXT)),
  message: check.optional(check.is(isMessage, MESSAGE_TEXT)),
};

const REQUEST: Record<string, check.Check> = {
  id: check.nonEmpty,
  kind: check.nonEmpty,
  prompt: check.string,
  url: check.optional(check.string),
  data,
  expiresAt: check.optional(
    check.is((s) => typeof s === "string" && !Number.isNaN(Date.parse(s)), "must be an RFC 3339 timestamp"),
  ),
};

const ANSWER_SHAPE = check.shape(ANSWER);
const REQUEST_SHAPE = check.shape(REQUEST);

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
function parseWith<T>(what: string, fields: Record<string, check.Check>, whole: check.Check, value: unknown): T {
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
  const problem = check.problemIn(whole, out);
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

/** The path of `key` in the object at `field` (`""`: the top). */
const memberPath = (field: string, key: string): string => (field ? `${field}.${key}` : key);

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
      const path = list ? `${field}[${key}]` : memberPath(field, String(key));
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
