import * as v from "valibot";
import { typeName } from "./answer";
import { InvalidAnswerError } from "./errors";
import { cloneJson, isPlainObject } from "./json";
import type { Answer, Request } from "./types";

const objectData = v.custom<Record<string, unknown>>(isPlainObject, "must be a JSON object");
const nonEmpty = v.custom<string>((s) => typeof s === "string" && s !== "", "must be a non-empty string");
const timestamp = v.custom<string>((s) => typeof s === "string" && !Number.isNaN(Date.parse(s)), "must be an RFC 3339 timestamp");

const AnswerSchema = v.object({
  id: nonEmpty,
  ok: v.boolean("must be a boolean"),
  data: v.optional(objectData),
  reason: v.optional(v.picklist(["declined", "cancelled", "expired"], 'must be "declined", "cancelled" or "expired"')),
});

const RequestSchema = v.object({
  id: nonEmpty,
  kind: nonEmpty,
  prompt: v.string("must be a string"),
  url: v.optional(v.string("must be a string")),
  data: v.optional(objectData),
  expiresAt: v.optional(timestamp),
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
  const answer = parseWith("Answer", AnswerSchema, value);
  if (answer.ok && answer.reason !== undefined) throw new InvalidAnswerError("reason", 'toolnexus: invalid Answer: "reason" is only allowed when ok is false');
  return answer;
}

/** Validates a Request that arrived from an untrusted place. Throws {@link InvalidAnswerError} naming the bad field. */
export function parseRequest(value: unknown): Request {
  return parseWith("Request", RequestSchema, value);
}
