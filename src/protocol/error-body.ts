// What the endpoint answers a failure with: `{ error: { code, reason?, message } }`, with a status that fits
// the code — or the same fields as an `error` event once a stream has started. `reason` says which conflict a
// `run_conflict` is (errors.ts); the page rebuilds the error from these fields and branches on them.
import {
  CONFLICT_REASONS,
  type ConflictReason,
  RunConflictError,
  ToolnexusError,
  type ToolnexusErrorCode,
} from "../errors";

/** The fields of a failure as a page is told them. */
export interface ErrorPayload {
  code: string;
  /** Which conflict a `run_conflict` is. */
  reason?: ConflictReason;
  message: string;
}

/** An error response's body. */
export interface ErrorBody {
  error: ErrorPayload;
}

/** The HTTP status for an error code: 4xx for what the caller can fix, 502 for the model upstream, else 500. */
const STATUS: Readonly<Record<string, number>> = {
  bad_request: 400,
  invalid_answer: 400,
  resume_token: 403,
  run_not_found: 404,
  method_not_allowed: 405,
  answer_mismatch: 409,
  run_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  llm_http: 502,
  stream: 502,
  network: 502,
};

/** The status of an error response with `code`. */
export function statusOf(code: string): number {
  return STATUS[code] ?? 500;
}

/** True for one of the conflict reasons (a value that came over the network is checked with it). */
export function isConflictReason(value: unknown): value is ConflictReason {
  return CONFLICT_REASONS.includes(value as ConflictReason);
}

/** The payload of `error` as it is sent: its code, its reason when it is a conflict, its message. */
export function payloadOfError(error: ToolnexusError): ErrorPayload {
  const reason = (error as Partial<RunConflictError>).reason;
  if (error.code === "run_conflict" && isConflictReason(reason))
    return { code: error.code, reason, message: error.message };
  return { code: error.code, message: error.message };
}

/** The payload in a received body (`{ error: { … } }`), or undefined when it holds none. */
export function payloadOfBody(value: unknown): ErrorPayload | undefined {
  const error = (value as { error?: unknown } | null)?.error;
  return payloadOfFields(error);
}

/** The payload of received fields `{ code, reason?, message }`, or undefined when they are not one. */
export function payloadOfFields(value: unknown): ErrorPayload | undefined {
  const fields = value as Partial<Record<keyof ErrorPayload, unknown>> | null | undefined;
  if (typeof fields?.code !== "string" || typeof fields.message !== "string") return undefined;
  const payload: ErrorPayload = { code: fields.code, message: fields.message };
  if (isConflictReason(fields.reason)) payload.reason = fields.reason;
  return payload;
}

/**
 * The server's error as the page throws it: a RunConflictError with its reason for a conflict that names one,
 * else a ToolnexusError carrying the server's own code (which may be one this copy lacks).
 */
export function errorOfPayload({ code, reason, message }: ErrorPayload, runId = ""): ToolnexusError {
  if (code === "run_conflict" && reason) return new RunConflictError(runId, message, reason);
  return new ToolnexusError(code as ToolnexusErrorCode, message);
}
