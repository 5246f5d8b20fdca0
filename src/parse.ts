import * as v from "valibot";
import { typeName } from "./answer";
import { InvalidAnswerError } from "./errors";
import type { Answer, Request } from "./types";

const MAX_DEPTH = 64;

/**
 * A JSON-safe copy of `value`: plain objects, arrays, strings, finite numbers, booleans and null.
 * `__proto__` keys are dropped so nothing downstream can reach an object prototype through them.
 */
export function cloneJson(value: unknown, what: string, field: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" is nested deeper than ${MAX_DEPTH} levels`);
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
  throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" is ${typeName(value)}, which JSON cannot carry`);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const objectData = v.custom<Record<string, unknown>>(isPlainObject, "must be a JSON object");
const nonEmpty = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"));

const AnswerSchema = v.pipe(
  v.object({
    id: nonEmpty,
    ok: v.boolean("must be a boolean"),
    data: v.optional(objectData),
    reason: v.optional(v.picklist(["declined", "cancelled", "expired"], 'must be "declined", "cancelled" or "expired"')),
  }),
  v.check((a) => a.ok === false || a.reason === undefined, "reason is only allowed when ok is false"),
);

const RequestSchema = v.object({
  id: nonEmpty,
  kind: nonEmpty,
  prompt: v.string("must be a string"),
  url: v.optional(v.string("must be a string")),
  data: v.optional(objectData),
  expiresAt: v.optional(
    v.pipe(
      v.string("must be a string"),
      v.check((s) => !Number.isNaN(Date.parse(s)), "must be an RFC 3339 timestamp"),
    ),
  ),
});

function fail(what: string, issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): never {
  const issue = issues[0];
  const field = v.getDotPath(issue) ?? "";
  const got = field && issue.input !== undefined ? `, got ${typeName(issue.input)}` : field ? ", but it is missing" : "";
  const where = field ? `"${field}" ${issue.message}${got}` : issue.message;
  throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: ${where}`);
}

function parseWith<T>(what: string, schema: v.GenericSchema<unknown, T>, value: unknown): T {
  if (!isPlainObject(value)) {
    throw new InvalidAnswerError("", `toolnexus: invalid ${what}: expected a JSON object, got ${typeName(value)}`);
  }
  const result = v.safeParse(schema, value);
  if (!result.success) fail(what, result.issues);
  const out = result.output as T & { data?: Record<string, unknown> };
  if (out.data !== undefined) out.data = cloneJson(out.data, what, "data") as Record<string, unknown>;
  return out;
}

/** Validates an Answer that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseAnswer(value: unknown): Answer {
  return parseWith("Answer", AnswerSchema, value);
}

/** Validates a Request that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseRequest(value: unknown): Request {
  return parseWith("Request", RequestSchema, value);
}
