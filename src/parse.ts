// parseAnswer / parseRequest: an Answer or Request that arrived from an untrusted place (a form post, a
// queue, another port), checked field by field; the error names the first bad field.
import { typeName } from "./answer";
import { boolean, jsonObject, nonEmpty, oneOf, optional, problemIn, shape, string, is, type Check } from "./check";
import { InvalidAnswerError } from "./errors";
import { cloneJson, isPlainObject } from "./json";
import type { Answer, Request } from "./types";

const data = optional(jsonObject());

const ANSWER: Record<string, Check> = {
  id: nonEmpty,
  ok: boolean,
  data,
  reason: optional(oneOf(["declined", "cancelled", "expired"], 'must be "declined", "cancelled" or "expired"')),
};

const REQUEST: Record<string, Check> = {
  id: nonEmpty,
  kind: nonEmpty,
  prompt: string,
  url: optional(string),
  data,
  expiresAt: optional(is((s) => typeof s === "string" && !Number.isNaN(Date.parse(s)), "must be an RFC 3339 timestamp")),
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
  for (const key in fields) if (value[key] !== undefined) out[key] = key === "data" ? cloneJson(value[key], what, "data") : value[key];
  return out as T;
}

/** Validates an Answer that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseAnswer(value: unknown): Answer {
  const answer = parseWith<Answer>("Answer", ANSWER, ANSWER_SHAPE, value);
  if (answer.ok && answer.reason !== undefined) throw new InvalidAnswerError("reason", 'toolnexus: invalid Answer: "reason" is only allowed when ok is false');
  return answer;
}

/** Validates a Request that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseRequest(value: unknown): Request {
  return parseWith("Request", REQUEST, REQUEST_SHAPE, value);
}
