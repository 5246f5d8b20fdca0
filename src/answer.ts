// The Answer constructors: what a host (or a page) builds to resume a suspended run. Each checks its
// arguments where they are passed and throws a ConfigError naming the bad one.
import { isPlainObject, typeName } from "./_internal/json";
import { ConfigError, shown } from "./errors";
import type { RelayResult, Answer, AnswerReason, ApprovalScope } from "./types";

export const REASONS: readonly AnswerReason[] = ["declined", "cancelled", "expired"];
export const REASONS_TEXT = 'must be "declined", "cancelled" or "expired"';

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
export const MESSAGE_TEXT = `must be a string of at most ${MAX_DECLINE_MESSAGE} characters`;
export const isMessage = (m: unknown): m is string => typeof m === "string" && m.length <= MAX_DECLINE_MESSAGE;

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

/**
 * answerApproval's options, each with the test its value must pass and what it must be: answerApproval
 * checks its arguments against them, parseAnswer an Answer's `data` (any other keys allowed there).
 */
export const APPROVAL_OPTIONS = {
  remember: { test: (v: unknown) => SCOPES.includes(v as ApprovalScope), want: 'must be "conversation" or "owner"' },
  sameArgs: { test: (v: unknown) => typeof v === "boolean", want: "must be a boolean" },
} as const;

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
  for (const [field, value] of [
    ["remember", remember],
    ["sameArgs", sameArgs],
  ] as const) {
    const { test, want } = APPROVAL_OPTIONS[field];
    if (value !== undefined && !test(value))
      throw new ConfigError(field, `toolnexus: answerApproval's "${field}" ${want}, got ${typed(value)}`);
  }
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
